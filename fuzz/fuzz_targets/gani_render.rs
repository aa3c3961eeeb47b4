//! Any bytes that read as a gani draw without panicking: every direction (and one past them),
//! with small generated images for some names, an empty image for others and none for the
//! rest, under strict limits. A drawing may only fail for its canvas passing the limits, and
//! what it draws has one frame per gani frame, each the canvas's size.

#![no_main]

use levelkit::anim::Sprite;
use levelkit::formats::graal::gani::{self, render};
use levelkit::{ErrorKind, Format, Limits};
use libfuzzer_sys::fuzz_target;

fn image(name: &str) -> Option<Sprite> {
    let n = name.len() as u32;
    match n % 4 {
        0 => None,
        1 => Sprite::new(0, 0, Vec::new(), (0, 0)),
        _ => {
            let (w, h) = (n * 7 % 61 + 1, n * 13 % 37 + 1);
            Sprite::new(
                w,
                h,
                [n as u8, 90, 200, (n * 31) as u8].repeat((w * h) as usize),
                (0, 0),
            )
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let limits = Limits::strict();
    let Ok(g) = gani::read_with(data, &limits) else {
        return;
    };
    let directions: Vec<usize> = (0..5).collect();
    match render::render_all(&g, &directions, &mut image, &limits) {
        Ok((all, _warnings)) => {
            for r in &all {
                assert!(r.animation.check(Format::Gani).is_ok());
                assert_eq!(r.animation.frames.len(), g.frames().count());
                assert_eq!(r.sounds.len(), g.frames().count());
            }
        }
        Err(e) => assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}"),
    }
});
