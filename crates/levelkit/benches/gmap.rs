//! Graal overworld throughput: the whole-overworld render of a generated 10 × 10 gmap of 100
//! generated `.nw` levels into one image of at most 4096 pixels a side (every level read,
//! converted to the tile map and drawn at 1/3 scale), reported in levels/s; and the `.gmap`
//! parse of a large generated grid in MB/s.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use levelkit::Limits;
use levelkit::document::world;
use levelkit::formats::graal::gmap::{self, Gmap};

fn main() {
    divan::main();
}

/// The 10 × 10 world: the gmap and each level's bytes by name.
static WORLD: LazyLock<(Gmap, BTreeMap<String, Vec<u8>>)> = LazyLock::new(|| {
    let (map, levels) = gmap::samples::world("bench", 10, 10, &[]);
    let files = levels
        .into_iter()
        .map(|(name, nw)| (name, nw.write().unwrap_or_default()))
        .collect();
    (map, files)
});

#[divan::bench(sample_count = 10)]
fn render_10x10(bencher: Bencher) {
    let (map, files) = &*WORLD;
    bencher.counter(ItemsCount::new(files.len())).bench(|| {
        let (image, warnings) = world::render_gmap_with(
            divan::black_box(map),
            4096,
            &Limits::default(),
            &mut |name| files.get(name).cloned(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(warnings.is_empty() && image.width == 3420);
        image
    });
}

/// A 200 × 200 gmap, quoted names, CRLF: 40,000 names.
static BIG: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let mut map = gmap::samples::gmap("big_overworld", 200, 200, &[]);
    map.layout.line_ending = levelkit::strings::LineEnding::CrLf;
    map.write().unwrap_or_default()
});

#[divan::bench]
fn read_validate_200x200(bencher: Bencher) {
    let bytes = &*BIG;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let map = gmap::read(divan::black_box(bytes)).unwrap_or_else(|e| panic!("{e}"));
        map.validate()
    });
}
