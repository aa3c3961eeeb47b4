//! The sRGB transfer function both ways: OBJ vertex colours are sRGB (as Blender reads and
//! writes them), the scene's are linear.

/// Linear to sRGB transfer function (IEC 61966-2-1), as OBJ vertex colours are read by Blender.
pub(super) fn linear_to_srgb(c: f32) -> f32 {
    let c = f64::from(c);
    let s = if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    s as f32 + 0.0
}

/// sRGB to linear, the inverse of [`linear_to_srgb`].
pub(super) fn srgb_to_linear(s: f32) -> f32 {
    let s = f64::from(s);
    let c = if s <= 0.040_45 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    };
    c as f32 + 0.0
}
