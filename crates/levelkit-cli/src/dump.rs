//! `levelkit dump`: one file in full, as readable text or as the lossless JSON document. Both
//! forms come from the library ([`Model::dump_text`], [`Model::to_json`]); the JSON form is the
//! way back: `levelkit convert dump.json level.wwd` rebuilds the file.

use levelkit::document::Model;

use crate::EXIT_OK;
use crate::cli::DumpArgs;
use crate::files::{self, display_name};

pub fn run(args: &DumpArgs) -> anyhow::Result<u8> {
    let model = files::load_model(&args.file)?;
    let mut text = if args.json {
        json_document(&model)?
    } else {
        model.dump_text(&display_name(&args.file)).into_bytes()
    };
    if !text.ends_with(b"\n") {
        text.push(b'\n');
    }
    files::write_stdout(&text)?;
    Ok(EXIT_OK)
}

/// The lossless JSON document, ending in a newline (what `dump --json` prints and
/// `convert … OUT.json` writes): [`levelkit::document::convert::json_document`].
pub fn json_document(model: &Model) -> anyhow::Result<Vec<u8>> {
    Ok(levelkit::document::convert::json_document(model)?)
}
