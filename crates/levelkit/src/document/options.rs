//! The options and results of a conversion ([`super::convert()`]): what every route shares.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::tiles::Tiles;
use super::tilesets::Shared;
use crate::assets::Assets;
use crate::error::Error;
pub use crate::formats::graal::binary::Version as GraalVersion;
pub use crate::formats::mdl::TargetVersion as MdlVersion;
pub use crate::formats::pid::Palette;

/// What a conversion produces.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Converted {
    /// The output file's bytes; `None` when every output is a side file (a gani's four
    /// directions are `<stem>.up.gif` … beside the name asked for).
    pub main: Option<Vec<u8>>,
    /// Files that go beside the output, by path relative to the output's folder: a Tiled map's
    /// tileset images, a `.gltf`'s buffer and textures, an OBJ's MTL, a sprite sheet's table,
    /// an overworld's maps.
    pub side: Vec<(String, Vec<u8>)>,
    /// What the conversion noticed, one line each (warnings of the reader, the converter and
    /// the writer; assets not found).
    pub notes: Vec<String>,
    /// Facts for a machine-readable report (`levelkit convert --json`): an animation's frames
    /// and size, the outputs of a gani.
    pub report: Map<String, Value>,
    /// Some parts failed (each one noted) and the rest was made: an overworld with a level
    /// that does not convert.
    pub partial: bool,
}

impl Converted {
    /// One output file, nothing beside it.
    pub fn of(main: Vec<u8>) -> Converted {
        Converted {
            main: Some(main),
            ..Converted::default()
        }
    }

    /// The main output's bytes (empty when there is none).
    pub fn main_bytes(&self) -> &[u8] {
        self.main.as_deref().unwrap_or_default()
    }
}

/// Why a conversion failed, with what it noticed before.
#[derive(Debug)]
pub struct Failure {
    /// The error.
    pub error: Error,
    /// The document does not convert to the target at all (a usage error on the command line),
    /// rather than the input failing to become it.
    pub not_convertible: bool,
    /// What the conversion noticed before it failed.
    pub notes: Vec<String>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure {
            not_convertible: false,
            error,
            notes: Vec::new(),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for Failure {}

/// A gani's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Up (the gani's first direction line).
    Up,
    /// Left.
    Left,
    /// Down.
    Down,
    /// Right.
    Right,
}

impl Direction {
    /// The direction a name means (`up`, `left`, `down`, `right`, any case).
    pub fn from_name(name: &str) -> Option<Direction> {
        [
            Direction::Up,
            Direction::Left,
            Direction::Down,
            Direction::Right,
        ]
        .into_iter()
        .find(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// The direction's name.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Left => "left",
            Direction::Down => "down",
            Direction::Right => "right",
        }
    }

    /// Its index among a gani's direction lines.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Tiled maps of a batch or an overworld sharing their tilesets ([`Shared`]).
pub struct SharedTilesets<'a> {
    /// The tilesets made so far.
    pub tilesets: &'a Shared,
    /// The path from the output's folder up to the folder that holds [`super::tilesets::FOLDER`]
    /// (`""`, `"../"`, …).
    pub up: String,
}

/// How to convert: every option of every target (each applies where its doc says, and is
/// ignored elsewhere). The files options name are [`Assets`]; the document's own surroundings
/// are the `assets` argument of [`super::convert()`].
#[derive(Default)]
pub struct Options<'a> {
    /// The output's file name (`walk.gif`): its stem names the side files (`walk.tileset0.png`,
    /// `walk.bin`, `walk.up.gif`). `None`: one self-contained output without side files
    /// (standard output, one download), where a format allows it.
    pub output_name: Option<String>,
    /// WWD output: compress the main block (`Some(true)`), store it (`Some(false)`), or follow
    /// the level's own flag (`None`).
    pub compress: Option<bool>,
    /// Binary Graal output: the version to write (`None`: the level's own).
    pub graal_version: Option<GraalVersion>,
    /// MDL output: the version to write (`None`: an MDL keeps its own, any other model becomes
    /// an MDL7).
    pub mdl_version: Option<MdlVersion>,
    /// Pictures without a palette of their own (a PID drawn to PNG).
    pub palette: Option<Palette>,
    /// Tiled maps and PNG previews: the user's tile graphics.
    pub tiles: Option<Tiles<'a>>,
    /// WWD levels: the game's files (its REZ archive or a folder extracted from one) the tiles
    /// and object sprites are drawn with.
    pub game: Option<&'a dyn Assets>,
    /// Graal NPC pictures and a gani's sprites: where they are. `None`: the document's folder
    /// (the `assets` argument), then its parent.
    pub images: Option<&'a dyn Assets>,
    /// ANI animations: the image set's frames, PID or PNG files numbered by the digits their
    /// names end with (`FRAME001.PID`, `1.png`). `None`: the image set is looked for by the
    /// ANI's place ([`Options::input_name`]) in [`Options::game`] and beside it; else
    /// placeholders.
    pub frames: Option<&'a dyn Assets>,
    /// The input's path as the user named it (`LEVEL1/ANIS/OFFICER/STAND.ANI`): a document's
    /// side folders found by where it is (an ANI's image set, `LEVEL1/IMAGES/OFFICER/`).
    /// `None`: only the document's own folder is known.
    pub input_name: Option<String>,
    /// Animations to PNG: a sprite sheet and its JSON table instead of an animated PNG.
    pub sheet: bool,
    /// Gani: the one direction to draw (`None`: every direction the gani has).
    pub direction: Option<Direction>,
    /// Gani: draw a sprite whose image is missing as a placeholder (checkerboard) instead of
    /// leaving it out as the game does.
    pub placeholders: bool,
    /// An overworld drawn to PNG: the largest width and height in pixels (0: 4096).
    pub max_size: u32,
    /// Tiled maps: reference the shared tilesets instead of embedding their own.
    pub shared: Option<SharedTilesets<'a>>,
}

impl Options<'_> {
    /// The stem of [`Options::output_name`].
    pub fn stem(&self) -> Option<&str> {
        self.output_name
            .as_deref()
            .map(|n| n.rsplit_once('.').map_or(n, |(s, _)| s))
    }
}

/// The picture `name` among the document's images: the [`Options::tiles`] image when it has
/// that name, else in [`Options::images`] where given, else in `assets` and then its parent
/// folder; a plain file name only (nothing outside the folders is read).
pub fn find_image<'a>(
    options: &Options<'a>,
    assets: &'a dyn Assets,
    name: &str,
) -> Option<Vec<u8>> {
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
        return None;
    }
    // The tile image the user gave is also an NPC image by that name (Graal NPCs often
    // draw a part of `pics1.png`).
    if let Some(super::tiles::Tiles::Image { name: tiles, bytes }) = &options.tiles {
        let base = tiles.rsplit(['/', '\\']).next().unwrap_or(tiles);
        if base.eq_ignore_ascii_case(name) {
            return Some(bytes.to_vec());
        }
    }
    match options.images {
        Some(images) => images.read(name).map(Cow::into_owned),
        None => assets
            .read(name)
            .or_else(|| assets.read(&format!("../{name}")))
            .map(Cow::into_owned),
    }
}
