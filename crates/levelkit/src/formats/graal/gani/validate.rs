//! Validation: every finding with its path, errors (the file is unusable) apart from warnings
//! (the game would still load it).

use super::*;

/// The usage of a keyword, for messages about lines that do not parse.
fn usage(keyword: &[u8]) -> Option<&'static str> {
    Some(match keyword {
        b"SPRITE" => "SPRITE index source left top width height [description]",
        b"ATTACHSPRITE" => "ATTACHSPRITE parent child x y",
        b"ATTACHSPRITE2" => "ATTACHSPRITE2 parent child x y",
        b"STRETCHXEFFECT" => "STRETCHXEFFECT sprite factor",
        b"STRETCHYEFFECT" => "STRETCHYEFFECT sprite factor",
        b"ZOOMEFFECT" => "ZOOMEFFECT sprite factor",
        b"ROTATEEFFECT" => "ROTATEEFFECT sprite radians",
        b"COLOREFFECT" => "COLOREFFECT sprite r g b a",
        b"EFFECTMODE" => "EFFECTMODE sprite mode",
        b"LAYER" => "LAYER sprite layer",
        b"LOOP" => "LOOP [number]",
        b"CONTINUOUS" => "CONTINUOUS [number]",
        b"SINGLEDIRECTION" | b"SINGLEDIR" => "SINGLEDIRECTION [number]",
        b"SETBACKTO" => "SETBACKTO name",
        b"BACKCOLOR" => "BACKCOLOR value",
        b"FRAMES" => "FRAMES count",
        b"WAIT" => "WAIT ticks",
        b"PLAYSOUND" => "PLAYSOUND sound x y",
        k if k.starts_with(b"DEFAULT") => "DEFAULT<SLOT> value",
        _ => return None,
    })
}

/// Why a line was kept verbatim.
fn explain(line: &RawString, frame: bool) -> String {
    let keyword = read::first_token(line.as_bytes()).unwrap_or(&[]);
    match usage(keyword) {
        Some(usage) => format!(
            "`{}` does not match `{usage}` (integers for indices, plain decimals for the rest); \
             kept verbatim",
            line.display()
        ),
        None if keyword.starts_with(b"GANI") && !frame => {
            "a GANI header that is not the first line; kept verbatim".to_string()
        }
        None if frame => format!(
            "`{}` is neither a direction line nor WAIT or PLAYSOUND; kept verbatim",
            line.display()
        ),
        None => format!(
            "unknown statement `{}`; kept verbatim",
            RawString::from(keyword).display()
        ),
    }
}

/// Check an animation and collect every finding, with its path.
///
/// Errors: what keeps the model from being written so that it reads back as itself (the
/// writer refuses such a model; a model read from a file never has any). Warnings: lines kept
/// verbatim because they do not parse, duplicate sprite indices (TilesEditor keeps the last),
/// attachments and effects naming a sprite not defined before them (TilesEditor ignores them;
/// effects on sprite −1 are allowed), placements naming undefined sprites, frames whose
/// direction-line count is not 4 (or 1 for single-direction animations), `SINGLEDIRECTION`
/// after the `ANI` block, no or several `ANI` blocks, an unknown header version, `MOVIE` or
/// `FRAMES` without `GANI0002`, and line-ending exceptions that name no line.
pub fn validate(gani: &Gani) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut lines = 0usize;
    for (path, message) in write::problems(gani) {
        out.push(Warning::error(F, Location::path(path), message));
    }
    let warn = |out: &mut Vec<Warning>, path: String, message: String| {
        out.push(Warning::warning(F, Location::path(path), message));
    };
    let version = gani.header.as_ref().map(|h| h.version);
    if let Some(v) = version {
        lines += 1;
        if !matches!(v, 1 | 2) {
            warn(
                &mut out,
                "header".into(),
                format!("header GANI{v:04} is neither GANI0001 nor GANI0002"),
            );
        }
    }
    let defined: HashSet<i32> = gani.sprites().map(|s| s.index).collect();
    let mut seen: HashMap<i32, usize> = HashMap::new();
    let mut single = false;
    let mut anis = 0usize;
    for (i, statement) in gani.statements.iter().enumerate() {
        let path = format!("statements[{i}]");
        lines += statement_lines(statement);
        match statement {
            Statement::Sprite(s) => {
                if let Some(first) = seen.get(&s.index) {
                    warn(
                        &mut out,
                        path,
                        format!(
                            "sprite {} is defined again (first at statements[{first}]); \
                             TilesEditor keeps the last definition",
                            s.index
                        ),
                    );
                } else {
                    seen.insert(s.index, i);
                }
            }
            Statement::Attach(a) => {
                if !seen.contains_key(&a.parent) {
                    warn(
                        &mut out,
                        path.clone(),
                        format!(
                            "attachment to sprite {}, which is not defined before this line \
                             (TilesEditor ignores the attachment)",
                            a.parent
                        ),
                    );
                }
                if !defined.contains(&a.child) {
                    warn(
                        &mut out,
                        path,
                        format!("attached sprite {} is not defined", a.child),
                    );
                }
            }
            Statement::Effect(e) if e.sprite != -1 && !seen.contains_key(&e.sprite) => {
                warn(
                    &mut out,
                    path,
                    format!(
                        "{} on sprite {}, which is not defined before this line \
                         (TilesEditor ignores the effect)",
                        e.value.keyword(),
                        e.sprite
                    ),
                );
            }
            Statement::Flag(f) if f.flag == FlagKind::SingleDirection => {
                if anis > 0 {
                    warn(
                        &mut out,
                        path,
                        "SINGLEDIRECTION after the ANI block: editors have already read its \
                         frames with four direction lines"
                            .into(),
                    );
                }
                single = f.sets();
            }
            Statement::Ani(a) => {
                anis += 1;
                if anis == 2 {
                    warn(
                        &mut out,
                        path.clone(),
                        "a second ANI block (TilesEditor appends its frames to the first's)".into(),
                    );
                }
                let n = if single { 1 } else { FOUR_DIRECTIONS };
                validate_ani(a, n, &defined, &path, &mut out);
            }
            Statement::Movie(_) | Statement::Frames(_) if version != Some(2) => warn(
                &mut out,
                path,
                format!(
                    "{} belongs to GANI0002 files, and this one is not",
                    statement.keyword()
                ),
            ),
            Statement::Unknown(u) => warn(&mut out, path, explain(&u.line, false)),
            _ => {}
        }
    }
    if anis == 0 {
        warn(
            &mut out,
            "statements".into(),
            "no ANI block: the animation has no frames".into(),
        );
    }
    for &k in &gani.layout.other_endings {
        let last_unterminated = !gani.layout.final_newline && (k as usize) + 1 == lines;
        if k as usize >= lines || last_unterminated {
            warn(
                &mut out,
                "layout.other_endings".into(),
                format!("line {k} is listed for the other line ending but has no line break"),
            );
        }
    }
    out
}

/// The one-based line statement `index` starts on when the gani is written.
pub(super) fn line_of(gani: &Gani, index: usize) -> usize {
    let header = usize::from(gani.header.is_some());
    let before: usize = gani
        .statements
        .iter()
        .take(index)
        .map(statement_lines)
        .sum();
    header + before + 1
}

/// How many lines a statement takes when written.
fn statement_lines(statement: &Statement) -> usize {
    match statement {
        Statement::Ani(a) => {
            let frames: usize = a
                .frames
                .iter()
                .map(|f| f.directions.len() + f.commands.len())
                .sum();
            2 + frames + a.frames.len().saturating_sub(1) + usize::from(a.end_blank.is_some())
        }
        Statement::Script(b) | Statement::Movie(b) => 2 + b.lines.len(),
        _ => 1,
    }
}

fn validate_ani(
    block: &AniBlock,
    n: usize,
    defined: &HashSet<i32>,
    path: &str,
    out: &mut Vec<Warning>,
) {
    for (fi, frame) in block.frames.iter().enumerate() {
        let frame_path = format!("{path}.frames[{fi}]");
        if frame.directions.len() != n {
            out.push(Warning::warning(
                F,
                Location::path(frame_path.clone()),
                format!(
                    "frame has {} direction lines; {}",
                    frame.directions.len(),
                    if n == 1 {
                        "a single-direction animation has 1".to_string()
                    } else {
                        "a four-direction animation has 4 (up, left, down, right)".to_string()
                    }
                ),
            ));
        }
        for (di, direction) in frame.directions.iter().enumerate() {
            let mut missing: Vec<String> = direction
                .placements
                .iter()
                .filter_map(|p| match p.sprite {
                    SpriteRef::Index(i) if !defined.contains(&i) => Some(i.to_string()),
                    _ => None,
                })
                .collect();
            missing.dedup();
            if !missing.is_empty() {
                out.push(Warning::warning(
                    F,
                    Location::path(format!("{frame_path}.directions[{di}]")),
                    format!("placements name undefined sprites {}", missing.join(", ")),
                ));
            }
        }
        for (ci, command) in frame.commands.iter().enumerate() {
            if let FrameCommand::Unknown(u) = command {
                out.push(Warning::warning(
                    F,
                    Location::path(format!("{frame_path}.commands[{ci}]")),
                    explain(&u.line, true),
                ));
            }
        }
    }
}
