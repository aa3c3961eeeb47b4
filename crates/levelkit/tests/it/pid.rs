//! WAP32 images: PID, PAL and PCX. The real Gruntz PIDs decode to exactly the pixels of
//! WAP32.rs's reference PNGs and are written back byte for byte (also through JSON and through
//! PNG); TRAINING.PCX decodes to its 640 x 480 and re-encodes byte for byte; every prefix is an
//! error; garbage and mutations never panic; hostile sizes are refused without allocating;
//! proptests model -> bytes -> model.

use std::path::{Path, PathBuf};

use crate::common;
use crate::common::Rng;
use crate::common::alloc::peak_during;

use levelkit::document::Model;
use levelkit::formats::pid::pcx::Pcx;
use levelkit::formats::pid::png::{palette_from_png, palette_to_png, pid_from_png, pid_to_png};
use levelkit::formats::pid::rle::Literals;
use levelkit::formats::pid::{
    self, GRUNTZ_KEY, Grammar, Palette, Pid, PidFlags, RgbaImage, Transparency, samples,
};
use levelkit::{ErrorKind, Format, Limits, Severity, sniff};

// ---- helpers ----------------------------------------------------------------------------------

fn pid_dir() -> Option<PathBuf> {
    common::corpus_or_skip("wap32/pid", "real PID images")
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A reference PNG's pixels as RGBA.
fn reference(dir: &Path, sub: &str, name: &str) -> RgbaImage {
    let img = image::load_from_memory(&read(&dir.join(sub), name))
        .unwrap()
        .to_rgba8();
    RgbaImage {
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
    }
}

/// Pixels where two images differ.
fn differing(a: &RgbaImage, b: &RgbaImage) -> usize {
    assert_eq!((a.width, a.height), (b.width, b.height));
    a.rgba
        .chunks(4)
        .zip(b.rgba.chunks(4))
        .filter(|(x, y)| x != y)
        .count()
}

/// The bytes of a PID header.
fn header(flags: u32, width: u32, height: u32) -> Vec<u8> {
    let mut b = Vec::new();
    for v in [10, flags, width, height, 0, 0, 0, 0] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b
}

fn all_samples() -> Vec<(String, Pid)> {
    let mut out = vec![
        ("sprite".to_owned(), samples::sprite()),
        (
            "sprite_with_palette".to_owned(),
            samples::sprite_with_palette(),
        ),
    ];
    for seed in 1..6u64 {
        let (w, h) = (1 + seed as u32 * 7, 1 + seed as u32 * 3);
        out.push((
            format!("generate({seed}, skips)"),
            samples::generate(seed, w, h, true),
        ));
        out.push((
            format!("generate({seed}, runs)"),
            samples::generate(seed, w, h, false),
        ));
    }
    out
}

// ---- the real files -------------------------------------------------------------------------

#[test]
fn corpus_pids_read_as_wap32rs_reads_them_and_write_back_byte_for_byte() {
    let Some(dir) = pid_dir() else { return };
    // (file, size, hotspot, flags, grammar, embedded palette), as WAP32.rs's own tests have them.
    let expected = [
        ("PERFECT.PID", (252, 54), (2, 3), 0x81, Grammar::Runs, true),
        (
            "FRAME043.PID",
            (64, 65),
            (-6, -21),
            0x3A5,
            Grammar::Skips,
            true,
        ),
        (
            "FRAME003.PID",
            (100, 100),
            (0, 0),
            0x165,
            Grammar::Skips,
            false,
        ),
    ];
    let mut exact = 0;
    for (name, size, hotspot, flags, grammar, palette) in expected {
        let bytes = read(&dir, name);
        let pid = Pid::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((pid.width, pid.height), size, "{name}");
        assert_eq!(pid.hotspot(), hotspot, "{name}");
        assert_eq!(pid.flags.bits(), flags, "{name}");
        assert_eq!(pid.grammar(), grammar, "{name}");
        assert_eq!(pid.palette.is_some(), palette, "{name}");
        assert_eq!(pid.file_desc, 10, "{name}");
        assert!(pid.flags.contains(PidFlags::TRANSPARENCY), "{name}");
        assert_eq!(
            pid.flags.contains(PidFlags::LIGHTS),
            name == "FRAME003.PID",
            "{name}"
        );
        assert!(pid.trailing.is_empty(), "{name}");
        assert!(pid.validate().is_empty(), "{name}: {:?}", pid.validate());
        // Our encoder reproduces all three streams: nothing kept verbatim.
        if pid.original_stream.is_none() {
            exact += 1;
        }
        assert_eq!(pid.write().unwrap(), bytes, "{name}");
        // The edit path: without the spelling found, the default one still gives these bytes.
        let mut fresh = pid.clone();
        fresh.original_stream = None;
        assert_eq!(fresh.write().unwrap(), bytes, "{name}");
        // Through the document layer and JSON.
        let model = Model::read(&bytes, Some(name), &Limits::default()).unwrap();
        assert_eq!(model.format(), Format::Pid);
        let json = model.to_json().unwrap();
        let back = Model::from_json(&json).unwrap();
        assert_eq!(back.write().unwrap(), bytes, "{name} through JSON");
        let info = model.info_text(name);
        assert!(info.contains(&format!("{} x {}", size.0, size.1)), "{info}");
        assert!(info.contains("TRANSPARENCY"), "{info}");
        assert!(model.dump_text(name).contains("pixels (palette indices"));
    }
    assert_eq!(exact, 3, "re-encoded exactly by a spelling rule");
    eprintln!("pid corpus: {exact} of 3 real PIDs re-encode byte for byte with our encoder");
    let spellings: Vec<String> = ["PERFECT.PID", "FRAME043.PID", "FRAME003.PID"]
        .iter()
        .map(|n| format!("{n}: {:?}", Pid::read(&read(&dir, n)).unwrap().spelling))
        .collect();
    eprintln!("pid corpus spellings: {spellings:?}");
}

#[test]
fn corpus_pids_decode_to_the_reference_pixels() {
    let Some(dir) = pid_dir() else { return };
    for name in ["FRAME043", "PERFECT"] {
        let pid = Pid::read(&read(&dir, &format!("{name}.PID"))).unwrap();
        let palette = pid.palette.clone().unwrap();
        // Opaque: every pixel its palette colour.
        let opaque = pid.to_rgba(&palette, Transparency::Opaque).unwrap();
        let want = reference(&dir, "decoded", &format!("{name}.PNG"));
        assert_eq!(differing(&opaque, &want), 0, "{name} opaque");
        // Transparent: the references key out the Gruntz pink, which is what the games'
        // colour key does and what `default_transparency` picks.
        let want = reference(&dir, "decoded-alpha", &format!("{name}.PNG"));
        assert_eq!(
            pid.default_transparency(&palette),
            Transparency::Color(GRUNTZ_KEY)
        );
        let keyed = pid
            .to_rgba(&palette, Transparency::Color(GRUNTZ_KEY))
            .unwrap();
        assert_eq!(differing(&keyed, &want), 0, "{name} keyed");
        // "Index 0 transparent" is the same thing for FRAME043 (pink is entry 0) but not for
        // PERFECT, whose embedded palette has black at 0 and the pink at 8.
        let index0 = pid.to_rgba(&palette, Transparency::Index(0)).unwrap();
        let wrong = differing(&index0, &want);
        if name == "FRAME043" {
            assert_eq!(wrong, 0);
        } else {
            assert_eq!(palette.find(GRUNTZ_KEY), Some(8));
            assert_eq!(wrong, 1882 + 5787, "PERFECT: index 0 and index 8 pixels");
            let index8 = pid.to_rgba(&palette, Transparency::Index(8)).unwrap();
            assert_eq!(differing(&index8, &want), 0);
        }
    }
}

#[test]
fn the_shadow_without_a_palette_needs_one() {
    let Some(dir) = pid_dir() else { return };
    let bytes = read(&dir, "FRAME003.PID");
    let pid = Pid::read(&bytes).unwrap();
    // A light map: mostly transparent (index 0), a few shade indices.
    let zeros = pid.pixels.iter().filter(|&&i| i == 0).count();
    assert_eq!(zeros, 9929);
    let e = pid_to_png(&pid, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("--palette"), "{e}");
    // With a palette given, PNG and back is byte for byte, and the palette is not embedded.
    let png = pid_to_png(&pid, Some(&samples::palette())).unwrap();
    let (back, warnings) = pid_from_png(&png, None, &Limits::default()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(back.palette, None);
    assert_eq!(back.write().unwrap(), bytes);
    let (back, _) = pid_from_png(&png, Some(&samples::palette()), &Limits::default()).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
}

#[test]
fn corpus_pids_go_through_png_and_back_byte_for_byte() {
    let Some(dir) = pid_dir() else { return };
    for name in ["PERFECT.PID", "FRAME043.PID"] {
        let bytes = read(&dir, name);
        let pid = Pid::read(&bytes).unwrap();
        let png = pid.to_png(None).unwrap();
        // The PNG shows what the reference shows.
        let img = image::load_from_memory(&png).unwrap().to_rgba8();
        let palette = pid.palette.clone().unwrap();
        let keyed = pid
            .to_rgba(&palette, Transparency::Color(GRUNTZ_KEY))
            .unwrap();
        for (a, b) in img.into_raw().chunks(4).zip(keyed.rgba.chunks(4)) {
            // Transparent pixels keep their colour in an indexed PNG.
            if b[3] == 0 {
                assert_eq!(a[3], 0);
            } else {
                assert_eq!(a, b);
            }
        }
        let (back, warnings) = pid_from_png(&png, None, &Limits::default()).unwrap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert_eq!(back, pid, "{name}");
        assert_eq!(back.write().unwrap(), bytes, "{name}");
    }
}

#[test]
fn training_pcx_decodes_to_its_size_and_writes_back_byte_for_byte() {
    let Some(dir) = common::corpus_or_skip("wap32/pcx", "the real PCX") else {
        return;
    };
    let bytes = read(&dir, "TRAINING.PCX");
    assert_eq!(sniff(&bytes, None), Some(Format::Pcx));
    let pcx = Pcx::read(&bytes).unwrap();
    assert_eq!((pcx.width(), pcx.height()), (640, 480));
    assert_eq!((pcx.header.planes, pcx.header.bits_per_pixel), (3, 8));
    assert_eq!(pcx.header.bytes_per_line, 640);
    // Three planes of RGB: no 256-colour palette (the 0x0C test means nothing here).
    assert!(pcx.palette.is_none());
    assert!(pcx.trailing.is_empty());
    assert_eq!(pcx.literals, Literals::Decodable);
    assert!(pcx.original_stream.is_none(), "re-encoded by the rule");
    assert_eq!(pcx.write().unwrap(), bytes);
    assert!(pcx.validate().is_empty(), "{:?}", pcx.validate());
    let rgba = pcx.to_rgba(None).unwrap();
    assert_eq!((rgba.width, rgba.height), (640, 480));
    assert_eq!(rgba.rgba.len(), 640 * 480 * 4);
    // A sane picture: many colours, neither black nor white throughout, opaque.
    let mut colors: Vec<&[u8]> = rgba.rgba.chunks(4).collect();
    colors.sort_unstable();
    colors.dedup();
    assert!(colors.len() > 200, "{} colours", colors.len());
    assert!(rgba.rgba.chunks(4).all(|p| p[3] == 255));
    let model = Model::read(&bytes, Some("TRAINING.PCX"), &Limits::default()).unwrap();
    assert_eq!(
        Model::from_json(&model.to_json().unwrap())
            .unwrap()
            .write()
            .unwrap(),
        bytes
    );
    assert!(model.info_text("TRAINING.PCX").contains("640 x 480"));
    // Prefixes: a sweep with a stride (each decode is linear in the prefix).
    for len in (0..bytes.len())
        .step_by(4099)
        .chain(bytes.len() - 300..bytes.len())
    {
        assert!(Pcx::read(&bytes[..len]).is_err(), "prefix {len}");
    }
}

// ---- every prefix, garbage, mutations ---------------------------------------------------------

#[test]
fn every_prefix_is_an_error() {
    let mut files: Vec<(String, Vec<u8>)> = all_samples()
        .into_iter()
        .map(|(n, p)| (n, p.write().unwrap()))
        .collect();
    if let Some(dir) = pid_dir() {
        for name in ["PERFECT.PID", "FRAME043.PID", "FRAME003.PID"] {
            files.push((name.to_owned(), read(&dir, name)));
        }
    }
    for (name, bytes) in &files {
        assert!(Pid::read(bytes).is_ok(), "{name}");
        for len in 0..bytes.len() {
            let e = Pid::read(&bytes[..len]).err();
            let e = e.unwrap_or_else(|| panic!("{name}: prefix {len} read"));
            assert!(
                matches!(e.kind, ErrorKind::Truncated | ErrorKind::Malformed),
                "{name}: prefix {len}: {e}"
            );
        }
    }
    let pcx = Pcx::new_indexed(9, 5, (0..45).collect(), samples::palette())
        .write()
        .unwrap();
    for len in 0..pcx.len() {
        assert!(Pcx::read(&pcx[..len]).is_err(), "pcx prefix {len}");
    }
}

#[test]
fn garbage_and_mutations_never_panic_and_what_reads_writes_back() {
    let mut rng = Rng(0x5EED_F91D);
    let mut bases: Vec<Vec<u8>> = all_samples()
        .into_iter()
        .map(|(_, p)| p.write().unwrap())
        .collect();
    if let Some(dir) = pid_dir() {
        for name in ["PERFECT.PID", "FRAME043.PID", "FRAME003.PID"] {
            bases.push(read(&dir, name));
        }
    }
    let mut ok = 0;
    for round in 0..4000 {
        let mut b = bases[round % bases.len()].clone();
        if round % 5 == 0 {
            // Garbage after a plausible header.
            let len = rng.below(300);
            b.truncate(32);
            b.extend((0..len).map(|_| rng.next() as u8));
        }
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(b.len());
            b[at] = rng.next() as u8;
        }
        let (result, peak) = peak_during(|| pid::read_with(&b, &Limits::strict()));
        assert!(
            peak <= 200 * b.len() + (1 << 16),
            "{peak} for {} bytes",
            b.len()
        );
        if let Ok(p) = result {
            ok += 1;
            let _ = p.validate();
            let _ = p.summary();
            let _ = levelkit::codec::Codec::dump(&p, "x");
            assert_eq!(p.write().unwrap(), b, "round {round}");
            if let Some(pal) = p.palette_or(Some(&samples::palette())) {
                let _ = p.to_rgba(pal, p.default_transparency(pal)).unwrap();
            }
        }
        // Through every reader: never a panic.
        let _ = Pcx::read_with(&b, &Limits::strict());
        let _ = Palette::read(&b);
        let _ = Model::read(&b, Some("x.pid"), &Limits::strict());
    }
    assert!(ok > 500, "only {ok} mutated files still read");
}

#[test]
fn mutated_pcx_files_never_panic_and_what_reads_writes_back() {
    let mut rng = Rng(0xC0FFEE);
    let mut bases = vec![
        Pcx::new_indexed(9, 5, (0..45).map(|i| i / 4).collect(), samples::palette())
            .write()
            .unwrap(),
    ];
    let mut rgb = Pcx::new_indexed(
        6,
        3,
        (0..54).map(|i| (i * 7) as u8).collect(),
        samples::palette(),
    );
    rgb.header.planes = 3;
    rgb.header.version = 3;
    rgb.palette = None;
    bases.push(rgb.write().unwrap());
    let mut ok = 0;
    for round in 0..3000 {
        let mut b = bases[round % bases.len()].clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(b.len());
            b[at] = rng.next() as u8;
        }
        let (result, peak) = peak_during(|| Pcx::read_with(&b, &Limits::strict()));
        assert!(
            peak <= 70 * b.len() + (1 << 16),
            "{peak} for {} bytes",
            b.len()
        );
        if let Ok(p) = result {
            ok += 1;
            let _ = p.validate();
            let _ = levelkit::codec::Codec::dump(&p, "x");
            let _ = p.to_rgba(Some(&samples::palette()));
            assert_eq!(p.write().unwrap(), b, "round {round}");
        }
    }
    assert!(ok > 300, "only {ok} mutated files still read");
}

#[test]
fn hostile_sizes_are_refused_without_allocating() {
    // 65535 x 65535 with 10 bytes of stream: refused before any pixel is allocated.
    for flags in [0, 0x20, 0x80, 0xA0] {
        let mut b = header(flags, 65535, 65535);
        b.extend_from_slice(&[0xFF; 10]);
        if flags & 0x80 != 0 {
            b.extend_from_slice(&[0; 768]);
        }
        let (r, peak) = peak_during(|| Pid::read(&b));
        let e = r.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
        assert!(e.message.contains("65535 x 65535"), "{e}");
        assert!(peak < 4096, "flags {flags:#x}: {peak} bytes allocated");
    }
    // What the stream could fill but the limits do not allow.
    let mut b = header(0x20, 4096, 4096);
    b.extend(std::iter::repeat_n(0xFF, (4096 * 4096) / 127 + 1));
    let (r, peak) = peak_during(|| {
        pid::read_with(
            &b,
            &Limits {
                max_alloc: 1 << 20,
                ..Limits::strict()
            },
        )
    });
    assert_eq!(r.unwrap_err().kind, ErrorKind::LimitExceeded);
    assert!(peak < 4096, "{peak}");
    // Sizes the games read as zero or negative.
    for (w, h) in [(0, 1), (1, 0), (0x8000_0000, 1), (1, u32::MAX)] {
        let mut b = header(0, w, h);
        b.extend_from_slice(&[1; 16]);
        assert_eq!(
            Pid::read(&b).unwrap_err().kind,
            ErrorKind::Malformed,
            "{w} x {h}"
        );
    }
    // The palette flag on a file too short for one.
    let mut b = header(0x80, 1, 1);
    b.extend_from_slice(&[5; 100]);
    let e = Pid::read(&b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert!(e.message.contains("palette"), "{e}");
    // A hostile PCX header.
    let mut pcx = Pcx::new_indexed(2, 2, vec![0; 4], samples::palette());
    pcx.header.x_max = 65534;
    pcx.header.y_max = 65534;
    pcx.header.bytes_per_line = 65535;
    let mut b = Pcx::new_indexed(2, 2, vec![0; 4], samples::palette())
        .write()
        .unwrap();
    b[8..12].copy_from_slice(&[0xFE, 0xFF, 0xFE, 0xFF]);
    b[0x42..0x44].copy_from_slice(&[0xFF; 2]);
    let (r, peak) = peak_during(|| Pcx::read(&b));
    assert_eq!(r.unwrap_err().kind, ErrorKind::Truncated);
    assert!(peak < 4096, "{peak}");
    // ... and a model claiming that size is refused by the writer and by to_rgba.
    assert!(pcx.write().is_err());
    assert!(pcx.to_rgba(None).is_err());
    let mut big = samples::sprite();
    big.width = 65535;
    big.height = 65535;
    let (r, peak) = peak_during(|| big.to_rgba(&samples::palette(), Transparency::Opaque));
    assert!(r.is_err());
    assert!(peak < 4096, "{peak}");
}

// ---- hand-made streams ------------------------------------------------------------------------

#[test]
fn streams_our_encoder_would_not_write_are_kept_and_reported() {
    // A 4 x 2 image in the 0xC0 grammar whose first run crosses the row end (6 of 0xAA) and
    // with a zero run: levelkit carries on into the next row.
    let mut b = header(0, 4, 2);
    b.extend_from_slice(&[0xC6, 0xAA, 0xC0, 0x11, 0x01, 0x02]);
    let pid = Pid::read(&b).unwrap();
    assert_eq!(pid.pixels, [0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0x01, 0x02]);
    assert!(pid.original_stream.is_some());
    assert_eq!(pid.write().unwrap(), b);
    let findings = pid.validate();
    assert_eq!(findings.len(), 2, "{findings:?}");
    assert!(findings.iter().all(|f| f.severity == Severity::Warning));
    assert!(
        findings[0].message.contains("past the end of a row"),
        "{findings:?}"
    );
    assert!(findings[1].message.contains("zero pixels"), "{findings:?}");
    // Edited pixels are encoded: the kept stream no longer decodes to them.
    let mut edited = pid.clone();
    edited.pixels[7] = 0x03;
    let again = Pid::read(&edited.write().unwrap()).unwrap();
    assert_eq!(again.pixels, edited.pixels);
    assert!(again.original_stream.is_none());

    // Trailing bytes after the stream are kept, before the palette.
    let mut b = header(0xA0, 2, 1);
    b.extend_from_slice(&[0x82, 0xEE, 0xEE]);
    b.extend_from_slice(&samples::palette().to_bytes());
    let pid = Pid::read(&b).unwrap();
    assert_eq!(pid.trailing, [0xEE, 0xEE]);
    assert_eq!(pid.write().unwrap(), b);
    assert!(pid.validate()[0].message.contains("after the pixel stream"));

    // The key-index fill (flag 0x100): skip runs stand for the low byte of `fill`.
    let mut b = header(0x120, 3, 1);
    b[0x18] = 7;
    b.extend_from_slice(&[0x82, 0x01, 0x09]);
    let pid = Pid::read(&b).unwrap();
    assert_eq!(pid.pixels, [7, 7, 9]);
    assert_eq!(pid.fill_index(), 7);
    assert!(pid.original_stream.is_none());
    assert_eq!(pid.write().unwrap(), b);
}

#[test]
fn the_writer_refuses_what_would_not_read_back() {
    let mut pid = samples::sprite();
    pid.flags |= PidFlags::EMBEDDED_PALETTE;
    assert!(pid.write().unwrap_err().message.contains("no palette"));
    assert_eq!(pid.validate()[0].severity, Severity::Error);
    let mut pid = samples::sprite();
    pid.palette = Some(samples::palette());
    assert!(pid.write().is_err());
    let mut pid = samples::sprite();
    pid.pixels.pop();
    assert!(pid.write().is_err());
    assert!(
        pid.to_rgba(&samples::palette(), Transparency::Opaque)
            .is_err()
    );
    let mut pid = samples::sprite();
    pid.width = 0;
    assert!(pid.write().is_err());
    // Unknown flag bits are kept and shown.
    let mut pid = samples::sprite();
    pid.flags = PidFlags::from_bits_retain(pid.flags.bits() | 0x4000);
    let back = Pid::read(&pid.write().unwrap()).unwrap();
    assert_eq!(back.flags.bits() & 0x4000, 0x4000);
    assert!(back.validate()[0].message.contains("0x4000"));
    let model = Model::Pid(back);
    assert!(model.info_text("x").contains("0x4000"));
    let json = String::from_utf8(model.to_json().unwrap()).unwrap();
    assert!(json.contains("0x4000"), "{json}");
    assert_eq!(Model::from_json(json.as_bytes()).unwrap(), model);
}

// ---- samples, palettes, PNG, sniffing ---------------------------------------------------------

#[test]
fn samples_round_trip_and_look_right() {
    for (name, pid) in all_samples() {
        let bytes = pid.write().unwrap();
        let back = Pid::read(&bytes).unwrap();
        assert_eq!(back, pid, "{name}");
        assert!(back.original_stream.is_none(), "{name}");
        assert!(back.validate().is_empty(), "{name}");
        assert_eq!(sniff(&bytes, None), Some(Format::Pid), "{name}");
    }
    let sprite = samples::sprite();
    assert_eq!(sprite.hotspot(), (-12, -20));
    let palette = samples::palette();
    assert_eq!(palette.color(0), GRUNTZ_KEY);
    let rgba = sprite
        .to_rgba(&palette, sprite.default_transparency(&palette))
        .unwrap();
    let clear = rgba.rgba.chunks(4).filter(|p| p[3] == 0).count();
    assert!(clear > 100 && clear < 24 * 20 - 100, "{clear}");
    assert_eq!(
        sprite.to_rgba(&palette, Transparency::Index(0)).unwrap(),
        rgba
    );
}

#[test]
fn palettes_read_write_and_become_pngs() {
    let palette = samples::palette();
    let bytes = palette.write();
    assert_eq!(sniff(&bytes, Some("LEVEL.PAL")), Some(Format::Pal));
    let model = Model::read(&bytes, Some("LEVEL.PAL"), &Limits::default()).unwrap();
    assert_eq!(model.write().unwrap(), bytes);
    assert!(model.info_text("LEVEL.PAL").contains("256"));
    assert_eq!(
        Model::from_json(&model.to_json().unwrap())
            .unwrap()
            .write()
            .unwrap(),
        bytes
    );
    let png = palette_to_png(&palette).unwrap();
    let img = image::load_from_memory(&png).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (128, 128));
    assert_eq!(img.get_pixel(8 * 3 + 1, 0).0, [0, 0, 102, 255]);
    let (back, _) = palette_from_png(&png, &Limits::default()).unwrap();
    assert_eq!(back, palette);
}

#[test]
fn rgba_pngs_are_quantised_to_the_palette() {
    let sprite = samples::sprite();
    let palette = samples::palette();
    let rgba = sprite
        .to_rgba(&palette, sprite.default_transparency(&palette))
        .unwrap();
    // An RGBA PNG as a paint program would save it: no palette, no levelkit chunk.
    let mut png = Vec::new();
    {
        let mut e = png::Encoder::new(&mut png, rgba.width, rgba.height);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        e.write_header()
            .unwrap()
            .write_image_data(&rgba.rgba)
            .unwrap();
    }
    let e = pid_from_png(&png, None, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let (pid, warnings) = pid_from_png(&png, Some(&palette), &Limits::default()).unwrap();
    assert_eq!(
        pid.pixels, sprite.pixels,
        "exact colours, alpha 0 to index 0"
    );
    assert_eq!(
        pid.flags,
        PidFlags::TRANSPARENCY | PidFlags::COMPRESSION,
        "the made-up header"
    );
    assert_eq!(pid.palette, None);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("no levelkit-pid"));
    // Colours off the palette go to the nearest entry, with a warning.
    let mut off = rgba.rgba.clone();
    for p in off.chunks_mut(4).filter(|p| p[3] == 255) {
        p[0] = p[0].saturating_add(3);
    }
    let mut png = Vec::new();
    {
        let mut e = png::Encoder::new(&mut png, rgba.width, rgba.height);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(&off).unwrap();
    }
    let (pid, warnings) = pid_from_png(&png, Some(&palette), &Limits::default()).unwrap();
    assert_eq!(pid.pixels, sprite.pixels);
    assert!(
        warnings.iter().any(|w| w.message.contains("nearest")),
        "{warnings:?}"
    );
    // Our own PNG of the Gruntz-style sample keeps everything.
    let gruntz = samples::sprite_with_palette();
    let (back, warnings) =
        pid_from_png(&gruntz.to_png(None).unwrap(), None, &Limits::default()).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(back, gruntz);
    // A PCX as an RGBA PNG.
    let pcx = Pcx::new_indexed(4, 2, vec![2, 3, 4, 5, 6, 7, 8, 9], palette.clone());
    let png =
        levelkit::formats::pid::png::rgba_to_png(Format::Pcx, &pcx.to_rgba(None).unwrap()).unwrap();
    let img = image::load_from_memory(&png).unwrap().to_rgba8();
    assert_eq!(img.get_pixel(0, 0).0, [0, 0, 51, 255]);
    // Garbage is an error, not a panic.
    assert!(pid_from_png(b"\x89PNG\r\n\x1a\nnot really", None, &Limits::default()).is_err());
}

#[test]
fn sniffing_tells_the_three_apart() {
    assert_eq!(
        sniff(&samples::sprite().write().unwrap(), Some("A.BIN")),
        Some(Format::Pid)
    );
    let pcx = Pcx::new_indexed(2, 2, vec![1; 4], samples::palette())
        .write()
        .unwrap();
    assert_eq!(sniff(&pcx, None), Some(Format::Pcx));
    assert_eq!(sniff(&[0; 768], Some("x.pal")), Some(Format::Pal));
    assert_eq!(Format::from_name("pid"), Some(Format::Pid));
    assert_eq!(Format::from_path_name("SCREEN.PCX"), Some(Format::Pcx));
}

// ---- proptest ---------------------------------------------------------------------------------

mod props {
    use super::*;
    use proptest::prelude::*;

    fn arb_pid() -> impl Strategy<Value = Pid> {
        (
            1u32..40,
            1u32..12,
            any::<u64>(),
            prop::sample::select(vec![
                0u32, 0x01, 0x21, 0x81, 0xA1, 0x165, 0x3A5, 0x121, 0x4000,
            ]),
            any::<(i32, i32, u32, u32)>(),
            prop::sample::select(Literals::ALL.to_vec()),
            prop::sample::select(vec![126u8, 127]),
            0u8..4,
        )
            .prop_map(
                |(w, h, seed, flags, (ox, oy, fill, user), literals, fill_max, colors)| {
                    let mut rng = Rng(seed | 1);
                    let pixels = (0..w * h)
                        .map(|_| {
                            let r = rng.next();
                            if colors == 0 {
                                r as u8
                            } else {
                                (r % u64::from(colors + 1)) as u8 * 60
                            }
                        })
                        .collect();
                    let mut pid = Pid::new(w, h, pixels);
                    pid.flags = PidFlags::from_bits_retain(flags);
                    if flags & 0x80 != 0 {
                        pid.palette = Some(Palette::from_fn(|i| [i, i ^ 0x55, seed as u8]));
                    }
                    pid.offset_x = ox;
                    pid.offset_y = oy;
                    pid.fill = fill;
                    pid.user = user;
                    pid.spelling.literals = literals;
                    pid.spelling.fill_run_max = fill_max;
                    pid
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// model -> bytes -> model keeps every field but the spelling, which the reader finds
        /// anew (the first that gives the same bytes); bytes -> model -> bytes is the identity.
        #[test]
        fn model_bytes_model(pid in arb_pid()) {
            let bytes = pid.write().unwrap();
            let back = Pid::read(&bytes).unwrap();
            prop_assert!(back.original_stream.is_none());
            let mut expect = pid.clone();
            expect.spelling = back.spelling;
            prop_assert_eq!(&back, &expect);
            prop_assert_eq!(back.write().unwrap(), bytes.clone());
            let json = Model::Pid(back).to_json().unwrap();
            prop_assert_eq!(Model::from_json(&json).unwrap().write().unwrap(), bytes);
        }

        /// Through an indexed PNG and back: the same bytes.
        #[test]
        fn model_png_model(pid in arb_pid()) {
            let palette = Palette::from_fn(|i| [i, 255 - i, 7]);
            let bytes = pid.write().unwrap();
            let png = pid_to_png(&pid, Some(&palette)).unwrap();
            let (back, warnings) = pid_from_png(&png, None, &Limits::default()).unwrap();
            prop_assert!(warnings.is_empty());
            prop_assert_eq!(back.write().unwrap(), bytes);
        }

        /// Bytes overwritten anywhere: never a panic; what still reads writes back.
        #[test]
        fn mutated_pids_are_refused_or_kept(
            pid in arb_pid(),
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)
        ) {
            let mut bytes = pid.write().unwrap();
            for (at, value) in flips {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(model) = pid::read_with(&bytes, &Limits::strict()) {
                prop_assert_eq!(model.write().unwrap(), bytes);
            }
        }
    }
}
