//! Graal `.gani` drawn with its images (`formats::graal::gani::render`): the corpus ganis with
//! the corpus images (frame counts, durations from the `WAIT` lines counted here from the text,
//! frame 0 of "down" against a composition computed here from the `SPRITE` rectangles and the
//! decoded PNGs), the GIF, APNG and sprite sheet read back with the `image` and `png` crates;
//! drawing order of attachments, clipping, hostile rectangles and offsets with hand-made ganis;
//! every corpus gani with and without images, and a sweep of mutated ganis, never panic.

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use crate::common::{Rng, corpus_or_skip};

use levelkit::anim::Sprite;
use levelkit::anim::{self as anim_write, GifOptions, SheetExtras, SheetOptions};
use levelkit::formats::graal::gani::{self, Gani, render};
use levelkit::{ErrorKind, Limits};

// ---- helpers ----------------------------------------------------------------------------------

fn corpus_dirs(what: &str) -> Option<(PathBuf, PathBuf)> {
    let ganis = corpus_or_skip("gani", what)?;
    let images = corpus_or_skip("graal/images", what)?;
    Some((ganis, images))
}

/// A PNG decoded with the `image` crate.
fn decode(path: &Path) -> Option<Sprite> {
    let img = image::open(path).ok()?.to_rgba8();
    let (w, h) = img.dimensions();
    Sprite::new(w, h, img.into_raw(), (0, 0))
}

/// Images of a folder by exact file name, decoded once, with the names asked for recorded.
struct Folder {
    dir: PathBuf,
    cache: HashMap<String, Option<Sprite>>,
    asked: Vec<String>,
}

impl Folder {
    fn new(dir: &Path) -> Folder {
        Folder {
            dir: dir.to_path_buf(),
            cache: HashMap::new(),
            asked: Vec::new(),
        }
    }

    fn get(&mut self, name: &str) -> Option<Sprite> {
        self.asked.push(name.to_owned());
        let dir = self.dir.clone();
        self.cache
            .entry(name.to_owned())
            .or_insert_with(|| decode(&dir.join(name)))
            .clone()
    }
}

fn read(dir: &Path, name: &str) -> (Gani, String) {
    let bytes = std::fs::read(dir.join(name)).unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (Gani::read(&bytes).unwrap(), text)
}

/// Frame durations counted from the text: the `ANI` block's frames are separated by blank
/// lines, each lasts 50 ms plus 50 ms per `WAIT` unit.
fn durations_from_text(text: &str) -> Vec<u32> {
    let body: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "ANI")
        .skip(1)
        .take_while(|l| l.trim() != "ANIEND")
        .collect();
    body.split(|l| l.trim().is_empty())
        .filter(|frame| !frame.is_empty())
        .map(|frame| {
            let waits: u32 = frame
                .iter()
                .filter_map(|l| l.trim().strip_prefix("WAIT "))
                .map(|n| n.trim().parse::<u32>().unwrap())
                .sum();
            (waits + 1) * 50
        })
        .collect()
}

/// Straight-alpha "over" in floating point, rounded.
fn over(dst: [u8; 4], src: [u8; 4]) -> [u8; 4] {
    let sa = f64::from(src[3]) / 255.0;
    let da = f64::from(dst[3]) / 255.0;
    let oa = sa + da * (1.0 - sa);
    if oa == 0.0 {
        return [0; 4];
    }
    let mut out = [0u8; 4];
    for c in 0..3 {
        let v = (f64::from(src[c]) * sa + f64::from(dst[c]) * da * (1.0 - sa)) / oa;
        out[c] = v.round() as u8;
    }
    out[3] = (oa * 255.0).round() as u8;
    out
}

/// The pixel at actor coordinates (x, y) of one direction line, composed here from the
/// gani's `SPRITE` rectangles: each placement in order, its rectangle cut from `image(source)`
/// (transparent outside the image), pixels drawn over each other.
fn compose_at(
    g: &Gani,
    line: &gani::Direction,
    image_of: &dyn Fn(&gani::Sprite) -> Sprite,
    x: i64,
    y: i64,
) -> [u8; 4] {
    let mut px = [0u8; 4];
    for p in &line.placements {
        let gani::SpriteRef::Index(i) = p.sprite else {
            panic!("the corpus frames place sprites by index");
        };
        let def = g.sprite(i).unwrap();
        let (px0, py0) = (p.x as i64, p.y as i64);
        let (w, h) = (i64::from(def.width), i64::from(def.height));
        if x < px0 || y < py0 || x >= px0 + w || y >= py0 + h {
            continue;
        }
        let img = image_of(def);
        let (ix, iy) = (i64::from(def.left) + x - px0, i64::from(def.top) + y - py0);
        if ix < 0 || iy < 0 || ix >= i64::from(img.width) || iy >= i64::from(img.height) {
            continue;
        }
        let at = ((iy * i64::from(img.width) + ix) * 4) as usize;
        let src: [u8; 4] = img.rgba[at..at + 4].try_into().unwrap();
        if src[3] == 0 {
            continue;
        }
        px = over(px, src);
    }
    px
}

fn assert_close(got: &[u8], want: [u8; 4], at: (u32, u32)) {
    for c in 0..4 {
        assert!(
            (i32::from(got[c]) - i32::from(want[c])).abs() <= 1,
            "pixel {at:?}: got {got:?}, want {want:?}"
        );
    }
}

/// Check a drawn frame against [`compose_at`] over the whole canvas.
fn assert_frame_matches(
    g: &Gani,
    line: &gani::Direction,
    r: &render::Rendered,
    frame: usize,
    image_of: &dyn Fn(&gani::Sprite) -> Sprite,
) -> usize {
    let a = &r.animation;
    let rgba = &a.frames[frame].rgba;
    let mut opaque = 0;
    for cy in 0..a.height {
        for cx in 0..a.width {
            let want = compose_at(
                g,
                line,
                image_of,
                i64::from(cx) - a.anchor.0,
                i64::from(cy) - a.anchor.1,
            );
            let at = ((cy * a.width + cx) * 4) as usize;
            assert_close(&rgba[at..at + 4], want, (cx, cy));
            opaque += usize::from(want[3] > 0);
        }
    }
    opaque
}

fn gif_frames(bytes: &[u8]) -> Vec<(u32, u32)> {
    use image::AnimationDecoder;
    use image::codecs::gif::GifDecoder;
    GifDecoder::new(Cursor::new(bytes))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
        .iter()
        .map(|f| f.delay().numer_denom_ms())
        .collect()
}

// ---- the corpus -------------------------------------------------------------------------------

#[test]
fn walk_with_corpus_images_has_its_frames_durations_and_composition() {
    let Some((ganis, images)) = corpus_dirs("gani render of walk.gani") else {
        return;
    };
    let (g, text) = read(&ganis, "walk.gani");
    let mut folder = Folder::new(&images);
    let (all, warnings) = render::render_all(
        &g,
        &render::directions(&g),
        &mut |n| folder.get(n),
        &Limits::default(),
    )
    .unwrap();
    // Each image asked for once: the DEFAULT lines' files, then the usual head.
    let mut asked = folder.asked.clone();
    asked.sort();
    asked.dedup();
    assert_eq!(asked.len(), folder.asked.len(), "{:?}", folder.asked);
    for name in [
        "sprites.png",
        "shield1.png",
        "body.png",
        "head19.png",
        "head0.png",
    ] {
        assert!(
            asked.iter().any(|a| a == name),
            "{name} not asked: {asked:?}"
        );
    }
    // walk.gani: 8 frames of four direction lines, no WAIT, LOOP and CONTINUOUS.
    let durations = durations_from_text(&text);
    assert_eq!(durations, vec![50; 8]);
    assert_eq!(all.len(), 4);
    for (r, name) in all.iter().zip(["up", "left", "down", "right"]) {
        assert_eq!(r.direction, Some(name));
        assert_eq!(r.animation.frames.len(), 8);
        let got: Vec<u32> = r.animation.frames.iter().map(|f| f.duration_ms).collect();
        assert_eq!(got, durations);
        assert!(r.animation.looping && r.looped && r.continuous);
        assert_eq!(r.set_back_to, None);
        // PLAYSOUND steps2.wav 1.5 2 on frames 0 and 4.
        let with_sound: Vec<usize> = (0..8).filter(|&i| !r.sounds[i].is_empty()).collect();
        assert_eq!(with_sound, [0, 4]);
        assert_eq!(r.sounds[0][0].file, "steps2.wav");
        assert_eq!((r.sounds[0][0].x, r.sounds[0][0].y), (1.5, 2.0));
    }
    // head19.png is not in the corpus: head0.png stands in; hat0.png is missing: placeholders.
    let text_w: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        text_w
            .iter()
            .any(|w| w.contains("DEFAULTHEAD head19.png") && w.contains("head0.png")),
        "{text_w:?}"
    );
    assert!(
        text_w
            .iter()
            .any(|w| w.contains("hat0.png") && w.contains("placeholder")),
        "{text_w:?}"
    );

    // Frame 0 of "down", composed here.
    let decoded: HashMap<&str, Sprite> = ["sprites.png", "shield1.png", "body.png", "head0.png"]
        .into_iter()
        .map(|n| (n, decode(&images.join(n)).unwrap()))
        .collect();
    let image_of = |def: &gani::Sprite| -> Sprite {
        match def.source.display().as_str() {
            "SPRITES" => decoded["sprites.png"].clone(),
            "SHIELD" => decoded["shield1.png"].clone(),
            "BODY" => decoded["body.png"].clone(),
            "HEAD" => decoded["head0.png"].clone(),
            // The missing hat: the placeholder of the rectangle's size, at the rectangle's
            // corner, as an image whose rectangle is all of it.
            "ATTR1" => {
                let p = Sprite::placeholder(def.width as u32, def.height as u32);
                let mut big =
                    vec![0u8; ((def.left + def.width) * (def.top + def.height) * 4) as usize];
                let stride = (def.left + def.width) as usize * 4;
                for row in 0..def.height as usize {
                    let to = (def.top as usize + row) * stride + def.left as usize * 4;
                    let from = row * def.width as usize * 4;
                    big[to..to + def.width as usize * 4]
                        .copy_from_slice(&p.rgba[from..from + def.width as usize * 4]);
                }
                Sprite::new(
                    (def.left + def.width) as u32,
                    (def.top + def.height) as u32,
                    big,
                    (0, 0),
                )
                .unwrap()
            }
            other => panic!("walk.gani has no source {other}"),
        }
    };
    let down = &all[2];
    let first = g.frames().next().unwrap();
    let line = &first.directions[2];
    // shadow, body walking4 down, head down, hat down, shield down.
    let order: Vec<i32> = line
        .placements
        .iter()
        .map(|p| match p.sprite {
            gani::SpriteRef::Index(i) => i,
            gani::SpriteRef::Param(_) => -1,
        })
        .collect();
    assert_eq!(order, [0, 218, 102, 42, 12]);
    let opaque = assert_frame_matches(&g, line, down, 0, &image_of);
    assert!(opaque > 500, "only {opaque} pixels drawn");
    // The canvas covers every frame of the direction: the union of the placements' rectangles.
    let (mut l, mut t, mut r, mut b) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    for f in g.frames() {
        for p in &f.directions[2].placements {
            let gani::SpriteRef::Index(i) = p.sprite else {
                continue;
            };
            let d = g.sprite(i).unwrap();
            l = l.min(p.x as i64);
            t = t.min(p.y as i64);
            r = r.max(p.x as i64 + i64::from(d.width));
            b = b.max(p.y as i64 + i64::from(d.height));
        }
    }
    assert_eq!(down.animation.anchor, (-l, -t));
    assert_eq!(
        (down.animation.width, down.animation.height),
        ((r - l) as u32, (b - t) as u32)
    );

    // The GIF reads back with 8 frames of 50 ms, looping (a NETSCAPE block).
    let gif = anim_write::to_gif(&down.animation, &GifOptions::default()).unwrap();
    assert!(gif.main.windows(11).any(|w| w == b"NETSCAPE2.0"));
    assert_eq!(gif_frames(&gif.main), vec![(50, 1); 8]);
    // The APNG: 8 frames, plays forever, 50 ms each.
    let apng = anim_write::to_apng(&down.animation).unwrap();
    let mut reader = png::Decoder::new(Cursor::new(&apng.main))
        .read_info()
        .unwrap();
    let ctl = reader.info().animation_control.unwrap();
    assert_eq!((ctl.num_frames, ctl.num_plays), (8, 0));
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let mut delays = Vec::new();
    while reader.next_frame(&mut buf).is_ok() {
        let fc = reader.info().frame_control.unwrap();
        delays.push((fc.delay_num, fc.delay_den));
        if delays.len() == 1 {
            // The first frame is the composition checked above.
            assert_eq!(&buf[..], &down.animation.frames[0].rgba[..]);
        }
    }
    assert_eq!(delays, vec![(50, 1000); 8]);
}

#[test]
fn idle_with_corpus_images_is_one_still_frame_per_direction() {
    let Some((ganis, images)) = corpus_dirs("gani render of idle.gani") else {
        return;
    };
    let (g, text) = read(&ganis, "idle.gani");
    assert_eq!(durations_from_text(&text), [50]);
    let mut folder = Folder::new(&images);
    let (all, _) = render::render_all(
        &g,
        &render::directions(&g),
        &mut |n| folder.get(n),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(all.len(), 4);
    let body = decode(&images.join("body.png")).unwrap();
    for (d, r) in all.iter().enumerate() {
        assert_eq!(r.animation.frames.len(), 1);
        assert_eq!(r.animation.frames[0].duration_ms, 50);
        assert!(
            !r.animation.looping,
            "idle.gani has neither LOOP nor CONTINUOUS"
        );
        // The body sprite 200 + d is drawn where its line places it: compare its pixels where
        // nothing is drawn over it (the hat and head are above y = 18, the shield beside it).
        let line = &g.frames().next().unwrap().directions[d];
        let bp = line
            .placements
            .iter()
            .find(|p| p.sprite == gani::SpriteRef::Index(200 + d as i32))
            .unwrap();
        let def = g.sprite(200 + d as i32).unwrap();
        let a = &r.animation;
        let (x0, y0) = (a.anchor.0 + bp.x as i64, a.anchor.1 + bp.y as i64);
        // Every opaque body pixel that no later placement's rectangle covers shows as it is.
        let body_at = line
            .placements
            .iter()
            .position(|p| std::ptr::eq(p, bp))
            .unwrap();
        let later: Vec<(i64, i64, i64, i64)> = line.placements[body_at + 1..]
            .iter()
            .map(|p| {
                let gani::SpriteRef::Index(i) = p.sprite else {
                    unreachable!()
                };
                let s = g.sprite(i).unwrap();
                let (x, y) = (p.x as i64, p.y as i64);
                (x, y, x + i64::from(s.width), y + i64::from(s.height))
            })
            .collect();
        let mut compared = 0;
        for (sy, sx) in
            (0..def.height as i64).flat_map(|y| (0..def.width as i64).map(move |x| (y, x)))
        {
            let (ax, ay) = (bp.x as i64 + sx, bp.y as i64 + sy);
            if later
                .iter()
                .any(|&(l, t, r, b)| ax >= l && ax < r && ay >= t && ay < b)
            {
                continue;
            }
            let src_at = (((def.top as i64 + sy) * i64::from(body.width) + def.left as i64 + sx)
                * 4) as usize;
            let src = &body.rgba[src_at..src_at + 4];
            if src[3] != 255 {
                continue;
            }
            let at = (((y0 + sy) * i64::from(a.width) + x0 + sx) * 4) as usize;
            assert_eq!(&a.frames[0].rgba[at..at + 4], src, "direction {d}, x {sx}");
            compared += 1;
        }
        assert!(
            compared > 4,
            "direction {d}: only {compared} opaque body pixels"
        );
    }
    // Not looping: the GIF has no NETSCAPE block, one frame of 50 ms.
    let gif = anim_write::to_gif(&all[2].animation, &GifOptions::default()).unwrap();
    assert!(!gif.main.windows(11).any(|w| w == b"NETSCAPE2.0"));
    assert_eq!(gif_frames(&gif.main), vec![(50, 1)]);
}

#[test]
fn every_corpus_gani_renders_with_and_without_images() {
    let Some((ganis, images)) = corpus_dirs("gani render of every corpus gani") else {
        return;
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(&ganis)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gani"))
        .collect();
    names.sort();
    assert!(names.len() >= 14);
    let mut folder = Folder::new(&images);
    for path in &names {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (g, text) = read(&ganis, &name);
        let durations = durations_from_text(&text);
        let dirs = render::directions(&g);
        let (with, _) =
            render::render_all(&g, &dirs, &mut |n| folder.get(n), &Limits::default()).unwrap();
        let (without, warnings) =
            render::render_all(&g, &dirs, &mut |_| None, &Limits::default()).unwrap();
        assert!(
            warnings
                .iter()
                .any(|w| w.to_string().contains("placeholder")),
            "{name}: no warning for the missing images"
        );
        for (a, b) in with.iter().zip(&without) {
            for r in [a, b] {
                let got: Vec<u32> = r.animation.frames.iter().map(|f| f.duration_ms).collect();
                assert_eq!(got, durations, "{name}");
                assert_eq!(r.sounds.len(), durations.len());
            }
            // The same frames are drawn, from images or placeholders.
            assert_eq!(a.animation.frames.len(), b.animation.frames.len());
        }
        if name == "dead.gani" {
            assert_eq!(with.len(), 1, "dead.gani is SINGLEDIRECTION");
            assert_eq!(with[0].direction, None);
            assert_eq!(durations[0], 150);
        } else {
            assert_eq!(with.len(), 4, "{name}");
        }
        if name == "sword.gani" || name == "hurt.gani" {
            assert_eq!(with[0].set_back_to.as_deref(), Some("idle"), "{name}");
            assert!(!with[0].animation.looping);
        }
    }
}

#[test]
fn sheet_json_lists_sounds_and_setbackto() {
    let Some((ganis, images)) = corpus_dirs("gani sprite sheet") else {
        return;
    };
    let (g, _) = read(&ganis, "sword.gani");
    let mut folder = Folder::new(&images);
    let (r, _) = render::render(&g, 2, &mut |n| folder.get(n)).unwrap();
    let sheet = anim_write::to_sprite_sheet_with(
        &r.animation,
        &SheetOptions {
            columns: None,
            stem: "sword".into(),
        },
        &SheetExtras {
            meta: r.meta_json(),
            frames: r.frame_json(),
        },
    )
    .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&sheet.side_files[0].1).unwrap();
    assert_eq!(json["meta"]["setbackto"], "idle");
    assert_eq!(json["meta"]["direction"], "down");
    assert_eq!(json["meta"]["loop"], false);
    let frames = json["frames"].as_array().unwrap();
    assert_eq!(frames.len(), g.frames().count());
    let sounds: Vec<&str> = frames
        .iter()
        .flat_map(|f| f["sounds"].as_array().unwrap())
        .map(|s| s["file"].as_str().unwrap())
        .collect();
    assert_eq!(sounds, ["sword.wav"]);
    let img = image::load_from_memory(&sheet.main).unwrap();
    assert!(img.width() >= r.animation.width);
}

// ---- hand-made ganis --------------------------------------------------------------------------

fn solid(w: u32, h: u32, px: [u8; 4]) -> Sprite {
    Sprite::new(w, h, px.repeat((w * h) as usize), (0, 0)).unwrap()
}

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

fn colours(name: &str) -> Option<Sprite> {
    match name {
        "red.png" => Some(solid(8, 8, RED)),
        "green.png" => Some(solid(8, 8, GREEN)),
        "blue.png" => Some(solid(8, 8, BLUE)),
        _ => None,
    }
}

fn px(r: &render::Rendered, frame: usize, x: i64, y: i64) -> [u8; 4] {
    let a = &r.animation;
    let (cx, cy) = (x + a.anchor.0, y + a.anchor.1);
    let at = ((cy * i64::from(a.width) + cx) * 4) as usize;
    a.frames[frame].rgba[at..at + 4].try_into().unwrap()
}

#[test]
fn attachments_draw_behind_and_in_front_in_order() {
    // Sprite 1 (red 4x4) carries 2 (green) behind at (2, 0) and 3 (blue) in front at (-2, 0).
    let text = "SPRITE 1 red.png 0 0 4 4\nSPRITE 2 green.png 0 0 4 4\nSPRITE 3 blue.png 0 0 4 4\n\
                ATTACHSPRITE 1 3 -2 0\nATTACHSPRITE2 1 2 2 0\nSINGLEDIRECTION\n\nANI\n1 0 0\n\nANIEND\n";
    let g = Gani::read(text.as_bytes()).unwrap();
    let (r, w) = render::render(&g, 0, &mut colours).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!((r.animation.width, r.animation.height), (8, 4));
    assert_eq!(px(&r, 0, -2, 0), BLUE);
    assert_eq!(px(&r, 0, 1, 1), BLUE, "blue is in front of red");
    assert_eq!(px(&r, 0, 2, 0), RED, "green is behind red");
    assert_eq!(px(&r, 0, 5, 3), GREEN);
    // A cycle ends at the attachment depth.
    let cyc =
        "SPRITE 1 red.png 0 0 1 1\nATTACHSPRITE 1 1 1 0\nSINGLEDIRECTION\n\nANI\n1 0 0\n\nANIEND\n";
    let g = Gani::read(cyc.as_bytes()).unwrap();
    let (r, _) = render::render(&g, 0, &mut colours).unwrap();
    assert_eq!(r.animation.width as usize, render::MAX_ATTACH_DEPTH + 1);
}

#[test]
fn placements_draw_in_order_with_truncated_offsets() {
    let text = "SPRITE 1 red.png 0 0 4 4\nSPRITE 2 blue.png 0 0 2 2\nSINGLEDIRECTION\n\nANI\n\
                1 0 0, 2 1.9 -0.5\nWAIT 3\n\n2 0 0, 1 0 0\n\nANIEND\n";
    let g = Gani::read(text.as_bytes()).unwrap();
    let (r, _) = render::render(&g, 0, &mut colours).unwrap();
    assert_eq!(r.direction, None);
    assert_eq!(
        r.animation
            .frames
            .iter()
            .map(|f| f.duration_ms)
            .collect::<Vec<_>>(),
        [200, 50]
    );
    // 1.9 -> 1, -0.5 -> 0, as int() truncates.
    assert_eq!(px(&r, 0, 1, 0), BLUE);
    assert_eq!(px(&r, 0, 0, 0), RED);
    assert_eq!(px(&r, 0, 3, 0), RED);
    assert_eq!(px(&r, 1, 0, 0), RED, "red is placed after blue");
}

#[test]
fn slots_use_default_lines_then_usual_images_then_placeholders() {
    let text = "SPRITE 1 HEAD 0 0 2 2\nSPRITE 2 BODY 0 0 2 2\nSPRITE 3 ATTR2 0 0 3 3\n\
                SPRITE 4 PARAM1 0 0 2 2\nDEFAULTHEAD green.png\nDEFAULTBODY gone.png\n\
                DEFAULTPARAM1 blue.png\nDEFAULTPARAM2 4\nSINGLEDIRECTION\n\nANI\n\
                1 0 0, 2 2 0, 3 4 0, PARAM2 7 0\n\nANIEND\n";
    let g = Gani::read(text.as_bytes()).unwrap();
    let mut asked = Vec::new();
    let (r, w) = render::render(&g, 0, &mut |n: &str| {
        asked.push(n.to_owned());
        match n {
            "body.png" => Some(solid(2, 2, RED)),
            other => colours(other),
        }
    })
    .unwrap();
    assert_eq!(asked, ["green.png", "gone.png", "body.png", "blue.png"]);
    assert_eq!(px(&r, 0, 0, 0), GREEN);
    assert_eq!(px(&r, 0, 2, 0), RED, "BODY falls back to body.png");
    assert_eq!(
        px(&r, 0, 4, 0),
        [255, 0, 255, 255],
        "ATTR2 has no image: placeholder"
    );
    assert_eq!(
        px(&r, 0, 7, 0),
        BLUE,
        "PARAM2 names sprite 4, whose PARAM1 is blue.png"
    );
    let w: Vec<String> = w.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|m| m.contains("DEFAULTBODY gone.png") && m.contains("body.png"))
    );
    assert!(
        w.iter()
            .any(|m| m.contains("no DEFAULTATTR2 line") && m.contains("sprites 3")),
        "{w:?}"
    );
}

#[test]
fn hostile_rectangles_and_offsets_are_warnings() {
    let text = "SPRITE 1 red.png -2 -2 4 4\nSPRITE 2 red.png 100 100 4 4\nSPRITE 3 red.png 0 0 -5 4\n\
                SPRITE 4 red.png 0 0 0 0\nSPRITE 5 missing.png 0 0 2147483647 2147483647\n\
                SPRITE 6 red.png 2147483647 2147483647 2147483647 2147483647\n\
                SINGLEDIRECTION\n\nANI\n1 0 0, 2 0 0, 3 0 0, 4 0 0, 6 0 0, 99 0 0, 1 99999 0, \
                1 0 -99999.5\n\n1 0 0\n\nANIEND\n";
    let g = Gani::read(text.as_bytes()).unwrap();
    let (r, w) = render::render(&g, 0, &mut colours).unwrap();
    let w: Vec<String> = w.iter().map(|w| w.to_string()).collect();
    let has = |needle: &str| w.iter().any(|m| m.contains(needle));
    assert!(has("sprite 1: rectangle -2 -2 4 x 4"), "{w:?}");
    assert!(has("sprite 2: rectangle"), "{w:?}");
    assert!(has("sprites 3, 4 have an empty or negative rectangle"));
    assert!(has("undefined sprites") && has("99"));
    assert!(has("2 placement(s) farther than"));
    assert!(has("sprite 6: rectangle"));
    // Sprite 1 is clipped to its image's 2x2 corner, drawn at (2, 2) from the placement.
    assert_eq!(px(&r, 0, 2, 2), RED);
    assert_eq!(px(&r, 0, 3, 3), RED);
    assert_eq!(r.animation.anchor, (-2, -2));
    assert_eq!((r.animation.width, r.animation.height), (2, 2));
    assert_eq!(r.animation.frames.len(), 2);
    // The placeholder of a huge missing rectangle is bounded.
    let big =
        "SPRITE 5 missing.png 0 0 2147483647 2147483647\nSINGLEDIRECTION\n\nANI\n5 0 0\n\nANIEND\n";
    let g = Gani::read(big.as_bytes()).unwrap();
    let (r, _) = render::render(&g, 0, &mut colours).unwrap();
    assert_eq!(r.animation.width, render::MAX_PLACEHOLDER_SIDE);
    // Frames lacking the direction line asked for are empty, with a warning.
    let (r, w) = render::render(&g, 3, &mut colours).unwrap();
    assert_eq!(r.animation.frames.len(), 1);
    assert!(
        w.iter()
            .any(|w| w.to_string().contains("lack the direction line"))
    );
}

#[test]
fn color_effect_multiplies_and_other_effects_are_reported() {
    let text = "SPRITE 1 red.png 0 0 1 1\nCOLOREFFECT 1 0.5 1 1 0.5\nLAYER 1 1\nEFFECTMODE 1 0\n\
                SINGLEDIRECTION\n\nANI\n1 0 0\n\nANIEND\n";
    let g = Gani::read(text.as_bytes()).unwrap();
    let (r, w) = render::render(&g, 0, &mut colours).unwrap();
    assert_eq!(px(&r, 0, 0, 0), [128, 0, 0, 128]);
    let w: Vec<String> = w.iter().map(|w| w.to_string()).collect();
    assert!(w.iter().any(|m| m.contains("1 LAYER line(s) not applied")));
    assert!(
        w.iter()
            .any(|m| m.contains("1 EFFECTMODE 0 line(s) not applied (added light)")),
        "{w:?}"
    );
    // EFFECTMODE 1 is the normal blend: nothing to say.
    let normal = text.replace("EFFECTMODE 1 0", "EFFECTMODE 1 1");
    let (_, w) = render::render(&Gani::read(normal.as_bytes()).unwrap(), 0, &mut colours).unwrap();
    assert!(
        !w.iter().any(|m| m.to_string().contains("EFFECTMODE")),
        "{w:?}"
    );
}

/// Scale and rotation effects, as TilesEditor draws them: about the centre of the sprite's
/// rectangle (whole pixels), turned clockwise, then scaled; later lines win per axis.
#[test]
fn scale_and_rotation_effects_turn_the_sprite_about_its_centre() {
    // A 4 x 2 green picture with a blue top-left pixel, placed at (10, 10).
    let mut images = |name: &str| -> Option<Sprite> {
        (name == "mark.png").then(|| {
            let mut rgba = GREEN.repeat(8);
            rgba[..4].copy_from_slice(&BLUE);
            Sprite::new(4, 2, rgba, (0, 0)).unwrap()
        })
    };
    let render_one = |effects: &str, images: &mut dyn FnMut(&str) -> Option<Sprite>| {
        let text = format!(
            "SPRITE 1 mark.png 0 0 4 2\n{effects}SINGLEDIRECTION\n\nANI\n1 10 10\n\nANIEND\n"
        );
        let g = Gani::read(text.as_bytes()).unwrap();
        let (r, w) = render::render(&g, 0, images).unwrap();
        assert!(w.is_empty(), "{w:?}");
        r
    };
    // Zoom 2 about (2, 1): 8 x 4, from (-2, -1) of the placement; the blue pixel is 2 x 2.
    let r = render_one("ZOOMEFFECT 1 2\n", &mut images);
    assert_eq!((r.animation.width, r.animation.height), (8, 4));
    assert_eq!(px(&r, 0, 8, 9), BLUE);
    assert_eq!(px(&r, 0, 9, 10), BLUE);
    assert_eq!(px(&r, 0, 10, 9), GREEN);
    assert_eq!(px(&r, 0, 15, 12), GREEN);
    // A quarter turn (pi/2 radians): 2 x 4, the blue corner at the top right.
    let r = render_one("ROTATEEFFECT 1 1.5707963267948966\n", &mut images);
    assert_eq!((r.animation.width, r.animation.height), (2, 4));
    // Corners (0, 0)..(4, 2) turned about (2, 1) cover x 1..3, y -1..3 of the placement.
    assert_eq!(px(&r, 0, 12, 9), BLUE);
    assert_eq!(px(&r, 0, 11, 9), GREEN);
    assert_eq!(px(&r, 0, 12, 12), GREEN);
    // STRETCHXEFFECT -1 after ZOOMEFFECT 1: mirrored, not grown; the blue corner at the right.
    let r = render_one("ZOOMEFFECT 1 1\nSTRETCHXEFFECT 1 -1\n", &mut images);
    assert_eq!((r.animation.width, r.animation.height), (4, 2));
    assert_eq!(px(&r, 0, 13, 10), BLUE);
    assert_eq!(px(&r, 0, 10, 10), GREEN);
    // STRETCHYEFFECT 0 hides the sprite.
    let r = render_one("STRETCHYEFFECT 1 0\n", &mut images);
    assert!(
        r.animation
            .frames
            .iter()
            .all(|f| f.rgba.iter().all(|&b| b == 0))
    );
    // A scale that would make the sprite enormous is not applied, and said so.
    let text =
        "SPRITE 1 mark.png 0 0 4 2\nZOOMEFFECT 1 100000\nSINGLEDIRECTION\n\nANI\n1 0 0\n\nANIEND\n";
    let (r, w) = render::render(&Gani::read(text.as_bytes()).unwrap(), 0, &mut images).unwrap();
    assert_eq!((r.animation.width, r.animation.height), (4, 2));
    assert!(
        w.iter()
            .any(|w| w.to_string().contains("drawn unscaled and unturned")),
        "{w:?}"
    );
}

#[test]
fn a_canvas_beyond_the_limits_is_an_error_not_a_panic() {
    let text = "SPRITE 1 red.png 0 0 8 8\nSINGLEDIRECTION\n\nANI\n1 -4000 -4000\n\n1 4000 4000\n\nANIEND\n";
    let g = Gani::read(text.as_bytes()).unwrap();
    let err = render::render_with(&g, 0, &mut colours, &Limits::strict()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
}

// ---- sweeps -----------------------------------------------------------------------------------

/// Small images for every name, sized by the name's length, so mutated rectangles meet real
/// pixels, empty images and missing ones.
fn any_image(name: &str) -> Option<Sprite> {
    let n = name.len() as u32;
    match n % 5 {
        0 => None,
        1 => Some(solid(0, 0, RED)),
        _ => Some(solid(
            n * 7 % 97 + 1,
            n * 13 % 61 + 1,
            [n as u8, 80, 160, (n * 37) as u8],
        )),
    }
}

fn sweep_one(bytes: &[u8]) {
    let Ok(g) = gani::read_with(bytes, &Limits::strict()) else {
        return;
    };
    let dirs: Vec<usize> = (0..5).collect();
    match render::render_all(&g, &dirs, &mut any_image, &Limits::strict()) {
        Ok((all, _)) => {
            for r in &all {
                r.animation.check(levelkit::Format::Gani).unwrap();
                assert_eq!(r.animation.frames.len(), g.frames().count());
            }
        }
        Err(e) => assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}"),
    }
}

#[test]
fn mutated_ganis_never_panic() {
    let mut seeds: Vec<Vec<u8>> = vec![
        gani::samples::walk_like().write().unwrap(),
        b"SPRITE 1 a.png 0 0 4 4\nATTACHSPRITE 1 1 0 0\nATTACHSPRITE2 1 2 -3 1\n\
          SPRITE 2 HEAD -3 -3 9 9\nDEFAULTPARAM1 1\nSINGLEDIR\n\nANI\n1 0 0, PARAM1 2 2\nWAIT 1\n\nANIEND\n"
            .to_vec(),
    ];
    if let Some(dir) = crate::common::corpus("gani") {
        for e in std::fs::read_dir(dir).unwrap() {
            seeds.push(std::fs::read(e.unwrap().path()).unwrap());
        }
    }
    let replacements: [&[u8]; 8] = [
        b"-1",
        b"0",
        b"2147483647",
        b"-2147483648",
        b"1e308",
        b"NaN",
        b"PARAM1",
        b"\n",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0;
    for seed in &seeds {
        sweep_one(seed);
        for _ in 0..60 {
            let mut m = seed.clone();
            for _ in 0..1 + rng.below(4) {
                if m.is_empty() {
                    break;
                }
                let at = rng.below(m.len());
                match rng.below(3) {
                    0 => m[at] = rng.next() as u8,
                    1 => {
                        // Replace a number-like token with a hostile one.
                        let end = (at + 1 + rng.below(6)).min(m.len());
                        let with = replacements[rng.below(replacements.len())];
                        m.splice(at..end, with.iter().copied());
                    }
                    _ => {
                        let end = (at + rng.below(40)).min(m.len());
                        let piece = m[at..end].to_vec();
                        m.splice(at..at, piece);
                    }
                }
            }
            sweep_one(&m);
            runs += 1;
        }
    }
    assert!(runs >= 120);
}

// ---- GANI0002 MOVIE ---------------------------------------------------------------------------

/// A `GANI0002` gani whose animation is a `MOVIE` block (the layout `graal-notes.md` §4.4
/// describes), with or without an `ANI` block.
fn movie_gani(with_ani: bool) -> String {
    let mut text = String::from(
        "GANI0002\nSPRITE    0 SPRITES    0   0  32  32 box\nFRAMES 20\nMOVIE\nACTOR SPRITE box\n\
         FRAME 0 dx=0,dy=0,sprite=0,visible=1\nFRAME 10 dx=32,dy=0\nACTOREND\nMOVIEEND\n",
    );
    if with_ani {
        text.push_str("SINGLEDIRECTION\nANI\n   0   0   0\nANIEND\n");
    }
    text
}

#[test]
fn a_movie_gani_is_refused_at_its_line_and_kept_byte_for_byte() {
    let text = movie_gani(false);
    let g = Gani::read(text.as_bytes()).unwrap();
    assert_eq!(g.write().unwrap(), text.as_bytes());
    let json = levelkit::document::Model::Gani(g.clone());
    let back = levelkit::document::Model::from_json(&json.to_json().unwrap()).unwrap();
    assert_eq!(back.write().unwrap(), text.as_bytes());
    let err = render::render(&g, 0, &mut |_| None).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsupported);
    assert_eq!(err.location.line_col, Some((4, 1)), "{err}");
    assert!(err.to_string().contains("line 4, column 1"), "{err}");
    assert!(err.to_string().contains("MOVIE block"), "{err}");
    let err = render::render_all_placeholders(&g, &[0], &mut |_| None, &Limits::default(), true)
        .unwrap_err();
    assert_eq!(err.location.line_col, Some((4, 1)), "{err}");
}

#[test]
fn a_movie_gani_with_ani_frames_draws_them_and_says_the_movie_is_not_drawn() {
    let g = Gani::read(movie_gani(true).as_bytes()).unwrap();
    let box32 = |_: &str| Some(Sprite::new(32, 32, vec![200; 32 * 32 * 4], (0, 0)).unwrap());
    let (r, warnings) = render::render(&g, 0, &mut { box32 }).unwrap();
    assert_eq!(r.animation.frames.len(), 1);
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("line 4: the MOVIE block")),
        "{warnings:?}"
    );
}
