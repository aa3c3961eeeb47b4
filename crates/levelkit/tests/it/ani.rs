//! WAP32 `.ani` animations: hand-made hex fixtures (one per structure, written out from the
//! layout the sources give) drive both reading and writing; writer-made files round-trip byte
//! for byte and through JSON; truncation and garbage sweeps with bounded allocation; hostile
//! counts; the step to the common animation model with generated sprites; GIF, APNG and sprite
//! sheets read back with the `image` and `png` crates.
//!
//! No real ANI file is public (see the module docs of `formats::ani`): the real-file facts here
//! are the ones OpenClaw's test states about Claw's `DUCKPISTOL.ANI`.

use std::io::Cursor;

use crate::common::Rng;
use crate::common::alloc::peak_during;

use levelkit::anim::{self as anim_write, GifOptions, SheetOptions};
use levelkit::anim::{Animation, Builder, Frame, Sprite};
use levelkit::document::Model;
use levelkit::formats::ani::{self, samples, *};
use levelkit::strings::RawString;
use levelkit::{ErrorKind, Format, Limits, Severity, sniff};

// ---- helpers ----------------------------------------------------------------------------------

/// Bytes from hex text; `#` starts a comment to the end of the line.
fn hex(text: &str) -> Vec<u8> {
    text.lines()
        .flat_map(|l| l.split('#').next().unwrap().split_whitespace())
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

fn header_hex(count: u32, name_len: u32) -> String {
    let le = |v: u32| {
        v.to_le_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "20 00 00 00  00 00 00 00  00 00 00 00  {}  {}  00 00 00 00 00 00 00 00 00 00 00 00\n",
        le(count),
        le(name_len)
    )
}

/// Writer-made files of the sweeps: the samples and generated animations of several sizes.
fn made() -> Vec<(String, Ani)> {
    let mut out = vec![
        ("claw_like".to_string(), samples::claw_like()),
        ("gruntz_like".to_string(), samples::gruntz_like()),
    ];
    for seed in 1..40u64 {
        out.push((
            format!("generated {seed}"),
            samples::generate(seed, seed as usize % 23),
        ));
    }
    out
}

// ---- hand-made fixtures: one table drives reading and writing ------------------------------

/// `(name, model, file bytes)`.
fn cases() -> Vec<(&'static str, Ani, Vec<u8>)> {
    let mut out = Vec::new();
    out.push(("no records", Ani::new(vec![]), hex(&header_hex(0, 0))));

    out.push((
        "one record",
        Ani::new(vec![Record {
            flags: 0,
            step_mode: 3,
            loop_mode: 9,
            position_mode: 0,
            frame: 12,
            duration: 150,
            event: 1,
            delta_x: -2,
            delta_y: 3,
            reserved: 0xbeee,
            cue: None,
        }]),
        hex(&format!(
            "{}
            00 00  03 00  09 00  00 00   # flags step loop position
            0c 00                        # frame 12
            96 00                        # duration 150
            01 00  fe ff  03 00          # event 1, delta -2, 3
            ee be                        # reserved
            ",
            header_hex(1, 0)
        )),
    ));

    // The shape OpenClaw's test states for Claw's DUCKPISTOL.ANI: an image set name, a cue on a
    // flag-2 record, and bytes 152 and 24 at the end of a record.
    let mut claw = Ani::new(vec![
        Record::new(1, 100),
        Record::new(2, 100).with_cue("CLAW_GUNSHOT"),
    ]);
    claw.name = RawString::from("CLAW_IMAGES");
    claw.records[1].reserved = u16::from_le_bytes([152, 24]);
    out.push((
        "name and cue",
        claw,
        hex(&format!(
            "{}
            43 4c 41 57 5f 49 4d 41 47 45 53          # CLAW_IMAGES, no NUL
            00 00 03 00 00 00 00 00 01 00 64 00 00 00 00 00 00 00 00 00
            02 00 03 00 00 00 00 00 02 00 64 00 00 00 00 00 00 00 98 18
            43 4c 41 57 5f 47 55 4e 53 48 4f 54 00    # CLAW_GUNSHOT\\0
            ",
            header_hex(2, 11)
        )),
    ));

    // Header words nobody reads, unknown flag bits, tick durations and trailing bytes are kept.
    out.push((
        "odd header and trailing bytes",
        Ani {
            header: Header {
                signature: 0x21,
                reserved_04: 7,
                flags: 0x8000_0001,
                reserved_14: [1, 2, 3],
            },
            name: RawString::default(),
            records: vec![Record {
                flags: 0x0103,
                cue: Some(RawString::from("A  B")),
                duration: 4,
                ..Record::default()
            }],
            trailing: RawString::from(&b"\xff\x00"[..]),
        },
        hex("
            21 00 00 00  07 00 00 00  01 00 00 80  01 00 00 00  00 00 00 00
            01 00 00 00  02 00 00 00  03 00 00 00
            03 01 00 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00 00 00
            41 20 20 42 00
            ff 00
        "),
    ));
    out
}

#[test]
fn cases_read_and_write() {
    for (name, model, bytes) in cases() {
        let read = ani::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read, model, "{name}: read");
        assert_eq!(model.write().unwrap(), bytes, "{name}: write");
    }
}

#[test]
fn record_meaning_follows_the_game() {
    let (_, claw, _) = cases().into_iter().nth(2).unwrap();
    assert_eq!(
        claw.records[1].cue_names().collect::<Vec<_>>(),
        [b"CLAW_GUNSHOT"]
    );
    let s = claw.summary();
    assert_eq!(
        (
            s.name.as_str(),
            s.frames,
            s.total_duration_ms,
            s.plays,
            s.images,
            s.cues
        ),
        ("CLAW_IMAGES", 2, 200, "loop", 2, 1)
    );
    // Ticks of 22 ms under flag 0x1; 0 or less is one tick.
    let tick = Record {
        flags: FLAG_TICK_DURATION,
        duration: 3,
        ..Record::default()
    };
    assert_eq!(tick.duration_ms(), 66);
    assert_eq!(Record::new(0, 0).duration_ms(), 22);
    assert_eq!(Record::new(0, -5).duration_ms(), 22);
    assert_eq!(Record::new(0, 5000).duration_ms(), 5000);
    let g = samples::gruntz_like();
    assert!(g.plays_once());
    assert_eq!(g.summary().plays, "once");
    assert_eq!(g.records[3].cue_names().count(), 2);
    assert!(g.validate().is_empty(), "{:?}", g.validate());
    assert!(samples::claw_like().validate().is_empty());
}

#[test]
fn made_files_round_trip_through_bytes_and_json() {
    for (name, model) in made() {
        let bytes = model.write().unwrap();
        assert_eq!(bytes.len(), model.size(), "{name}");
        let back = ani::read(&bytes).unwrap();
        assert_eq!(back, model, "{name}");
        assert_eq!(back.write().unwrap(), bytes, "{name}");
        let doc = Model::read(&bytes, Some("X.ANI"), &Limits::default()).unwrap();
        assert_eq!(doc.format(), Format::Ani);
        let json = doc.to_json().unwrap();
        let again = Model::from_json(&json).unwrap();
        assert_eq!(again.write().unwrap(), bytes, "{name}: JSON");
        assert!(!doc.dump_text("X.ANI").is_empty());
        assert_eq!(
            doc.dump_text("X.ANI")
                .lines()
                .filter(|l| l.starts_with("  ["))
                .count(),
            model.records.len(),
            "{name}: one dump line per record"
        );
        assert!(doc.info_text("X.ANI").contains("frames"));
    }
}

#[test]
fn sniffing_claims_ani_but_not_windows_cursors() {
    let bytes = samples::claw_like().write().unwrap();
    assert_eq!(sniff(&bytes, None), Some(Format::Ani));
    assert_eq!(sniff(&bytes, Some("FIRE.ANI")), Some(Format::Ani));
    let cursor = b"RIFF\x10\0\0\0ACONanih";
    assert_eq!(sniff(cursor, Some("busy.ani")), None);
    assert!(Model::read(cursor, Some("busy.ani"), &Limits::default()).is_err());
}

// ---- hostile input ----------------------------------------------------------------------------

#[test]
fn every_prefix_is_an_error() {
    for (name, model) in made() {
        if !model.trailing.is_empty() {
            continue; // a prefix of a file with trailing bytes may end inside them
        }
        let bytes = model.write().unwrap();
        for n in 0..bytes.len() {
            let e = ani::read(&bytes[..n]).expect_err(&format!("{name}: prefix {n}"));
            assert_eq!(e.kind, ErrorKind::Truncated, "{name}: prefix {n}: {e}");
            assert!(e.location.offset.is_some(), "{name}: prefix {n}: {e}");
        }
    }
}

#[test]
fn garbage_reads_or_fails_without_panic_and_with_bounded_allocation() {
    let mut rng = Rng(0xa11 | 1);
    let mut inputs: Vec<Vec<u8>> = made().iter().map(|(_, m)| m.write().unwrap()).collect();
    for len in [0usize, 1, 31, 32, 33, 52, 200] {
        inputs.push((0..len).map(|_| rng.next() as u8).collect());
    }
    let (mut ok, mut err) = (0, 0);
    for base in &inputs {
        for _ in 0..150 {
            let mut b = base.clone();
            if !b.is_empty() {
                for _ in 0..(1 + rng.next() % 4) {
                    let at = rng.below(b.len());
                    b[at] = match rng.next() % 3 {
                        0 => rng.next() as u8,
                        1 => 0xff,
                        _ => b[at] ^ (1 << (rng.next() % 8)),
                    };
                }
            }
            let (result, peak) = peak_during(|| ani::read_with(&b, &Limits::strict()));
            assert!(
                peak <= 64 * b.len() + 4096,
                "{peak} bytes for a {}-byte input",
                b.len()
            );
            match result {
                Ok(a) => {
                    ok += 1;
                    let _ = a.validate();
                    let _ = a.summary();
                    let _ = ani::to_animation_with(&a, &mut |_| None, &Limits::strict());
                    assert_eq!(a.write().unwrap(), b, "whatever reads writes its own bytes");
                }
                Err(_) => err += 1,
            }
        }
    }
    assert!(ok > 500 && err > 500, "ok {ok}, err {err}");
}

#[test]
fn hostile_counts_are_refused_before_allocating() {
    // A record count of 4 billion with room for two records.
    let mut b = hex(&header_hex(u32::MAX, 0));
    b.extend([0u8; 40]);
    let (r, peak) = peak_during(|| ani::read(&b));
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
    assert!(e.message.contains("4294967295"), "{e}");
    assert!(peak < 4096, "{peak}");
    // A count the bytes allow but the limits do not.
    let mut b = hex(&header_hex(2, 0));
    b.extend([0u8; 40]);
    let few = Limits {
        max_count: 1,
        ..Limits::strict()
    };
    assert_eq!(
        ani::read_with(&b, &few).unwrap_err().kind,
        ErrorKind::LimitExceeded
    );
    assert_eq!(ani::read(&b).unwrap().records.len(), 2);
    // A name of 4 GB.
    let mut b = hex(&header_hex(1, u32::MAX));
    b.extend([0u8; 20]);
    let (r, peak) = peak_during(|| ani::read(&b));
    assert_eq!(r.unwrap_err().kind, ErrorKind::Truncated);
    assert!(peak < 4096, "{peak}");
    // A cue string without its NUL.
    let mut b = hex(&header_hex(1, 0));
    b.extend([2, 0]);
    b.extend([0u8; 18]);
    b.extend(b"SOUND");
    let e = ani::read(&b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert_eq!(e.location.path.as_deref(), Some("records[0]"));
}

#[test]
fn the_writer_refuses_what_would_not_read_back() {
    let mut a = samples::claw_like();
    a.records[0].cue = Some(RawString::from("LOST"));
    let e = a.write().unwrap_err();
    assert_eq!(e.location.path.as_deref(), Some("records[0]"));
    let mut a = samples::claw_like();
    a.records[2].cue = None;
    assert!(a.write().is_err());
    let mut a = samples::claw_like();
    a.records[2].cue = Some(RawString::from(&b"A\0B"[..]));
    assert!(a.write().is_err());
    let errors = |a: &Ani| {
        a.validate()
            .into_iter()
            .filter(|w| w.severity == Severity::Error)
            .count()
    };
    assert_eq!(errors(&a), 1);
    // Warnings only: the writer keeps what no known file has.
    let mut w = samples::claw_like();
    w.header.signature = 0x10;
    w.records[0].flags |= 0x40;
    w.records[1].step_mode = 12;
    w.records[1].loop_mode = 6;
    w.trailing = RawString::from("x");
    let findings = w.validate();
    assert_eq!(errors(&w), 0);
    assert_eq!(findings.len(), 5, "{findings:?}");
    assert!(w.write().is_ok());
    assert_eq!(Ani::new(vec![]).validate().len(), 1);
}

mod properties {
    //! Model -> bytes -> model for any records, and mutated files kept byte for byte.

    use super::*;
    use proptest::prelude::*;

    fn record() -> impl Strategy<Value = Record> {
        (
            any::<[u16; 5]>(),
            any::<[i16; 4]>(),
            any::<u16>(),
            prop::option::of(prop::collection::vec(1u8..=255, 0..12)),
        )
            .prop_map(|(w, s, reserved, cue)| Record {
                flags: if cue.is_some() {
                    w[0] | FLAG_HAS_CUE
                } else {
                    w[0] & !FLAG_HAS_CUE
                },
                step_mode: w[1],
                loop_mode: w[2],
                position_mode: w[3],
                frame: w[4],
                duration: s[0],
                event: s[1],
                delta_x: s[2],
                delta_y: s[3],
                reserved,
                cue: cue.map(RawString),
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn any_model_round_trips(
            words in any::<[u32; 6]>(),
            name in prop::collection::vec(any::<u8>(), 0..20),
            records in prop::collection::vec(record(), 0..20),
            trailing in prop::collection::vec(any::<u8>(), 0..4),
        ) {
            let model = Ani {
                header: Header {
                    signature: words[0],
                    reserved_04: words[1],
                    flags: words[2],
                    reserved_14: [words[3], words[4], words[5]],
                },
                name: RawString(name),
                records,
                trailing: RawString(trailing),
            };
            let bytes = model.write().unwrap();
            let back = ani::read(&bytes).unwrap();
            prop_assert_eq!(&back, &model);
            prop_assert_eq!(back.write().unwrap(), bytes);
        }

        #[test]
        fn mutated_files_are_refused_or_kept(
            seed in 1u64..500,
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)
        ) {
            let mut bytes = samples::generate(seed, 8).write().unwrap();
            for (at, value) in flips {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(model) = ani::read(&bytes) {
                prop_assert_eq!(model.write().unwrap(), bytes);
            }
        }
    }
}

// ---- to the common animation model ----------------------------------------------------------

/// A generated image of the set: `frame + 1` pixels wide, 3 high, one colour per frame, its
/// centre moved right by the frame number (the way PID offsets place images).
fn sprite(frame: u32) -> Sprite {
    let w = frame + 1;
    let colour = [(frame * 40) as u8, 255 - (frame * 30) as u8, 7, 255];
    Sprite::centred(w, 3, colour.repeat((w * 3) as usize), frame as i32, 0).unwrap()
}

#[test]
fn records_become_frames_on_one_canvas() {
    let a = Ani::new(vec![
        Record::new(0, 100),
        Record::new(3, 40),
        Record::new(1, 60),
        Record::new(3, 30),
    ]);
    let mut asked = Vec::new();
    let (anim, warnings) = ani::to_animation(&a, &mut |f| {
        asked.push(f);
        Some(sprite(f))
    })
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        asked,
        [0, 3, 1],
        "each image is asked for once, in order of use"
    );
    assert!(anim.looping);
    assert_eq!(
        anim.frames
            .iter()
            .map(|f| f.duration_ms)
            .collect::<Vec<_>>(),
        [100, 40, 60, 30]
    );
    // Frame 0: 1 px at x -0 .. 1; frame 3: 4 px centred at +3 → 1..5; frame 1: 2 px at 0..2.
    assert_eq!((anim.width, anim.height), (5, 3));
    assert_eq!(anim.anchor, (0, 1));
    let px = |frame: &Frame, x: u32, y: u32| {
        let i = ((y * anim.width + x) * 4) as usize;
        <[u8; 4]>::try_from(&frame.rgba[i..i + 4]).unwrap()
    };
    assert_eq!(px(&anim.frames[0], 0, 1), [0, 255, 7, 255]);
    assert_eq!(px(&anim.frames[0], 1, 1), [0; 4]);
    assert_eq!(px(&anim.frames[1], 0, 0), [0; 4]);
    assert_eq!(px(&anim.frames[1], 1, 2), [120, 165, 7, 255]);
    assert_eq!(px(&anim.frames[1], 4, 0), [120, 165, 7, 255]);
    assert_eq!(px(&anim.frames[2], 1, 1), [40, 225, 7, 255]);
}

#[test]
fn missing_images_become_placeholders_with_a_warning() {
    let a = samples::gruntz_like();
    let (anim, warnings) = ani::to_animation(&a, &mut |f| (f % 2 == 0).then(|| sprite(f))).unwrap();
    assert_eq!(anim.frames.len(), a.records.len());
    assert!(!anim.looping, "a finishing record makes it play once");
    let missing = warnings
        .iter()
        .find(|w| w.message.contains("placeholder"))
        .expect("a placeholder warning");
    assert!(
        missing.message.starts_with("4 image(s)"),
        "{}",
        missing.message
    );
    assert!(warnings.iter().any(|w| w.message.contains("cue")));
    assert!(warnings.iter().any(|w| w.message.contains("event")));
    // A missing image shows magenta at the anchor.
    let f1 = &anim.frames[1].rgba;
    let (ax, ay) = (anim.anchor.0 as u32, anim.anchor.1 as u32);
    let i = ((ay * anim.width + ax) * 4) as usize;
    assert!(f1[i..i + 4] == [255, 0, 255, 255] || f1[i..i + 4] == [0, 0, 0, 255]);
    // Nothing found at all: 32 x 32 placeholders.
    let (none, w) = ani::to_animation(&a, &mut |_| None).unwrap();
    assert_eq!((none.width, none.height), (32, 32));
    assert!(w.iter().any(|w| w.message.starts_with("8 image(s)")));
}

#[test]
fn records_after_the_finish_are_left_out() {
    let mut a = Ani::new((0..5).map(|i| Record::new(i, 50)).collect());
    a.records[2].loop_mode = LOOP_FINISH;
    let (anim, warnings) = ani::to_animation(&a, &mut |f| Some(sprite(f))).unwrap();
    assert_eq!(anim.frames.len(), 3);
    assert!(warnings.iter().any(|w| w.message.contains("left out")));
    assert!(
        a.validate()
            .iter()
            .any(|w| w.message.contains("never reached"))
    );
}

#[test]
fn huge_canvases_are_refused() {
    let a = Ani::new(vec![Record::new(0, 50), Record::new(1, 50)]);
    let far = |f: u32| Sprite::new(1, 1, vec![255; 4], (f as i32 * 30_000, 0)).unwrap();
    let strict = Limits::strict();
    let e = ani::to_animation_with(
        &a,
        &mut |f| Some(far(f)),
        &Limits {
            max_alloc: 1000,
            ..strict
        },
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
}

// ---- exporters --------------------------------------------------------------------------------

fn played() -> Animation {
    let a = samples::claw_like();
    ani::to_animation(&a, &mut |f| Some(sprite(f))).unwrap().0
}

#[test]
fn gif_reads_back_with_its_frames_and_delays() {
    use image::AnimationDecoder;
    use image::codecs::gif::GifDecoder;
    let anim = played();
    let gif = anim_write::to_gif(&anim, &GifOptions::default()).unwrap();
    assert!(gif.warnings.is_empty());
    assert!(gif.main.starts_with(b"GIF89a"));
    assert!(
        gif.main.windows(11).any(|w| w == b"NETSCAPE2.0"),
        "a looping GIF has a loop block"
    );
    let frames = GifDecoder::new(Cursor::new(&gif.main))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap();
    assert_eq!(frames.len(), 6);
    let delays: Vec<u32> = frames
        .iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            n / d
        })
        .collect();
    assert_eq!(delays, [100, 80, 80, 120, 80, 100]);
    // Pixels survive: the first frame's image is opaque where it was drawn, clear elsewhere.
    let first = frames[0].buffer();
    assert_eq!(first.dimensions(), (anim.width, anim.height));
    for (x, y, p) in first.enumerate_pixels() {
        let i = ((y * anim.width + x) * 4) as usize;
        let want = &anim.frames[0].rgba[i..i + 4];
        if want[3] == 0 {
            assert_eq!(p.0[3], 0, "({x}, {y})");
        } else {
            assert_eq!(&p.0[..], want, "({x}, {y})");
        }
    }
    // Playing once: no loop block.
    let once = Animation {
        looping: false,
        ..anim.clone()
    };
    let gif = anim_write::to_gif(&once, &GifOptions::default()).unwrap();
    assert!(!gif.main.windows(11).any(|w| w == b"NETSCAPE2.0"));
}

#[test]
fn gif_delays_keep_the_running_total() {
    let anim = |ms: &[u32]| Animation {
        width: 1,
        height: 1,
        anchor: (0, 0),
        frames: ms
            .iter()
            .map(|&duration_ms| Frame {
                rgba: vec![0; 4],
                duration_ms,
            })
            .collect(),
        looping: true,
    };
    let (d, w) = anim_write::gif_delays(&anim(&[33, 33, 34, 25, 25]));
    assert_eq!(d, [3, 4, 3, 3, 2]);
    assert_eq!(d.iter().map(|&c| u32::from(c)).sum::<u32>(), 15);
    assert!(w.is_empty());
    let (d, w) = anim_write::gif_delays(&anim(&[0, 10, 100]));
    assert_eq!(d, [2, 2, 10]);
    assert_eq!(w.len(), 1);
}

#[test]
fn apng_reads_back_with_its_frames_and_delays() {
    let anim = played();
    let apng = anim_write::to_apng(&anim).unwrap();
    let mut decoder = png::Decoder::new(Cursor::new(&apng.main))
        .read_info()
        .unwrap();
    let control = decoder.info().animation_control.unwrap();
    assert_eq!((control.num_frames, control.num_plays), (6, 0));
    let mut buf = vec![0; decoder.output_buffer_size().unwrap()];
    let mut delays = Vec::new();
    for i in 0..6 {
        decoder.next_frame(&mut buf).unwrap();
        let fc = decoder.info().frame_control.unwrap();
        delays.push(u32::from(fc.delay_num) * 1000 / u32::from(fc.delay_den));
        assert_eq!(&buf[..], &anim.frames[i].rgba[..], "frame {i}");
    }
    assert_eq!(delays, [100, 80, 80, 120, 80, 100]);
}

#[test]
fn sprite_sheet_has_every_frame_and_a_table() {
    let anim = played();
    let sheet = anim_write::to_sprite_sheet(
        &anim,
        &SheetOptions {
            columns: None,
            stem: "fire".into(),
        },
    )
    .unwrap();
    let img = image::load_from_memory(&sheet.main).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (anim.width * 3, anim.height * 2));
    let [(name, json)] = sheet.side_files.as_slice() else {
        panic!("one side file")
    };
    assert_eq!(name, "fire.json");
    let table: serde_json::Value = serde_json::from_slice(json).unwrap();
    assert_eq!(table["meta"]["image"], "fire.png");
    assert_eq!(table["frames"].as_array().unwrap().len(), 6);
    assert_eq!(table["frames"][4]["frame"]["x"], anim.width);
    assert_eq!(table["frames"][4]["frame"]["y"], anim.height);
    assert_eq!(table["frames"][3]["duration"], 120);
    assert_eq!(table["meta"]["anchor"]["x"], anim.anchor.0);
    // Frame 4's pixels sit in cell (1, 1).
    for y in 0..anim.height {
        for x in 0..anim.width {
            let i = ((y * anim.width + x) * 4) as usize;
            let p = img.get_pixel(anim.width + x, anim.height + y);
            assert_eq!(&p.0[..], &anim.frames[4].rgba[i..i + 4]);
        }
    }
}

#[test]
fn exporters_refuse_empty_animations() {
    let empty = Builder::new(Format::Ani).build(&Limits::default()).unwrap();
    assert!(anim_write::to_gif(&empty, &GifOptions::default()).is_err());
    assert!(anim_write::to_apng(&empty).is_err());
    assert!(anim_write::to_sprite_sheet(&empty, &SheetOptions::default()).is_err());
}
