//! Any bytes as a PID, a PCX, a palette and a PNG: reading under strict limits returns `Ok` or
//! `Err`, never panics. A PID that reads validates, summarises, dumps, draws, writes exactly the
//! bytes it was read from (which read back to the same image), and goes through PNG and back to
//! the same bytes; a PCX that reads draws and writes its bytes again; a PNG that reads as a PID
//! writes a PID that reads.

#![no_main]

use levelkit::Limits;
use levelkit::codec::Codec;
use levelkit::formats::pid::pcx::Pcx;
use levelkit::formats::pid::png::{pid_from_png, pid_to_png};
use levelkit::formats::pid::{self, Palette, samples};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::strict();
    if let Ok(image) = pid::read_with(data, &limits) {
        let _ = image.validate();
        let _ = image.summary();
        let _ = Codec::dump(&image, "fuzz.pid");
        let bytes = image.write().expect("an image that reads writes");
        assert!(bytes == data, "write changed the bytes");
        let back = pid::read_with(&bytes, &limits).expect("written bytes read back");
        assert!(back == image, "write then read changed the image");
        let palette = samples::palette();
        let draw = image.palette_or(Some(&palette)).expect("a palette");
        let rgba = image
            .to_rgba(draw, image.default_transparency(draw))
            .expect("a read image draws");
        assert_eq!(rgba.rgba.len(), image.pixels.len() * 4);
        let png = pid_to_png(&image, Some(&palette)).expect("a read image becomes a PNG");
        let (again, _) = pid_from_png(&png, None, &limits).expect("its PNG reads back");
        assert!(
            again.write().expect("writes") == data,
            "PNG round trip changed the bytes"
        );
    }
    if let Ok(screen) = Pcx::read_with(data, &limits) {
        let _ = screen.validate();
        let _ = Codec::dump(&screen, "fuzz.pcx");
        let _ = screen.to_rgba(Some(&samples::palette()));
        assert!(
            screen.write().expect("writes") == data,
            "pcx write changed the bytes"
        );
    }
    if let Ok(palette) = Palette::read(data) {
        assert!(palette.write() == data);
    }
    if let Ok((image, _)) = pid_from_png(data, Some(&samples::palette()), &limits) {
        let bytes = image.write().expect("a PID made from a PNG writes");
        pid::read_with(&bytes, &Limits::default()).expect("and reads");
    }
});
