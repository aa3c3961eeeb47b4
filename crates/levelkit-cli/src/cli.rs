//! The command line, as clap derive structs. Only parsing lives here; each command's module
//! decides what the arguments mean together (single or batch convert, for one).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use levelkit::Format;
use levelkit::document::options::{GraalVersion, MdlVersion};
use levelkit::registry::FORMATS;

const EXIT_STATUS: &str = "\
Exit status:
  0  success (validate: no error findings; warnings alone still pass)
  1  invalid or unreadable input, an error finding, a failed conversion, or an output
     that already exists without --force
  2  usage error: bad arguments, an unknown or unsupported target format";

/// Read, validate and convert legacy game level and model files.
///
/// levelkit reads, checks, prints and writes the level, model, picture and archive formats of
/// WAP32 games (Captain Claw, Gruntz), Graal Online, Wings 3D, 3D GameStudio and V-Chat,
/// losslessly, and levelkit's JSON document of any of them (the list is below). It converts
/// levels to Tiled maps (.tmx, .tmj) and back, draws PNG previews, converts 3D models to glTF
/// 2.0 (.glb, .gltf) and OBJ and back, animations to GIF and PNG, and pictures to PNG and
/// back (`levelkit convert --help` lists what each format becomes). Use `-` for stdin or
/// stdout.
#[derive(Debug, Parser)]
#[command(name = "levelkit", version, after_help = top_after_help())]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Summarise files: format and version, planes, tiles, objects, compression, checksum.
    #[command(after_help = EXIT_STATUS)]
    Info(InfoArgs),
    /// Check files and print every finding with where it is; fail on errors, not on warnings.
    #[command(after_help = EXIT_STATUS)]
    Validate(ValidateArgs),
    /// Print one file in full: readable text, or the lossless JSON document with --json.
    #[command(after_help = EXIT_STATUS)]
    Dump(DumpArgs),
    /// Convert a file (IN OUT), or many files into a directory (--out DIR).
    ///
    /// The target format comes from OUT's extension or --to. Supported today: any readable
    /// file to .json (the lossless document `dump --json` prints) and .json back to its format
    /// (an unedited document gives the original bytes); any file to its own format (a rewrite
    /// through the model, the round-trip check); .graal to .nw and back; levels (.wwd, .graal,
    /// .nw) to Tiled maps, .tmx or .tmj, with tileset images written beside them as
    /// `<name>.tileset<N>.png` (generated, or from --tiles); Tiled maps made that way back to
    /// their level (.tmx/.tmj to .wwd, .graal or .nw: an unedited map gives the original bytes,
    /// an edited one exactly the edits); levels and maps to a .png preview (as `levelkit
    /// render`); 3D models (.wings, .wmp, $$M, .wdb, .mdl, .hmp, .wmb, .glb, .gltf, .obj) to
    /// .glb, .gltf, .obj, .wings, .wdb and .mdl (MDL7; bones not yet): a .gltf gets its buffer
    /// and textures beside it (`<name>.bin`, `<name>_<N>.png`), an .obj its `<name>.mtl` and
    /// textures (`<name>_map<N>.png`); 3D
    /// GameStudio levels (.wmp) to the compiler's $$M; WAP32 animations (.ani) to an animated
    /// .gif or .png, or a sprite sheet (--sheet), with the image set's frames from --frames;
    /// Graal animations (.gani) the same way, drawn with the images in --images (one file per
    /// direction, `<name>.down.gif`, unless --dir picks one); and
    /// WAP32 pictures to .png: a .pid as an indexed PNG that converts back to the same .pid (its
    /// palette, else --palette), a .pcx, a .pal as a swatch; and a .png to a .pid (quantised to
    /// its own or --palette's colours) or to a .pal (an indexed PNG's palette).
    ///
    /// Batch mode starts when there are more than two paths, any path is a directory, or --out
    /// is given. Directories are walked recursively; files levelkit cannot read, and files
    /// already in the target format, are skipped. Each output mirrors its input's path
    /// relative to the directory given (or its file name), with the extension replaced:
    /// `levels/a/b.wwd --to json --out out` writes `out/a/b.json`. Two inputs that would write
    /// the same output (compared ignoring case) are reported as failures, never overwritten.
    /// Tiled maps of a batch share their tilesets: each distinct tileset is written once, as
    /// `tilesets/<name>-<hash>.tsx` (.tsj for .tmj maps) and its .png under --out, and every map
    /// references it (`<tileset source="../tilesets/….tsx"/>`); a single conversion embeds them.
    ///
    /// Outputs are written to a temporary file beside them and renamed into place. An existing
    /// output is refused (exit 1) unless --force. An input is never written to: naming it as
    /// the output is a usage error (exit 2).
    #[command(after_help = EXIT_STATUS, after_long_help = convert_after_help())]
    Convert(ConvertArgs),
    /// Draw a level, an overworld or a Tiled map as a PNG preview (`convert IN OUT.png`).
    ///
    /// Tiles are coloured by their attributes and labelled with their ids (the games' graphics
    /// are not shipped; --tiles and --game use yours, and a map uses the tileset images it
    /// references), objects as magenta markers or their images (--images, --game); large levels
    /// are scaled down to fit 64 megapixels.
    #[command(after_help = EXIT_STATUS, after_long_help = render_after_help())]
    Render(RenderArgs),
    /// List the files of a REZ archive (Captain Claw, Gruntz), or of one directory in it.
    #[command(after_help = EXIT_STATUS)]
    Ls(crate::ls::LsArgs),
    /// Extract the files of a REZ archive (or of one directory or file in it) into a folder.
    #[command(after_help = EXIT_STATUS)]
    Extract(crate::extract::ExtractArgs),
    /// Pack a folder into a new REZ archive.
    #[command(after_help = EXIT_STATUS)]
    Pack(crate::pack::PackArgs),
    /// Serve the browser viewer (built by `web/build.sh`) on localhost and open FILEs in it.
    ///
    /// The page runs levelkit itself, compiled to WebAssembly: nothing is uploaded anywhere.
    /// The server answers only on 127.0.0.1, with the site's files and the FILEs named here.
    View(ViewArgs),
    /// Open and save levels in Tiled: what the Tiled extension runs, and its installer.
    ///
    /// `levelkit tiled install` puts the extension (`levelkit.js`) in Tiled's extensions folder;
    /// Tiled then opens and saves .wwd, .graal, .zelda and .nw files like its own maps, with
    /// levelkit doing the bytes. `levelkit tiled types` writes a Tiled project whose object
    /// types give each Claw and Gruntz logic and each Graal object kind its typed fields.
    #[command(after_help = EXIT_STATUS)]
    Tiled(TiledArgs),
}

/// `levelkit render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The level or Tiled map (`-` reads stdin).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The PNG to write (`-` writes stdout).
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// Tile graphics to use instead of generated ones: an image (Graal's pics1.png), or a
    /// folder with one image per tileset (`<set>.png`) or per tile named by id
    /// (`ACTION/012.png`); PNG, BMP, GIF, JPEG or TGA.
    #[arg(long, value_name = "PATH")]
    pub tiles: Option<PathBuf>,
    /// WWD levels: draw tiles and object sprites with the game's own graphics, from its REZ
    /// archive (CLAW.REZ, GRUNTZ.REZ) or a folder extracted from one; what is not found keeps
    /// its generated look, with a warning naming the path looked for. Animations (.ani): where
    /// their image set is looked for (LEVEL1/ANIS/X.ANI plays LEVEL1/IMAGES/).
    #[arg(long, value_name = "REZ|DIR")]
    pub game: Option<PathBuf>,
    /// Graal levels: the folder of the images NPCs name (`door.png`, `block.gif`), drawn at
    /// each NPC's place in renders and as image objects in Tiled maps; default: the level's own
    /// folder, then its parent. An image not found keeps the NPC's marker, with a warning.
    #[arg(long, value_name = "DIR")]
    pub images: Option<PathBuf>,
    /// Overworlds (.gmap): the longest side of the image in pixels; every level is drawn at
    /// its place, scaled down alike to fit.
    #[arg(long, value_name = "PIXELS", default_value_t = 4096,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_size: u32,
    /// Overwrite an existing output.
    #[arg(long, short = 'f')]
    pub force: bool,
}

/// `levelkit info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Files to summarise (`-` reads stdin).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// One JSON object per file, one per line (JSON Lines), with "file", "format" and the
    /// format's summary fields.
    #[arg(long)]
    pub json: bool,
}

/// `levelkit validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files to check (`-` reads stdin).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// One JSON report per file, one per line: "file", "format", "ok", "findings", "error".
    #[arg(long)]
    pub json: bool,
}

/// `levelkit dump`.
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// The file to print (`-` reads stdin).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the whole lossless model as JSON (what `convert FILE OUT.json` writes).
    #[arg(long)]
    pub json: bool,
}

/// `levelkit convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// IN OUT for one file (`-` is stdin or stdout); or, in batch mode, input files and
    /// directories.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Target format; needed for `-` as OUT and in batch mode, where it may list several
    /// (`--to json,tmx,png,glb`: each input becomes each of them; a file found in a folder that
    /// does not convert to a target is skipped for it, with the reason under --verbose).
    #[arg(long, value_name = "FORMAT", value_delimiter = ',', value_parser = writable_target,
          long_help = to_help())]
    pub to: Vec<Format>,
    /// Batch mode: write outputs under this directory (created if missing).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Overwrite existing outputs.
    #[arg(long, short = 'f')]
    pub force: bool,
    /// Write WWD output with a zlib-compressed main block, whatever the input had.
    #[arg(long, conflicts_with = "no_compress")]
    pub compress: bool,
    /// Write WWD output with a plain main block, whatever the input had.
    #[arg(long)]
    pub no_compress: bool,
    /// Tile graphics to use instead of generated ones: an image (Graal's pics1.png), or a
    /// folder with one image per tileset (`<set>.png`) or per tile named by id
    /// (`ACTION/012.png`); PNG, BMP, GIF, JPEG or TGA.
    #[arg(long, value_name = "PATH")]
    pub tiles: Option<PathBuf>,
    /// WWD levels: draw tiles and object sprites with the game's own graphics, from its REZ
    /// archive (CLAW.REZ, GRUNTZ.REZ) or a folder extracted from one; what is not found keeps
    /// its generated look, with a warning naming the path looked for. Animations (.ani): the
    /// image set their frames come from (see --frames).
    #[arg(long, value_name = "REZ|DIR")]
    pub game: Option<PathBuf>,
    /// Animations (.ani) to .gif or .png: the image set's frames, a folder of the game's PID
    /// files or of PNG files named by number (`FRAME001.PID`, `001.png`: the digits the name
    /// ends with), or with --game a folder inside the game (`LEVEL1/IMAGES/OFFICER`). Without
    /// it the image set beside the ANI's ANIS folder is used (`LEVEL1/ANIS/OFFICER/X.ANI` plays
    /// `LEVEL1/IMAGES/OFFICER/`), in --game and on disk. PIDs use their own palette, else
    /// --palette, else the game's PALETTES/MAIN.PAL beside them; each frame is placed by its
    /// offset as the game places it; missing images are drawn as placeholders, with a warning.
    #[arg(long, value_name = "DIR")]
    pub frames: Option<PathBuf>,
    /// Animations to .png: a sprite sheet, with its JSON frame table beside it (`<name>.json`),
    /// instead of an animated PNG.
    #[arg(long)]
    pub sheet: bool,
    /// Graal levels: the folder of the images NPCs name (`door.png`, `block.gif`), drawn at
    /// each NPC's place in renders and as image objects in Tiled maps; an image not found keeps
    /// the NPC's marker, with a warning.
    /// Graal animations (.gani) to .gif or .png: the folder of the images their sprites use
    /// (body.png, head0.png, sprites.png, the DEFAULT* lines' files; any case, and another image
    /// extension for a missing one); by default the gani's folder, then its parent. Missing
    /// images are drawn as placeholders, with a warning (levels: the level's folder, then its
    /// parent, likewise). A gani with four directions writes
    /// four files, `<name>.up.gif`, `<name>.left.gif`, `<name>.down.gif` and
    /// `<name>.right.gif`, unless --dir picks one (then OUT is written); a single-direction
    /// gani writes OUT. With --sheet each JSON table lists the frames' sounds and `setbackto`.
    #[arg(long, value_name = "DIR")]
    pub images: Option<PathBuf>,
    /// Graal animations (.gani): draw only this direction (up, left, down or right) into OUT.
    #[arg(long, value_name = "DIRECTION")]
    pub dir: Option<String>,
    /// Graal animations (.gani): draw a sprite whose image is not found as a checkerboard
    /// placeholder (by default it is left out, as the game leaves it out, with a warning).
    #[arg(long)]
    pub placeholders: bool,
    /// The palette for images without one of their own (a PID drawn with its level's palette)
    /// and for a PNG made into a PID: a .PAL, a PID or PCX that has a palette, or an indexed
    /// PNG.
    #[arg(long, value_name = "PATH")]
    pub palette: Option<PathBuf>,
    /// 3D models to .glb, .gltf or .obj: a second folder to look in, after the input's own, for
    /// the files a level or model names: a 3D GameStudio level's WADs, its texture images
    /// (`<texture>.pcx`, `.bmp`, `.tga`, `.png`, `.jpg`) and the models (.mdl, .hmp, .wmb) its
    /// entities name; a model's texture files.
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
    /// The version of the binary Graal levels written (.graal output): Z3-V1.03, Z3-V1.04,
    /// GR-V1.00 to GR-V1.03 or GR-V1.05. By default a level keeps its own version, and a level
    /// from a .nw (which has no version) or from a Tiled map without the `graal_version`
    /// property becomes GR-V1.03 (GR-V1.05 when it has several layers). A version without a
    /// section the level uses (NPCs, chests, verses, layers) leaves it out with a warning
    /// (layers: GR-V1.05 is written instead).
    #[arg(long, value_name = "VERSION", value_parser = graal_version)]
    pub graal_version: Option<GraalVersion>,
    /// The version of the 3D GameStudio models written (.mdl output): 7 (MDL7: groups, bones,
    /// float vertices) or 5 (MDL5: one mesh and one skin, 16-bit vertex frames, bone animations
    /// baked into them). By default an MDL keeps its own version and any other model becomes
    /// an MDL7.
    #[arg(long, value_name = "VERSION", value_parser = mdl_version)]
    pub mdl_version: Option<MdlVersion>,
    /// Batch mode: print every warning with its file (by default they are counted by kind in
    /// the summary, with the first file of each kind).
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Print a JSON report on stdout instead of text on stderr: for one file, its output,
    /// format and warnings; in batch mode, the counts, every file with its outcome and
    /// warnings, and the warnings by kind.
    #[arg(long)]
    pub json: bool,
    /// Batch mode: keep the input's extension in the output's name (`test.graal` ->
    /// `test.graal.tmx`), so that `test.graal` and `test.nw` in one folder do not both become
    /// `test.tmx`.
    #[arg(long)]
    pub keep_extension: bool,
    /// Batch mode: convert this many files at once (default: one per CPU).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

impl ConvertArgs {
    /// The WWD compression override: `Some(true)` for --compress, `Some(false)` for
    /// --no-compress.
    pub fn compression(&self) -> Option<bool> {
        match (self.compress, self.no_compress) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    }
}

/// A binary Graal level version from its header text (`GR-V1.03`).
pub fn graal_version(name: &str) -> Result<GraalVersion, String> {
    GraalVersion::from_header(name.as_bytes()).ok_or_else(|| {
        format!(
            "{name:?} is not a binary Graal level version (Z3-V1.03, Z3-V1.04, GR-V1.00, GR-V1.01, \
             GR-V1.02, GR-V1.03 or GR-V1.05)"
        )
    })
}

/// An MDL version to write from its number (`5`, `7`, or `mdl5`, `MDL7`).
pub fn mdl_version(name: &str) -> Result<MdlVersion, String> {
    MdlVersion::from_name(name)
        .ok_or_else(|| format!("{name:?} is not an MDL version levelkit writes (5 or 7)"))
}

/// The names of the formats levelkit can write today, for messages.
pub fn writable_names() -> String {
    FORMATS
        .iter()
        .filter(|info| info.writable)
        .map(|info| info.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `--to`'s long help: the formats levelkit writes, from the library's table.
fn to_help() -> String {
    format!(
        "Target format: {}. Needed for `-` as OUT and in batch mode, where it may list several \
         (`--to json,tmx,png,glb`: each input becomes each of them; a file found in a folder \
         that does not convert to a target is skipped for it, with the reason under --verbose).",
        writable_names()
    )
}

/// The formats levelkit knows, one line each (name, extensions, what it is, read/write), from
/// the library's table: the one list every help text shows.
pub fn formats_list() -> String {
    let mut out = String::from("Formats:\n");
    for info in FORMATS.iter().filter(|i| i.readable || i.writable) {
        let extensions: Vec<String> = info.extensions.iter().map(|e| format!(".{e}")).collect();
        let can = match (info.readable, info.writable) {
            (true, true) => "read, write",
            (true, false) => "read",
            _ => "write",
        };
        out.push_str(&format!(
            "  {:<6} {:<18} {} ({can})\n",
            info.name,
            extensions.join(" "),
            info.description
        ));
    }
    out
}

/// What follows the top-level help: the formats, then the exit status.
fn top_after_help() -> String {
    format!("{}\n{EXIT_STATUS}", formats_list())
}

/// What each readable format converts to (`document::targets`), one line each.
fn conversions_list() -> String {
    let mut out = String::from("What each format converts to:\n");
    for info in FORMATS.iter().filter(|i| i.readable) {
        let targets = levelkit::document::targets(info.format);
        if targets.is_empty() {
            continue;
        }
        let names: Vec<&str> = targets.iter().map(|f| f.name()).collect();
        out.push_str(&format!("  {:<6} -> {}\n", info.name, names.join(", ")));
    }
    out
}

/// What follows `convert --help`: the conversions, then the exit status.
fn convert_after_help() -> String {
    format!("{}\n{EXIT_STATUS}", conversions_list())
}

/// What follows `render --help`: the formats it draws, then the exit status.
fn render_after_help() -> String {
    let drawn: Vec<String> = FORMATS
        .iter()
        .filter(|i| i.readable && levelkit::document::targets(i.format).contains(&Format::Png))
        .map(|i| i.name.to_owned())
        .collect();
    format!("Formats drawn: {}.\n\n{EXIT_STATUS}", drawn.join(", "))
}

/// A target format that levelkit can write, or why not.
pub fn writable_target(name: &str) -> Result<Format, String> {
    match Format::from_name(name) {
        Some(format) if format.info().writable => Ok(format),
        Some(format) => Err(format!(
            "levelkit cannot write {} files yet (it writes: {})",
            format.name(),
            writable_names()
        )),
        None => Err(format!(
            "unknown format `{name}` (levelkit writes: {})",
            writable_names()
        )),
    }
}

/// `levelkit view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Files to open in the page (a level and its assets: a REZ, images, WADs).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The built site (default: `$LEVELKIT_SITE`, else `site/` beside the binary's folder,
    /// i.e. `target/site` for `target/release/levelkit`).
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// The port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Print the URL without opening a browser.
    #[arg(long)]
    pub no_open: bool,
}

/// `levelkit tiled`.
#[derive(Debug, Args)]
pub struct TiledArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TiledCommand,
}

/// The `levelkit tiled` subcommands.
#[derive(Debug, Subcommand)]
pub enum TiledCommand {
    /// Put the Tiled extension in Tiled's extensions folder.
    ///
    /// The folder is Tiled's own: `$XDG_CONFIG_HOME/tiled/extensions` (`~/.config/tiled/extensions`)
    /// on Linux, `~/Library/Preferences/Tiled/extensions` on macOS,
    /// `%LOCALAPPDATA%\Tiled\extensions` on Windows. Restart Tiled (or use Tiled's "Reload
    /// extensions") after installing.
    #[command(after_help = EXIT_STATUS)]
    Install(TiledInstallArgs),
    /// Convert a level into a Tiled map in levelkit's cache, for the extension to load.
    ///
    /// The map goes to `<cache>/maps/<key>/<name>.tmx` (the key is made from the level's path),
    /// its tilesets to `<cache>/tilesets/`, each written once and shared by every map that uses
    /// it, as a batch conversion shares them. The cache is `$LEVELKIT_TILED_CACHE`, else the
    /// user's cache folder (`$XDG_CACHE_HOME/levelkit/tiled`, `~/.cache/levelkit/tiled`).
    #[command(after_help = EXIT_STATUS)]
    Open(TiledOpenArgs),
    /// Print the cache folder `open` writes to (the extension saves its temporary maps there).
    Cache,
    /// Write a Tiled project whose object types give every Claw and Gruntz logic and every
    /// Graal object kind (link, sign, chest, baddy, npc) its typed fields with their defaults.
    ///
    /// Writes PROJECT (a `.tiled-project`; one already there keeps everything but the types
    /// levelkit writes) and the object types file beside it (`levelkit-objecttypes.xml`),
    /// which the project names. Tiled 1.8 reads the object types file; Tiled 1.9 and later read
    /// the project's classes.
    #[command(after_help = EXIT_STATUS)]
    Types(TiledTypesArgs),
}

/// `levelkit tiled install`.
#[derive(Debug, Args)]
pub struct TiledInstallArgs {
    /// Install into this folder instead of Tiled's extensions folder.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Replace an extension file that differs from this levelkit's.
    #[arg(long, short = 'f')]
    pub force: bool,
    /// Print the path written as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `levelkit tiled open`.
#[derive(Debug, Args)]
pub struct TiledOpenArgs {
    /// The level: .wwd, .graal, .zelda or .nw.
    #[arg(value_name = "LEVEL")]
    pub level: PathBuf,
    /// WWD levels: the game's REZ archive or a folder extracted from it, for its tiles and
    /// object sprites (as `convert --game`).
    #[arg(long, value_name = "REZ|DIR")]
    pub game: Option<PathBuf>,
    /// Tile graphics (as `convert --tiles`): Graal's pics1.png, or a folder of tile images.
    #[arg(long, value_name = "PATH")]
    pub tiles: Option<PathBuf>,
    /// Graal levels: the folder of the images NPCs name (as `convert --images`).
    #[arg(long, value_name = "DIR")]
    pub images: Option<PathBuf>,
    /// The cache folder (default: see above).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Write a JSON map (.tmj) instead of a .tmx.
    #[arg(long)]
    pub tmj: bool,
    /// Print a JSON report on stdout: `map`, `cache`, `warnings`.
    #[arg(long)]
    pub json: bool,
}

/// `levelkit tiled types`.
#[derive(Debug, Args)]
pub struct TiledTypesArgs {
    /// The project file to write or update.
    #[arg(value_name = "PROJECT", default_value = "levelkit.tiled-project")]
    pub project: PathBuf,
    /// WWD levels, or folders of them, whose logics get object types too (beside the logics
    /// of the real Claw and Gruntz levels levelkit knows).
    #[arg(long = "levels", value_name = "PATH")]
    pub levels: Vec<PathBuf>,
}
