//! Modern formats -> common models: the way back from what [`crate::export`] writes.

pub mod tiled;
