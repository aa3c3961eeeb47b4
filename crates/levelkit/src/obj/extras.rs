//! The material extras that keep MTL values the scene model has no field for, written by the
//! writer and set by the reader.

/// Material extra holding the MTL `illum` value, so that a material read from an MTL file is
/// written with the same one.
pub const ILLUM_EXTRA: &str = "obj_illum";
/// Material extra holding the MTL `Ni` (optical density) value.
pub const NI_EXTRA: &str = "obj_ni";
