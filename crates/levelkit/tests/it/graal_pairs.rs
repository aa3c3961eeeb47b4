//! The two real levels saved both as `.graal` and as `.nw` (Aeva/nw-converter `test` and
//! `castlewarp`): converting either way gives the other one's meaning, field by field.

use crate::common;

use levelkit::Format;
use levelkit::document::Model;
use levelkit::formats::graal::level::{Level, sign_text};
use levelkit::formats::graal::{binary as graal, nw};

fn pair(name: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let dir = common::corpus("graal/nw-converter")?;
    Some((
        std::fs::read(dir.join(format!("{name}.graal"))).unwrap(),
        std::fs::read(dir.join(format!("{name}.nw"))).unwrap(),
    ))
}

/// Field-by-field comparison with a message naming the first difference.
fn assert_same(a: &Level, b: &Level, what: &str) {
    assert_eq!(a.layers.len(), b.layers.len(), "{what}: layers");
    for (la, lb) in a.layers.iter().zip(&b.layers) {
        if let Some(i) = la.tiles.iter().zip(&lb.tiles).position(|(x, y)| x != y) {
            panic!(
                "{what}: tile {i} differs: {} vs {}",
                la.tiles[i], lb.tiles[i]
            );
        }
    }
    assert_eq!(a.links, b.links, "{what}: links");
    assert_eq!(a.baddies, b.baddies, "{what}: baddies");
    assert_eq!(a.npcs, b.npcs, "{what}: npcs");
    assert_eq!(a.chests, b.chests, "{what}: chests");
    assert_eq!(a.signs.len(), b.signs.len(), "{what}: signs");
    for (sa, sb) in a.signs.iter().zip(&b.signs) {
        assert_eq!(
            sign_text::to_text(&sa.glyphs),
            sign_text::to_text(&sb.glyphs),
            "{what}: sign text"
        );
        assert_eq!(sa, sb, "{what}: sign");
    }
    assert_eq!(a, b, "{what}");
}

#[test]
fn both_pairs_convert_both_ways() {
    for name in ["test", "castlewarp"] {
        let Some((graal_bytes, nw_bytes)) = pair(name) else {
            eprintln!("SKIP: LEVELKIT_CORPUS is not set; the .graal/.nw pairs not run");
            return;
        };
        let real_graal = graal::read(&graal_bytes).unwrap();
        let real_nw = nw::read(&nw_bytes).unwrap();
        let (from_graal, w1) = real_graal.to_level();
        let (from_nw, w2) = real_nw.to_level();
        assert!(w1.is_empty() && w2.is_empty(), "{name}: {w1:?} {w2:?}");
        assert_same(
            &from_graal,
            &from_nw,
            &format!("{name}: the two real files"),
        );

        // .graal -> .nw, through the same conversion the CLI uses.
        let (converted, warnings) = Model::Graal(real_graal.clone())
            .convert_to(Format::Nw)
            .unwrap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        let Model::Nw(our_nw) = converted else {
            panic!("not nw")
        };
        let our_nw_bytes = our_nw.write().unwrap();
        let reread = nw::read(&our_nw_bytes).unwrap().to_level().0;
        assert_same(
            &reread,
            &from_nw,
            &format!("{name}: our .nw vs the real .nw"),
        );
        // The original editor's form: our text is the real file, byte for byte.
        assert!(
            our_nw_bytes == nw_bytes,
            "{name}: our .nw differs from the real one"
        );

        // .nw -> .graal.
        let (converted, warnings) = Model::Nw(real_nw).convert_to(Format::GraalLevel).unwrap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        let Model::Graal(our_graal) = converted else {
            panic!("not graal")
        };
        let our_graal_bytes = our_graal.write().unwrap();
        let reread = graal::read(&our_graal_bytes).unwrap().to_level().0;
        assert_same(
            &reread,
            &from_graal,
            &format!("{name}: our .graal vs the real .graal"),
        );
        assert!(
            our_graal_bytes == graal_bytes,
            "{name}: our .graal differs from the real one"
        );
    }
}
