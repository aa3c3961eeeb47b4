//! Wings 3D itself as the judge (`shared/oracles/wings_oracle.sh`, README section "Wings 3D"):
//! a file written by our writer loads in Wings's own loader as consistent meshes with our counts,
//! and Wings's own OBJ exporter gives the polygons, positions and UVs of our face walk.
//!
//! Skips with `SKIP: …` when `erl` or the oracle script is missing.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use levelkit::formats::wings::{Wings, samples};

fn oracle() -> Option<PathBuf> {
    common::oracle("wings_oracle.sh", &["erl"], "Wings oracle checks")
}

fn out_dir(test: &str) -> PathBuf {
    common::out_dir("levelkit-wings", test)
}

/// Run the oracle; on exit 3 (needs an X display for textures) retry under xvfb.
fn run(script: &Path, args: &[&Path], verb: &str) -> std::process::Output {
    let go = |xvfb: bool| {
        let mut c = Command::new(script);
        c.arg(verb).args(args);
        if xvfb {
            c.env("WINGS_XVFB", "1");
        }
        c.output().unwrap()
    };
    let out = go(false);
    if out.status.code() == Some(3) && String::from_utf8_lossy(&out.stderr).contains("WINGS_XVFB") {
        return go(true);
    }
    out
}

/// `(name, vertices, edges, faces, consistent)` of each object line of `info` (lights left out).
fn info(script: &Path, file: &Path) -> Vec<(String, usize, usize, usize, bool)> {
    let out = run(script, &[file], "info");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}: Wings refused it: {}{}",
        file.display(),
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .filter(|l| l.starts_with("object ") && l.contains(" light=none "))
        .map(|l| {
            let field = |k: &str| {
                l.split(' ')
                    .find_map(|w| w.strip_prefix(&format!("{k}=")))
                    .unwrap_or_else(|| panic!("no {k} in {l}"))
            };
            let name = l["object ".len()..l.find(" perm=").unwrap()].to_owned();
            (
                name,
                field("vertices").parse().unwrap(),
                field("edges").parse().unwrap(),
                field("faces").parse().unwrap(),
                field("consistent") == "true" && field("vertex_refs_ok") == "true",
            )
        })
        .collect()
}

fn check_info(script: &Path, file: &Path, model: &Wings) {
    let doc = model.document().unwrap();
    let ours: Vec<(String, usize, usize, usize, bool)> = doc
        .shapes
        .iter()
        .map(|s| {
            let m = &s.mesh;
            (
                s.name().unwrap(),
                m.vertices.len(),
                m.edges.len(),
                m.faces.len(),
                true,
            )
        })
        .collect();
    let mut theirs = info(script, file);
    let mut ours_sorted = ours.clone();
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    ours_sorted.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(theirs, ours_sorted, "{}", file.display());
}

#[test]
fn our_sample_loads_in_wings_as_consistent_meshes() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("sample");
    let model = samples::cube().unwrap();
    let file = dir.join("cube.wings");
    std::fs::write(&file, model.write().unwrap()).unwrap();
    check_info(&script, &file, &model);
    // Wings's own saver, then our reader: the same meshes.
    let again = dir.join("again.wings");
    let out = run(&script, &[&file, &again], "roundtrip");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let back = Wings::read(&std::fs::read(&again).unwrap()).unwrap();
    let (a, b) = (model.document().unwrap(), back.document().unwrap());
    assert_eq!(a.shapes.len(), b.shapes.len());
    for (x, y) in a.shapes.iter().zip(&b.shapes) {
        assert_eq!(x.mesh, y.mesh, "{:?}", x.name());
    }
    let line = compare_obj(&script, &file, &model, &dir).unwrap();
    eprintln!("samples/cube.wings (our writer): consistent, counts equal; OBJ: {line}");
}

/// One polygon corner: position and UV.
type Corner = ([f64; 3], Option<[f64; 2]>);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

fn same_corner(a: &Corner, b: &Corner) -> bool {
    a.0.iter().zip(&b.0).all(|(x, y)| close(*x, *y))
        && match (a.1, b.1) {
            (Some(u), Some(v)) => close(u[0], v[0]) && close(u[1], v[1]),
            (None, None) => true,
            _ => false,
        }
}

fn same_polygon(a: &[Corner], b: &[Corner]) -> bool {
    a.len() == b.len()
        && (0..b.len()).any(|r| {
            a.iter()
                .zip(b.iter().cycle().skip(r))
                .all(|(x, y)| same_corner(x, y))
        })
}

/// A coarse key of a polygon, the same for every rotation: its corners' rounded positions, sorted.
fn key(p: &[Corner]) -> Vec<[i64; 3]> {
    let mut k: Vec<[i64; 3]> = p
        .iter()
        .map(|c| c.0.map(|v| (v * 1e3).round() as i64))
        .collect();
    k.sort();
    k
}

/// The polygons of Wings's OBJ export.
fn parse_obj(text: &str) -> Vec<Vec<Corner>> {
    let (mut v, mut vt, mut faces) = (Vec::new(), Vec::new(), Vec::new());
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let nums =
            |w: std::str::SplitWhitespace| -> Vec<f64> { w.map(|s| s.parse().unwrap()).collect() };
        match words.next() {
            Some("v") => {
                let n = nums(words);
                v.push([n[0], n[1], n[2]]);
            }
            Some("vt") => {
                let n = nums(words);
                vt.push([n[0], n[1]]);
            }
            Some("f") => faces.push(
                words
                    .map(|c| {
                        let mut parts = c.split('/');
                        let vi: usize = parts.next().unwrap().parse().unwrap();
                        let ti = parts
                            .next()
                            .filter(|s| !s.is_empty())
                            .map(|s| s.parse::<usize>().unwrap());
                        (v[vi - 1], ti.map(|t| vt[t - 1]))
                    })
                    .collect(),
            ),
            _ => {}
        }
    }
    faces
}

/// The polygons Wings's exporter should give for our model: visible objects; hidden faces shown,
/// holes dropped; a mirror frozen (the mirror face dropped, every other face reflected across
/// its plane, corners reversed).
fn expected(model: &Wings) -> Vec<Vec<Corner>> {
    let doc = model.document().unwrap();
    let mut out = Vec::new();
    for shape in doc.shapes.iter().filter(|s| !s.is_hidden()) {
        let (poly, warnings) = shape.to_polygons();
        assert!(warnings.is_empty(), "{warnings:?}");
        let corners = |f: &levelkit::formats::wings::PolyFace| -> Vec<Corner> {
            f.vertices
                .iter()
                .enumerate()
                .map(|(i, &v)| (poly.positions[v as usize], f.uvs.as_ref().map(|u| u[i])))
                .collect()
        };
        let mirror = shape.mirror_face().map(|m| m as u32);
        let plane = mirror
            .and_then(|m| poly.faces.iter().find(|f| f.index == m))
            .map(|f| {
                let pts: Vec<[f64; 3]> = corners(f).iter().map(|c| c.0).collect();
                let mut n = [0.0; 3];
                for (i, a) in pts.iter().enumerate() {
                    let b = pts[(i + 1) % pts.len()];
                    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
                    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
                    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
                }
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                (n.map(|x| x / len), pts[0])
            });
        for f in poly
            .faces
            .iter()
            .filter(|f| !f.hole && Some(f.index) != mirror)
        {
            let c = corners(f);
            if let Some((n, p0)) = plane {
                let mut m: Vec<Corner> = c
                    .iter()
                    .map(|(p, uv)| {
                        let d: f64 = (0..3).map(|k| (p[k] - p0[k]) * n[k]).sum();
                        ([0, 1, 2].map(|k| p[k] - 2.0 * d * n[k]), *uv)
                    })
                    .collect();
                m.reverse();
                out.push(m);
            }
            out.push(c);
        }
    }
    out
}

/// Compare Wings's OBJ export of `file` with our face walk of `model`. Returns a one-line result.
fn compare_obj(script: &Path, file: &Path, model: &Wings, dir: &Path) -> Result<String, String> {
    let obj = dir.join(format!(
        "{}.obj",
        file.file_stem().unwrap().to_string_lossy()
    ));
    let out = run(script, &[file, &obj], "export");
    if !out.status.success() {
        return Err(format!(
            "export failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let theirs = parse_obj(&std::fs::read_to_string(&obj).unwrap());
    let ours = expected(model);
    if theirs.len() != ours.len() {
        return Err(format!(
            "{} polygons in the OBJ, {} in our walk",
            theirs.len(),
            ours.len()
        ));
    }
    let mut index: HashMap<Vec<[i64; 3]>, Vec<usize>> = HashMap::new();
    for (i, p) in theirs.iter().enumerate() {
        index.entry(key(p)).or_default().push(i);
    }
    let mut used = vec![false; theirs.len()];
    let mut uv_corners = 0;
    for (j, p) in ours.iter().enumerate() {
        let candidates = index.get(&key(p)).cloned().unwrap_or_default();
        let found = candidates
            .into_iter()
            .find(|&i| !used[i] && same_polygon(p, &theirs[i]))
            // Rounding can put a polygon under another key: look everywhere.
            .or_else(|| (0..theirs.len()).find(|&i| !used[i] && same_polygon(p, &theirs[i])));
        match found {
            Some(i) => used[i] = true,
            None => return Err(format!("our polygon {j} {p:?} is not in the OBJ")),
        }
        uv_corners += p.iter().filter(|c| c.1.is_some()).count();
    }
    Ok(format!(
        "{} polygons, {} corners ({uv_corners} with UVs) match",
        ours.len(),
        ours.iter().map(Vec::len).sum::<usize>()
    ))
}

#[test]
fn corpus_files_load_and_export_in_wings_as_we_walk_them() {
    let Some(script) = oracle() else { return };
    let Some(corpus) =
        common::corpus_or_skip("wings", "the comparison of the .wings corpus with Wings")
    else {
        return;
    };
    let dir = out_dir("corpus");
    let mut files = Vec::new();
    for sub in std::fs::read_dir(&corpus).unwrap() {
        let sub = sub.unwrap().path();
        if sub.file_name().is_some_and(|n| n == "bad") || !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    files.sort();
    assert!(files.len() >= 15);
    let mut failures = Vec::new();
    for file in &files {
        let name = file.strip_prefix(&corpus).unwrap().display().to_string();
        let model = Wings::read(&std::fs::read(file).unwrap()).unwrap();
        // Written by our writer (byte-identical for the corpus, but test what we write).
        let ours = dir.join(file.file_name().unwrap());
        std::fs::write(&ours, model.write().unwrap()).unwrap();
        check_info(&script, &ours, &model);
        match compare_obj(&script, &ours, &model, &dir) {
            Ok(line) => eprintln!("{name}: consistent, counts equal; OBJ: {line}"),
            Err(e) => {
                eprintln!("{name}: OBJ MISMATCH: {e}");
                failures.push(name);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "OBJ export differs from our face walk: {failures:?}"
    );
}
