//! `cargo run -p levelkit --example convert -- IN OUT`: what `levelkit convert IN OUT` does, for
//! every format, with the library alone (a new front end needs no more than this).
use std::path::Path;

use levelkit::Format;
use levelkit::assets::Folder;
use levelkit::document::{Options, convert::convert_file};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        return Err("usage: convert IN OUT".into());
    };
    let (input, output) = (Path::new(input), Path::new(output));
    let target = Format::from_path_name(output.to_str().ok_or("OUT: not UTF-8")?)
        .ok_or("OUT: an extension levelkit writes")?;
    let name = input
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("IN: a file")?;
    // The files the document names (textures, tilesets, levels, images) are beside it.
    let assets = Folder::of_file(input);
    let options = Options {
        output_name: output.file_name().map(|n| n.to_string_lossy().into_owned()),
        ..Options::default()
    };
    let done = convert_file(&std::fs::read(input)?, name, target, &options, &assets)?;
    done.notes.iter().for_each(|note| eprintln!("{note}"));
    let dir = output.parent().unwrap_or(Path::new(""));
    for (name, bytes) in &done.side {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap_or(dir))?;
        std::fs::write(path, bytes)?;
    }
    if let Some(main) = &done.main {
        std::fs::write(output, main)?;
    }
    Ok(())
}
