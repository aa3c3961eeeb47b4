//! Tiled TMX/TMJ export. Work in progress.
