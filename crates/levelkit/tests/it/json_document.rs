//! The lossless JSON document (`levelkit dump --json`, read back by `convert level.json …`):
//! `Model::from_json` reads the model as the type its `format` tag names, from the model's own
//! text. It must read what the derived `Deserialize` of `Model` reads, in either key order, and
//! place errors inside the model at their line and column in the whole document.

use std::path::Path;

use levelkit::document::Model;
use levelkit::{ErrorKind, Limits};

fn samples() -> Vec<(String, Model)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut out: Vec<(String, Model)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        // Textures and pictures beside the samples are images, not documents.
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x != "bmp" && x != "gif" && x != "png")
        })
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = std::fs::read(e.path()).unwrap();
            let model = Model::read(&bytes, Some(&name), &Limits::default()).unwrap();
            (name, model)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn every_sample_reads_back_from_its_json_in_either_key_order() {
    let all = samples();
    assert!(all.len() >= 15, "{}", all.len());
    for (name, model) in &all {
        let json = model.to_json().unwrap();
        assert_eq!(&Model::from_json(&json).unwrap(), model, "{name}");
        // `model` first: the derived reader buffers this order; from_json does not need to.
        let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let swapped = format!(
            "{{\n\"model\": {},\n\"format\": {}\n}}",
            value["model"], value["format"]
        );
        assert_eq!(
            &Model::from_json(swapped.as_bytes()).unwrap(),
            model,
            "{name}"
        );
        assert_eq!(
            &serde_json::from_str::<Model>(&swapped).unwrap(),
            model,
            "{name}"
        );
    }
}

#[test]
fn errors_inside_the_model_are_where_the_derived_reader_puts_them() {
    for (name, model) in samples() {
        let json = String::from_utf8(model.to_json().unwrap()).unwrap();
        // The first number (a value, not a digit inside a string) after the model starts,
        // made a string.
        let start = json.find("\"model\"").unwrap();
        let bytes = json.as_bytes();
        let Some(at) = (start..bytes.len()).find(|&i| {
            bytes[i].is_ascii_digit()
                && matches!(bytes[i - 1], b' ' | b'\n' | b'[' | b':')
                && json[..i].trim_end().ends_with([':', '[', ','])
        }) else {
            continue;
        };
        let end = at + json[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
        let bad = format!("{}\"oops\"{}", &json[..at], &json[end..]);
        let derived = match serde_json::from_str::<Model>(&bad) {
            // A number kept as any JSON value: a string is as good.
            Ok(m) => {
                assert_eq!(Model::from_json(bad.as_bytes()).unwrap(), m, "{name}");
                continue;
            }
            Err(e) => e,
        };
        let ours = Model::from_json(bad.as_bytes()).unwrap_err();
        assert_eq!(ours.kind, ErrorKind::Malformed, "{name}");
        let want = (
            u32::try_from(derived.line()).unwrap(),
            u32::try_from(derived.column()).unwrap(),
        );
        assert_eq!(ours.location.line_col, Some(want), "{name}: {ours}");
        let line = json[..at].matches('\n').count() + 1;
        // At the bad value or after it (serde reports some fields when their struct ends).
        assert!(
            want.0 as usize >= line,
            "{name}: {want:?} before line {line}"
        );
        assert!(
            ours.to_string()
                .contains("not a levelkit model document: invalid type: string \"oops\""),
            "{name}: {ours}"
        );
    }
}

#[test]
fn a_bad_tag_or_a_missing_model_is_an_error_naming_it() {
    let e = Model::from_json(br#"{"format": "nope", "model": {}}"#).unwrap_err();
    assert!(e.to_string().contains("unknown variant `nope`"), "{e}");
    assert_eq!(e.location.line_col, Some((1, 17)));
    let e = Model::from_json(br#"{"format": "wwd"}"#).unwrap_err();
    assert!(e.to_string().contains("missing field `model`"), "{e}");
    let e = Model::from_json(b"[1, 2").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Malformed);
}
