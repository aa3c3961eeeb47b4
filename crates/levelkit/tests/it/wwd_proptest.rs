//! proptest: random WWD models -> bytes -> model is the identity, compressed or not, and the
//! lossless JSON form rebuilds the same bytes.

use levelkit::formats::wwd::*;
use levelkit::strings::RawString;
use proptest::collection::vec;
use proptest::prelude::*;

fn raw(max: usize) -> impl Strategy<Value = RawString> {
    vec(any::<u8>(), 0..=max).prop_map(RawString)
}

fn name_bytes(max: usize) -> impl Strategy<Value = RawString> {
    vec(1u8..=255, 0..=max).prop_map(RawString)
}

fn slot_string(n: usize) -> impl Strategy<Value = SlotString> {
    prop_oneof![
        4 => name_bytes(n).prop_map(SlotString::new),
        1 => (name_bytes(n - 2), any::<u8>()).prop_map(move |(text, b)| {
            let mut after = vec![0u8; n - text.len() - 1];
            after[0] = b | 1;
            SlotString { text, after_nul: Some(RawString(after)) }
        }),
    ]
}

fn rect() -> impl Strategy<Value = Rect> {
    any::<[i32; 4]>().prop_map(|[l, t, r, b]| Rect::new(l, t, r, b))
}

fn object() -> impl Strategy<Value = Object> {
    (
        any::<[i32; 5]>(),
        any::<[u32; 4]>(),
        any::<[i32; 6]>(),
        [rect(), rect(), rect(), rect(), rect(), rect()],
        any::<[i32; 8]>(),
        any::<[i32; 16]>(),
        any::<[u32; 4]>(),
        [raw(12), raw(20), raw(20), raw(20)],
    )
        .prop_map(|(a, flags, stats, rects, user, misc, tail, strings)| {
            let [name, logic, image_set, animation] = strings;
            Object {
                id: a[0],
                x: a[1],
                y: a[2],
                z: a[3],
                i: a[4],
                add_flags: AddFlags::from_bits_retain(flags[0]),
                dynamic_flags: DynamicFlags::from_bits_retain(flags[1]),
                draw_flags: DrawFlags::from_bits_retain(flags[2]),
                user_flags: UserFlags::from_bits_retain(flags[3]),
                score: stats[0],
                points: stats[1],
                powerup: stats[2],
                damage: stats[3],
                smarts: stats[4],
                health: stats[5],
                move_rect: rects[0],
                hit_rect: rects[1],
                attack_rect: rects[2],
                clip_rect: rects[3],
                user_rect1: rects[4],
                user_rect2: rects[5],
                user_values: user,
                min_x: misc[0],
                min_y: misc[1],
                max_x: misc[2],
                max_y: misc[3],
                speed_x: misc[4],
                speed_y: misc[5],
                tweak_x: misc[6],
                tweak_y: misc[7],
                counter: misc[8],
                speed: misc[9],
                width: misc[10],
                height: misc[11],
                direction: misc[12],
                face_dir: misc[13],
                time_delay: misc[14],
                frame_delay: misc[15],
                object_type: tail[0],
                hit_type_flags: tail[1],
                move_res_x: tail[2],
                move_res_y: tail[3],
                name,
                logic,
                image_set,
                animation,
            }
        })
}

fn plane() -> impl Strategy<Value = Plane> {
    (0i32..12, 0i32..12)
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                any::<[i32; 10]>(),
                any::<[u32; 6]>(),
                slot_string(64),
                vec(name_bytes(10), 0..3),
                vec(
                    prop_oneof![Just(TILE_EMPTY), Just(TILE_FILL), any::<u32>(), 0u32..50],
                    (w * h) as usize,
                ),
                vec(object(), 0..4),
            )
        })
        .prop_map(|((w, h), v, u, name, image_sets, tiles, objects)| Plane {
            unknown1: u[0],
            flags: PlaneFlags::from_bits_retain(u[1]),
            unknown2: u[2],
            name,
            width_px: v[0],
            height_px: v[1],
            tile_width: v[2],
            tile_height: v[3],
            tiles_wide: w,
            tiles_high: h,
            origin_x: v[4],
            origin_y: v[5],
            movement_x_percent: v[6],
            movement_y_percent: v[7],
            fill_color: v[8],
            z_coord: v[9],
            unknown5: u[3],
            unknown6: u[4],
            unknown7: u[5],
            image_sets,
            tiles,
            objects,
        })
}

fn tile_property() -> impl Strategy<Value = TileProperty> {
    let attr = prop_oneof![
        any::<i32>().prop_map(|attribute| TileAttr::Single { attribute }),
        (any::<i32>(), any::<i32>(), rect()).prop_map(|(outside, inside, rect)| {
            TileAttr::Double {
                outside,
                inside,
                rect,
            }
        }),
    ];
    prop_oneof![
        4 => (any::<u32>(), any::<u32>(), any::<u32>(), attr).prop_map(|(unknown, width, height, attr)| {
            TileProperty { unknown, width, height, attr }
        }),
        1 => (any::<u32>(), 0u32..6, 0u32..6).prop_flat_map(|(unknown, w, h)| {
            vec(any::<u8>(), (w * h) as usize).prop_map(move |mask| TileProperty {
                unknown,
                width: w,
                height: h,
                attr: TileAttr::Mask { mask },
            })
        }),
    ]
}

fn header() -> impl Strategy<Value = Header> {
    (
        any::<[u32; 5]>(),
        any::<[i32; 2]>(),
        [slot_string(64), slot_string(64), slot_string(64)],
        [
            slot_string(256),
            slot_string(128),
            slot_string(128),
            slot_string(128),
        ],
        [
            slot_string(128),
            slot_string(128),
            slot_string(128),
            slot_string(128),
        ],
        [
            slot_string(32),
            slot_string(32),
            slot_string(32),
            slot_string(32),
        ],
    )
        .prop_map(|(u, start, names, paths, image_sets, prefixes)| {
            let [name, author, birth] = names;
            let [rez_file, image_dir, pal_rez, launch_app] = paths;
            Header {
                unknown1: u[0],
                // The compress bit is chosen by the test, not here.
                flags: HeaderFlags::from_bits_retain(u[1] & !HeaderFlags::COMPRESS.bits()),
                unknown2: u[2],
                name,
                author,
                birth,
                rez_file,
                image_dir,
                pal_rez,
                start_x: start[0],
                start_y: start[1],
                unknown3: u[3],
                unknown4: u[4],
                launch_app,
                image_sets,
                prefixes,
            }
        })
}

fn level() -> impl Strategy<Value = Wwd> {
    (
        header(),
        vec(plane(), 0..4),
        vec(tile_property(), 0..8),
        any::<[u32; 7]>(),
        any::<bool>(),
    )
        .prop_map(|(mut header, planes, records, u, compress)| {
            header.flags.set(HeaderFlags::COMPRESS, compress);
            Wwd {
                header,
                planes,
                tile_properties: TileProperties {
                    unknown1: u[0],
                    unknown2: u[1],
                    unknown3_7: [u[2], u[3], u[4], u[5], u[6]],
                    records,
                },
                layout: None,
                compression: Default::default(),
                source: None,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn model_bytes_model_is_identity(model in level()) {
        let bytes = write(&model).unwrap();
        let mut back = read(&bytes).unwrap();
        let src = back.source.take().unwrap();
        prop_assert_eq!(src.stored_checksum, src.computed_checksum);
        // A compressed file reads as its stream, equal to the level it was written at.
        prop_assert_eq!(&write(&back).unwrap(), &bytes);
        prop_assert_eq!(&back, &model);
        let json = serde_json::to_vec(&model).unwrap();
        let from_json: Wwd = serde_json::from_slice(&json).unwrap();
        prop_assert_eq!(write(&from_json).unwrap(), bytes);
    }
}
