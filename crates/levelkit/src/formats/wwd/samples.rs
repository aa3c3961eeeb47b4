//! Levels built from scratch by our own code, for the bundled `samples/`, tests, benchmarks and
//! fuzzing seeds. No game data is copied: names follow the games' conventions, the content is
//! generated from a fixed seed so every run gives the same bytes.

use super::model::*;
use crate::strings::RawString;

/// A tiny deterministic generator (xorshift), so samples do not depend on a crate's algorithm;
/// the sample builders of other formats use it too.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 32) as u32
    }

    pub(crate) fn below(&mut self, n: u32) -> u32 {
        if n == 0 { 0 } else { self.next() % n }
    }
}

fn plane(name: &str, flags: PlaneFlags, tile: i32, wide: i32, high: i32, set: &str) -> Plane {
    Plane {
        flags,
        name: SlotString::new(name),
        width_px: wide * tile,
        height_px: high * tile,
        tile_width: tile,
        tile_height: tile,
        tiles_wide: wide,
        tiles_high: high,
        movement_x_percent: 100,
        movement_y_percent: 100,
        image_sets: vec![RawString::from(set)],
        tiles: vec![TILE_EMPTY; (wide.max(0) * high.max(0)) as usize],
        ..Plane::default()
    }
}

fn object(id: i32, logic: &str, image: &str, anim: &str, x: i32, y: i32) -> Object {
    Object {
        id,
        x,
        y,
        z: 1000,
        logic: RawString::from(logic),
        image_set: RawString::from(image),
        animation: RawString::from(anim),
        ..Object::default()
    }
}

/// A Claw-like level: compressed, three planes (a wrapping background with fill cells, the main
/// action plane with objects, a front plane), and all three tile-property types.
pub fn claw_like() -> Wwd {
    claw_like_sized(96, 32, 120)
}

/// [`claw_like`] with a chosen action-plane size and object count (for benchmarks).
pub fn claw_like_sized(wide: i32, high: i32, objects: usize) -> Wwd {
    let mut rng = Rng(0x5EED_C1A3);
    let mut back = plane(
        "Background",
        PlaneFlags::X_WRAPPING | PlaneFlags::Y_WRAPPING,
        64,
        8,
        8,
        "BACK",
    );
    back.movement_x_percent = 50;
    back.movement_y_percent = 50;
    back.z_coord = -1000;
    back.fill_color = 74;
    for (i, cell) in back.tiles.iter_mut().enumerate() {
        *cell = if i % 5 == 0 {
            TILE_FILL
        } else {
            1 + rng.below(12)
        };
    }

    let mut action = plane("Action", PlaneFlags::MAIN_PLANE, 64, wide, high, "ACTION");
    let w = wide.max(1) as usize;
    for (i, cell) in action.tiles.iter_mut().enumerate() {
        let (x, y) = (i % w, i / w);
        let ground = high.max(1) as usize - 3;
        *cell = if y == ground {
            12 + rng.below(4) // ground row: double tiles
        } else if y > ground {
            1 + rng.below(8)
        } else if x % 17 == 3 && y + 6 > ground {
            16 + rng.below(2) // ladders: climb
        } else if x % 23 == 7 && y == 4 {
            18 // a mask tile
        } else {
            TILE_EMPTY
        };
    }
    let logics = [
        ("TreasurePowerup", "GAME_TREASURE_COINS", ""),
        ("Officer", "LEVEL_OFFICER", "LEVEL_OFFICER_WALK"),
        ("Soldier", "LEVEL_SOLDIER", "LEVEL_SOLDIER_WALK"),
        ("GlitterlessPowerup", "GAME_TREASURE_NECKLACE", ""),
        ("BehindAniCandy", "LEVEL_TORCH", "LEVEL_TORCH"),
        ("AniCycle", "LEVEL_WATERFALL", ""),
        ("Checkpoint", "GAME_CHECKPOINTFLAG", ""),
    ];
    for n in 0..objects {
        let (logic, image, anim) = logics.get(n % logics.len()).copied().unwrap_or(logics[0]);
        let x = 32 + rng.below((wide.max(1) * 64 - 64) as u32) as i32;
        let y = 32 + rng.below((high.max(1) * 64 - 64) as u32) as i32;
        let mut o = object(n as i32 + 1, logic, image, anim, x, y);
        match logic {
            "Officer" | "Soldier" => {
                o.min_x = x - 200;
                o.max_x = x + 200;
                o.damage = 10;
                o.health = 30;
                o.move_rect = Rect::new(x - 200, y - 64, x + 200, y + 64);
                o.hit_type_flags = 0x002;
                o.object_type = 0x004;
                o.dynamic_flags = DynamicFlags::AUTO_HIT_DAMAGE;
            }
            "TreasurePowerup" | "GlitterlessPowerup" => {
                o.score = 100 * (1 + rng.below(5) as i32);
                o.powerup = 33;
                o.object_type = 0x008;
                o.user_values[0] = rng.below(10) as i32;
            }
            "AniCycle" => {
                o.speed = 100;
                o.draw_flags = DrawFlags::MIRROR;
                o.add_flags = AddFlags::EYE_CANDY;
            }
            _ => {}
        }
        if n == 0 {
            o.name = RawString::from("Start treasure");
            o.user_flags = UserFlags::FLAG_1 | UserFlags::FLAG_12;
        }
        action.objects.push(o);
    }

    let mut front = plane(
        "Front",
        PlaneFlags::X_WRAPPING,
        64,
        wide / 2,
        high / 2,
        "FRONT",
    );
    front.movement_x_percent = 150;
    front.movement_y_percent = 150;
    front.z_coord = 9000;
    for (i, cell) in front.tiles.iter_mut().enumerate() {
        if i % 7 == 0 {
            *cell = 1 + rng.below(6);
        }
    }

    let mut records = vec![TileProperty::single(64, attribute::CLEAR)];
    for _ in 1..12 {
        records.push(TileProperty::single(64, attribute::SOLID));
    }
    for (outside, inside, rect) in [
        (0, 1, Rect::new(0, 12, 63, 63)),
        (0, 2, Rect::new(0, 0, 63, 15)),
        (0, 1, Rect::new(40, 0, 63, 63)),
        (1, 0, Rect::new(0, 0, 40, 63)),
    ] {
        records.push(TileProperty {
            unknown: 0,
            width: 64,
            height: 64,
            attr: TileAttr::Double {
                outside,
                inside,
                rect,
            },
        });
    }
    records.push(TileProperty::single(64, attribute::CLIMB));
    records.push(TileProperty::single(64, attribute::CLIMB));
    let mask = (0..64 * 64)
        .map(|i| if (i / 64) >= 32 { 1 } else { 0 })
        .collect();
    records.push(TileProperty {
        unknown: 0,
        width: 64,
        height: 64,
        attr: TileAttr::Mask { mask },
    });

    Wwd {
        header: Header {
            flags: HeaderFlags::USE_Z_COORDS | HeaderFlags::COMPRESS,
            name: "Sample - Harbour".into(),
            author: "levelkit".into(),
            birth: "21.11.2026".into(),
            rez_file: "CLAW.REZ".into(),
            image_dir: "\\LEVEL1\\TILES".into(),
            pal_rez: "LEVEL1\\PALETTES\\MAIN.PAL".into(),
            start_x: 400,
            start_y: 1700,
            launch_app: "..\\CLAW.EXE".into(),
            image_sets: [
                "LEVEL1\\IMAGES".into(),
                "GAME\\IMAGES".into(),
                SlotString::default(),
                SlotString::default(),
            ],
            prefixes: [
                "LEVEL".into(),
                "GAME".into(),
                SlotString::default(),
                SlotString::default(),
            ],
            ..Header::default()
        },
        planes: vec![back, action, front],
        tile_properties: TileProperties {
            records,
            ..TileProperties::default()
        },
        layout: None,
        compression: Deflate::default(),
        source: None,
    }
}

/// A Gruntz-like level: uncompressed, a back plane and the main plane, 32-pixel tiles, single
/// tile properties only, with Gruntz's user attribute values.
pub fn gruntz_like() -> Wwd {
    let mut rng = Rng(0x6A7A_2A00);
    let mut back = plane(
        "Back",
        PlaneFlags::X_WRAPPING | PlaneFlags::Y_WRAPPING,
        32,
        10,
        10,
        "BACK",
    );
    for cell in &mut back.tiles {
        *cell = 1 + rng.below(4);
    }
    let (wide, high) = (40, 30);
    let mut action = plane("Action", PlaneFlags::MAIN_PLANE, 32, wide, high, "ACTION");
    for (i, cell) in action.tiles.iter_mut().enumerate() {
        let (x, y) = (i as i32 % wide, i as i32 / wide);
        *cell = if x == 0 || y == 0 || x == wide - 1 || y == high - 1 {
            1
        } else if (x + y) % 11 == 0 {
            10 + rng.below(4)
        } else {
            5 + rng.below(5)
        };
    }
    for n in 0..24 {
        let x = 48 + rng.below((wide * 32 - 96) as u32) as i32;
        let y = 48 + rng.below((high * 32 - 96) as u32) as i32;
        let (logic, image, anim) = match n % 4 {
            0 => ("Grunt", "GAME_GRUNTZ", "GAME_GRUNTZ_IDLE"),
            1 => ("PickUp", "GAME_TOOLZ_SHOVEL", ""),
            2 => ("GiantRock", "AREA1_GIANTROCK", ""),
            _ => ("AmbientSound", "", "AREA1_SOUNDZ_BIRDS"),
        };
        let mut o = object(n + 1, logic, image, anim, x, y);
        o.i = -1;
        action.objects.push(o);
    }
    let mut records = vec![TileProperty::single(32, attribute::CLEAR)];
    for id in 1..14 {
        let value = match id {
            1 => attribute::SOLID,
            10..=13 => 0x0A + id - 10,
            _ => attribute::CLEAR,
        };
        records.push(TileProperty::single(32, value));
    }
    Wwd {
        header: Header {
            flags: HeaderFlags::USE_Z_COORDS,
            name: "Sample - Rocky".into(),
            author: "levelkit".into(),
            birth: "21.11.2026".into(),
            rez_file: "C:\\GAMES\\GRUNTZ\\GRUNTZ.REZ".into(),
            image_dir: "\\AREA1\\TILEZ".into(),
            start_x: 460,
            start_y: 460,
            launch_app: "C:\\GAMES\\GRUNTZ\\GRUNTZ.EXE".into(),
            ..Header::default()
        },
        planes: vec![back, action],
        tile_properties: TileProperties {
            records,
            ..TileProperties::default()
        },
        layout: None,
        compression: Deflate::default(),
        source: None,
    }
}
