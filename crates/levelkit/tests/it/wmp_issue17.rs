//! 3D GameStudio, issue 17: WED's `[ u v … ]` per-corner texture coordinates on `$$M` faces
//! (read and written byte for byte, carried into the level and the scene), and Acknex 3 `.wmp`
//! files recognised and refused by name.

use levelkit::formats::wad;
use levelkit::formats::wmp::{self, text::WmpText};
use levelkit::{ErrorKind, Format};

/// Our sample room compiled to `$$M`, with WED's `[ u v … ]` inserted on the first face of
/// every block, in WED's exact form (`: name [ u1 v1 … ] ( t1 ) ( t2 )`, spaces around the
/// brackets, wmpio 1.30).
fn dollar_m_with_uvs() -> (Vec<u8>, Vec<Vec<[f64; 2]>>) {
    let (compiled, _) = wmp::compile(&wmp::samples::room()).unwrap();
    let text = String::from_utf8(compiled.write().unwrap()).unwrap();
    let mut out = String::new();
    let mut expected = Vec::new();
    let mut in_block_faces = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("faces") {
            in_block_faces = true;
        } else if in_block_faces && t.contains(" : ") && t.contains(" ( ") {
            in_block_faces = false;
            let n: usize = t.split_whitespace().next().unwrap().parse().unwrap();
            let (head, tail) = line.split_once(" ( ").unwrap();
            let uvs: Vec<[f64; 2]> = (0..n)
                .map(|k| [-0.1641 + k as f64 * 0.5, 0.6953 - k as f64 * 0.25])
                .collect();
            let spelled: Vec<String> = uvs
                .iter()
                .flat_map(|[u, v]| [format!("{u:.4}"), format!("{v:.4}")])
                .collect();
            out.push_str(&format!("{head} [ {} ] ( {tail}", spelled.join(" ")));
            expected.push(
                uvs.iter()
                    .map(|[u, v]| {
                        [
                            format!("{u:.4}").parse().unwrap(),
                            format!("{v:.4}").parse().unwrap(),
                        ]
                    })
                    .collect(),
            );
            continue;
        }
        out.push_str(line);
    }
    assert!(!expected.is_empty(), "the sample has block faces");
    (out.into_bytes(), expected)
}

#[test]
fn dollar_m_uvs_round_trip_byte_for_byte() {
    let (bytes, expected) = dollar_m_with_uvs();
    let file = WmpText::read(&bytes).unwrap();
    assert_eq!(file.write().unwrap(), bytes);
    let json = serde_json::to_string(&file).unwrap();
    let back: WmpText = serde_json::from_str(&json).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    let (level, _) = wmp::level_of_text(&file);
    let with: Vec<_> = level
        .blocks
        .iter()
        .filter_map(|b| b.faces.first().and_then(|f| f.uvs.clone()))
        .collect();
    assert_eq!(with, expected);
    // Every prefix that cuts the brackets is an error, never a panic.
    let at = bytes.windows(3).position(|w| w == b" [ ").unwrap();
    for cut in at..at + 40 {
        assert!(WmpText::read(&bytes[..cut]).is_err(), "cut {cut}");
    }
    // A bracket with more numbers than corners is refused with a message naming ']'.
    let mut bad = bytes.clone();
    let close = at + bad[at..].windows(2).position(|w| w == b" ]").unwrap();
    bad.splice(close..close, b" 1 2".iter().copied());
    let e = WmpText::read(&bad).unwrap_err();
    assert!(e.message.contains("']'"), "{e}");
}

#[test]
fn dollar_m_uvs_become_the_scene_corners_and_survive_wad_textures() {
    let (bytes, expected) = dollar_m_with_uvs();
    let file = WmpText::read(&bytes).unwrap();
    let (level, _) = wmp::level_of_text(&file);
    let (mut scene, _) = wmp::to_scene(&level, Format::DollarM);
    let first_faces: Vec<Vec<[f64; 2]>> = scene
        .meshes
        .iter()
        .filter(|m| !m.faces.is_empty())
        .map(|m| {
            // The scene turns faces counter-clockwise: corners in reverse order.
            m.faces[0]
                .corners
                .iter()
                .rev()
                .map(|c| c.uv.unwrap())
                .collect()
        })
        .collect();
    assert_eq!(first_faces, expected);
    // A WAD texture of every material rescales the other faces, not the explicit ones.
    let names: Vec<String> = scene
        .materials
        .iter()
        .filter_map(|m| m.name.clone())
        .collect();
    let pixels = vec![7u8; 32 * 16];
    let textures: Vec<(&str, u32, u32, &[u8])> = names
        .iter()
        .map(|n| (n.as_str(), 32, 16, pixels.as_slice()))
        .collect();
    let wad = wad::read(&wad::write_wad2(&textures), None).unwrap();
    let before = scene.meshes[0].faces[1].corners[0].uv.unwrap();
    assert!(wmp::attach_wad_textures(&mut scene, &[wad]) > 0);
    let again: Vec<[f64; 2]> = scene.meshes[0].faces[0]
        .corners
        .iter()
        .rev()
        .map(|c| c.uv.unwrap())
        .collect();
    assert_eq!(again, expected[0]);
    let after = scene.meshes[0].faces[1].corners[0].uv.unwrap();
    assert_eq!(after, [before[0] * 64.0 / 32.0, before[1] * 64.0 / 16.0]);
}

/// An Acknex 3 level in the form `firoball/WMPio` writes (made up here: a square room).
const ACKNEX3: &str = "#  This file \"room.wmp\" was generated by WMPio v1.0.0.0
#  WMP Exporter for 3D GameStudio by firoball



#vertex\txpos ypos zpos index
#-------------------------------
VERTEX\t0.000 0.000 0.000;#0
VERTEX\t64.000 0.000 0.000;#1
VERTEX\t64.000 64.000 0.000;#2
REGION\tfloor 0.000 128.000;#3
WALL\tstone 0 1\t3\t3\t0.000 0.000;#4
";

#[test]
fn acknex3_wmp_is_recognised_and_refused_by_name() {
    let bytes = ACKNEX3.as_bytes();
    assert!(levelkit::registry::is_acknex3_wmp(bytes));
    assert_eq!(
        levelkit::sniff(bytes, Some("room.wmp")),
        Some(Format::WmpText)
    );
    assert_eq!(levelkit::sniff(bytes, None), Some(Format::WmpText));
    let e = WmpText::read(bytes).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("Acknex 3 WMP"), "{e}");
    let e = levelkit::document::Model::read(bytes, Some("room.wmp"), &levelkit::Limits::default())
        .unwrap_err();
    assert!(e.to_string().contains("Acknex 3 WMP"), "{e}");
    // Lowercase statements too; a GameStudio text level or a lone comment is not Acknex 3.
    assert!(levelkit::registry::is_acknex3_wmp(b"vertex 1 2 3;\n"));
    assert!(!levelkit::registry::is_acknex3_wmp(b"// WMP2\nblocks 5\n"));
    assert!(!levelkit::registry::is_acknex3_wmp(b"version 710\n"));
    assert!(!levelkit::registry::is_acknex3_wmp(b"# only a comment\n"));
    assert!(!levelkit::registry::is_acknex3_wmp(
        b"VERTEX without a semicolon\n"
    ));
}
