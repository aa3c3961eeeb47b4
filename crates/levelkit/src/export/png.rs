//! PNG previews and generated tileset images. Work in progress.
