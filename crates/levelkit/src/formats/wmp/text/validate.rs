//! Validation: every finding with its path.

use std::collections::HashSet;

use super::level::DOLLAR_M_TEXTURE_LEN;
use super::model::*;
use super::{read, write};
use crate::error::{Location, Warning};
use crate::formats::wmp::level::Level;
use crate::registry::Format;

struct Findings {
    format: Format,
    out: Vec<Warning>,
}

impl Findings {
    fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.out
            .push(Warning::warning(self.format, Location::path(path), message));
    }

    fn error(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.out
            .push(Warning::error(self.format, Location::path(path), message));
    }
}

/// A copy without layout differences, to compare what a model stands for.
fn without_layout(t: &WmpText) -> WmpText {
    let mut t = t.clone();
    t.header.layout = Layout::default();
    t.end = None;
    for r in &mut t.records {
        *r.layout_mut() = Layout::default();
        if let Record::MLevel(l) = r {
            for b in &mut l.blocks {
                b.layout = Layout::default();
            }
        }
    }
    t
}

/// Check a file and collect every finding, with the path of the record.
///
/// Errors (the file is unusable as it is): the model cannot be written or its written form does
/// not read back as the same model, face indices out of range, faces with fewer than three
/// vertices. Warnings (the editor or compiler would still load it, or it is a known variation):
/// header counts that differ from the records, numbering out of sequence, block trailer indices
/// that are not the block number, path triplet counts other than 3·N + 2·E, skill and edge lines
/// of unusual length, edges naming nodes that do not exist, group members that do not exist, name
/// the wrong kind or are held twice, blocks and entities in no group, groups not reachable from
/// group 0, a missing level (or `$$M` sun) record, sun numbers and colour lines of unusual
/// count, light records with four or five fields where the dialect has the other, file names
/// without `<…>` in text dialects, texture names longer than 15 characters in `$$M`, flags that
/// are not binary digits, duplicate face indices, A4 face planes whose points are collinear,
/// and tokens kept without a known meaning (the lenient parts: MapBuilder's extra lines and the
/// like).
pub fn validate(t: &WmpText) -> Vec<Warning> {
    let mut f = Findings {
        format: if t.dialect.is_dollar_m() {
            Format::DollarM
        } else {
            Format::WmpText
        },
        out: Vec::new(),
    };
    match write::write(t) {
        Err(e) => f.error("", format!("cannot be written: {e}")),
        Ok(bytes) => match read::read(&bytes) {
            Err(e) => f.error("", format!("the written file does not read back: {e}")),
            Ok(back) => {
                if without_layout(&back) != without_layout(t) {
                    f.error("", "the written file reads back as a different level");
                }
            }
        },
    }
    let mut blocks = 0usize;
    let mut entities = 0usize;
    let mut groups = 0usize;
    let mut levels = 0usize;
    let mut suns = 0usize;
    for (i, r) in t.records.iter().enumerate() {
        let at = format!("records[{i}]");
        if r.is_text_entity() {
            if r.number()
                .is_some_and(|n| usize::try_from(n).ok() != Some(entities))
            {
                f.warn(
                    &at,
                    format!(
                        "entity number {:?}, expected {entities} (the sequence)",
                        r.number()
                    ),
                );
            }
            entities = entities.saturating_add(1);
        }
        match r {
            Record::Block(b) => {
                if b.number
                    .is_some_and(|n| usize::try_from(n).ok() != Some(blocks))
                {
                    f.warn(
                        &at,
                        format!("block number {:?}, expected {blocks}", b.number),
                    );
                }
                check_block(&mut f, t.dialect, &at, b);
                blocks = blocks.saturating_add(1);
            }
            Record::Group(g) => {
                if usize::try_from(g.number).ok() != Some(groups) {
                    f.warn(
                        &at,
                        format!("object number {}, expected {groups}", g.number),
                    );
                }
                groups = groups.saturating_add(1);
            }
            Record::Level(l) => {
                levels = levels.saturating_add(1);
                if l.sun.len() != 3 {
                    f.warn(&at, format!("{} sun numbers; editors write 3", l.sun.len()));
                }
                if l.colors.len() != 6 {
                    f.warn(
                        &at,
                        format!(
                            "{} colour lines; editors write 6 (sun, ambient, 4 fog)",
                            l.colors.len()
                        ),
                    );
                }
                for (what, name) in [
                    ("WAD", &l.wad),
                    ("palette", &l.palette),
                    ("script", &l.script),
                ] {
                    check_bracketed(&mut f, &at, what, name);
                }
                check_extra(&mut f, &at, &l.extra);
            }
            Record::Start(s) => check_extra(&mut f, &at, &s.extra),
            Record::Light(l) => {
                if l.flags.is_some() {
                    f.warn(
                        &at,
                        "a fifth light field (flags), as in $$M; text lights have four",
                    );
                }
                check_flags(&mut f, &at, l.flags.as_deref());
                check_extra(&mut f, &at, &l.extra);
            }
            Record::Sound(s) => {
                check_bracketed(&mut f, &at, "sound file", &s.file);
                check_flags(&mut f, &at, Some(&s.flags));
                check_extra(&mut f, &at, &s.extra);
            }
            Record::Model(m) => {
                if !matches!(m.skills.len(), 8 | 20) {
                    f.warn(
                        &at,
                        format!("{} skills; text models have 8 (or 20)", m.skills.len()),
                    );
                }
                check_bracketed(&mut f, &at, "model file", &m.file);
                check_flags(&mut f, &at, Some(&m.flags));
                check_extra(&mut f, &at, &m.extra);
            }
            Record::Path(p) => {
                if let Some(tr) = &p.triplets {
                    check_path(&mut f, &at, tr, &p.positions, &p.skills, &p.edges);
                }
            }
            Record::Other(o) => f.warn(
                &at,
                format!(
                    "a record of unknown kind {:?}, kept as {} tokens",
                    o.keyword,
                    o.tokens.len()
                ),
            ),
            Record::MLevel(l) => {
                levels = levels.saturating_add(1);
                for (bi, b) in l.blocks.iter().enumerate() {
                    let at = format!("{at}.blocks[{bi}]");
                    if b.index.is_some_and(|n| usize::try_from(n).ok() != Some(bi)) {
                        f.warn(&at, format!("trailer index {:?}, expected {bi}", b.index));
                    }
                    check_block(&mut f, t.dialect, &at, b);
                }
            }
            Record::MSun(s) => {
                suns = suns.saturating_add(1);
                if s.values.len() != 2 {
                    f.warn(
                        &at,
                        format!("{} sun numbers; wmpio writes 2", s.values.len()),
                    );
                }
            }
            Record::MModel(m) => {
                let want = if m.type_id == 7 { 20 } else { 8 };
                if m.skills.len() != want {
                    f.warn(
                        &at,
                        format!(
                            "{} skills; type {} models have {want}",
                            m.skills.len(),
                            m.type_id
                        ),
                    );
                }
                if m.type_id == 3 && (m.albedo.is_some() || m.material.is_some()) {
                    f.warn(&at, "a type 3 model with type 7 fields");
                }
                if m.string1.is_some() || m.string2.is_some() {
                    f.warn(&at, "string1/string2 lines, as MapBuilder writes");
                }
                check_flags(&mut f, &at, Some(&m.flags));
                check_extra(&mut f, &at, &m.extra);
            }
            Record::MLight(l) => {
                if l.flags.is_none() {
                    f.warn(
                        &at,
                        "four light fields; wmpio writes five (R G B range flags)",
                    );
                }
                check_flags(&mut f, &at, l.flags.as_deref());
                check_extra(&mut f, &at, &l.extra);
            }
            Record::MPath(p) => {
                check_path(&mut f, &at, &p.triplets, &p.positions, &p.skills, &p.edges)
            }
            Record::MStart(s) => check_extra(&mut f, &at, &s.extra),
            Record::MOther(o) => f.warn(
                &at,
                format!(
                    "a record of type {}, kept as {} tokens",
                    o.type_id,
                    o.tokens.len()
                ),
            ),
        }
    }
    if let Some(c) = &t.header.counts {
        for (what, said, found) in [
            ("blocks", c.blocks, blocks),
            ("entities", c.entities, entities),
            ("objects", c.objects, groups),
        ] {
            if usize::try_from(said).ok() != Some(found) {
                f.warn(
                    "header",
                    format!("the header says {what} {said}; the file has {found}"),
                );
            }
        }
    }
    if levels != 1 {
        f.warn("", format!("{levels} level records; a level has one"));
    }
    if t.dialect.is_dollar_m() {
        if suns != 1 {
            f.warn("", format!("{suns} sun records; wmpio writes one"));
        }
    } else {
        let (level, warnings) = super::level::to_level(t);
        f.out.extend(
            warnings
                .into_iter()
                .filter(|w| !w.message.starts_with("A4 blocks are given by face planes")),
        );
        check_groups(&mut f, &level);
    }
    f.out
}

fn check_extra(f: &mut Findings, at: &str, extra: &[String]) {
    if !extra.is_empty() {
        f.warn(
            at,
            format!(
                "{} tokens without a known meaning, kept: {extra:?}",
                extra.len()
            ),
        );
    }
}

fn check_bracketed(f: &mut Findings, at: &str, what: &str, name: &str) {
    if !(name.starts_with('<') && name.ends_with('>')) {
        f.warn(
            at,
            format!("the {what} {name:?} is not in <…>, as text levels write file names"),
        );
    }
}

fn check_flags(f: &mut Findings, at: &str, flags: Option<&str>) {
    let Some(flags) = flags else { return };
    let digits = flags
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or(flags);
    if digits.is_empty() || !digits.bytes().all(|b| b == b'0' || b == b'1') {
        f.warn(at, format!("flags {flags:?} are not binary digits"));
    }
}

fn check_block(f: &mut Findings, dialect: Dialect, at: &str, b: &Block) {
    if b.faces.len() < 4 {
        f.warn(
            at,
            format!("{} faces; a closed block has at least 4", b.faces.len()),
        );
    }
    if dialect != Dialect::A4
        && let (Some(n), Some(i)) = (b.number, b.index)
        && n != i
    {
        f.warn(at, format!("trailer index {i} is not the block number {n}"));
    }
    check_flags(f, at, Some(&b.flags));
    check_extra(f, at, &b.extra);
    for (fi, face) in b.faces.iter().enumerate() {
        let at = format!("{at}.faces[{fi}]");
        check_flags(f, &at, Some(&face.flags));
        check_extra(f, &at, &face.extra);
        if dialect.is_dollar_m() && face.texture.chars().count() > DOLLAR_M_TEXTURE_LEN {
            f.warn(
                &at,
                format!(
                    "texture name {:?} is longer than 15 characters",
                    face.texture
                ),
            );
        }
        if let Some(p) = &face.plane {
            let [a, b, c] = [values3(&p[0]), values3(&p[1]), values3(&p[2])];
            let u = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
            let v = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
            let n = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            if n.iter().all(|x| x.abs() < 1e-9) {
                f.warn(&at, "the three plane points are collinear: no plane");
            }
            continue;
        }
        if face.indices.len() < 3 {
            f.error(
                &at,
                format!("{} vertices; a face needs 3", face.indices.len()),
            );
        }
        let mut seen = HashSet::new();
        for &i in &face.indices {
            if usize::try_from(i).map_or(true, |i| i >= b.vertices.len()) {
                f.error(
                    &at,
                    format!(
                        "vertex index {i} is out of range ({} vertices)",
                        b.vertices.len()
                    ),
                );
            }
            if !seen.insert(i) {
                f.warn(&at, format!("vertex index {i} repeats"));
            }
        }
    }
}

fn check_path(
    f: &mut Findings,
    at: &str,
    triplets: &Num,
    positions: &[Vec3],
    skills: &[Vec<Num>],
    edges: &[Vec<Num>],
) {
    let n = positions.len();
    let expected = n
        .saturating_mul(3)
        .saturating_add(edges.len().saturating_mul(2));
    #[allow(clippy::cast_precision_loss)]
    if triplets.value() != expected as f64 {
        f.warn(
            at,
            format!(
                "T is {triplets}; 3·N + 2·E = {expected} ({n} nodes, {} edges)",
                edges.len()
            ),
        );
    }
    if skills.len() != n {
        f.warn(at, format!("{} skill lines for {n} nodes", skills.len()));
    }
    for (i, s) in skills.iter().enumerate() {
        if s.len() != 6 {
            f.warn(
                format!("{at}.skills[{i}]"),
                format!("{} skills; nodes have 6", s.len()),
            );
        }
    }
    for (i, e) in edges.iter().enumerate() {
        let at = format!("{at}.edges[{i}]");
        if e.len() != 6 {
            f.warn(&at, format!("{} values; edges have 6", e.len()));
        }
        for node in e.iter().take(2) {
            let v = node.value();
            #[allow(clippy::cast_precision_loss)]
            if v.fract() != 0.0 || v < 1.0 || v > n as f64 {
                f.warn(
                    &at,
                    format!("node {node} does not exist (nodes are 1 to {n})"),
                );
            }
        }
    }
}

/// Items in no group, groups with two parents or out of reach of group 0.
fn check_groups(f: &mut Findings, level: &Level) {
    if level.groups.is_empty() {
        f.warn("", "no groups: nothing places the blocks and entities");
        return;
    }
    for (i, b) in level.blocks.iter().enumerate() {
        if b.group.is_none() {
            f.warn(format!("blocks[{i}]"), "block in no group");
        }
    }
    for (i, e) in level.entities.iter().enumerate() {
        if e.group.is_none() {
            f.warn(
                format!("entities[{i}]"),
                format!("{:?} {} in no group", e.kind, e.number),
            );
        }
    }
    let mut parent: Vec<Option<usize>> = vec![None; level.groups.len()];
    for (gi, g) in level.groups.iter().enumerate() {
        for &c in &g.groups {
            match parent.get_mut(c) {
                Some(slot @ None) => *slot = Some(gi),
                Some(Some(p)) => f.warn(format!("groups[{c}]"), format!("in groups {p} and {gi}")),
                None => {}
            }
        }
    }
    // Depth-first over the child lists: an edge back to a group on the current path is a cycle.
    let mut state = vec![0u8; level.groups.len()]; // 0 new, 1 on the path, 2 done
    for start in 0..level.groups.len() {
        if state.get(start) != Some(&0) {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        if let Some(s) = state.get_mut(start) {
            *s = 1;
        }
        while let Some((g, next)) = path.last_mut() {
            let (g, i) = (*g, *next);
            *next = next.saturating_add(1);
            match level.groups.get(g).and_then(|grp| grp.groups.get(i)) {
                None => {
                    if let Some(s) = state.get_mut(g) {
                        *s = 2;
                    }
                    path.pop();
                }
                Some(&c) => match state.get(c) {
                    Some(0) => {
                        if let Some(s) = state.get_mut(c) {
                            *s = 1;
                        }
                        path.push((c, 0));
                    }
                    Some(1) => f.warn(
                        format!("groups[{g}]"),
                        format!("holds group {c}, which holds it: a cycle"),
                    ),
                    _ => {}
                },
            }
        }
    }
    // Walk from the root; what is not reached is detached (or in a cycle).
    let mut reached = vec![false; level.groups.len()];
    let mut stack = vec![0usize];
    while let Some(g) = stack.pop() {
        match reached.get_mut(g) {
            Some(r) if !*r => *r = true,
            _ => continue,
        }
        if let Some(grp) = level.groups.get(g) {
            stack.extend(grp.groups.iter().copied());
        }
    }
    for (gi, r) in reached.iter().enumerate() {
        if !r {
            f.warn(
                format!("groups[{gi}]"),
                "not reachable from group 0 (the root)",
            );
        }
    }
    if !level.groups.first().is_some_and(|g| g.holds_level) {
        f.warn("groups[0]", "the root group does not hold the level entity");
    }
}
