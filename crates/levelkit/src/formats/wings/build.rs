//! The terms of a new model, as Wings 2.2 writes them (OTP 25 atoms, `NEW_FLOAT_EXT`): atoms,
//! property pairs, colours, a material, an object, the global properties. Used by the scene
//! conversion (`scene.rs`) and the sample builders (`samples.rs`).

use super::model::*;
use crate::etf::Term;

pub(super) fn atom(name: &str) -> Term {
    Term::Atom(otp25_atom(name))
}

pub(super) fn pair(key: &str, value: Term) -> Term {
    Term::Tuple(vec![atom(key), value])
}

pub(super) fn rgba(c: [f64; 4]) -> Term {
    Term::Tuple(c.iter().map(|&v| Term::float(v)).collect())
}

/// A material as Wings 2.2 saves one: the `opengl` list (old and new keys, in Wings's order),
/// then `maps`. `vertex_colors` is `ignore` or `set`.
pub fn material(
    name: &str,
    diffuse: [f64; 4],
    maps: Vec<(&str, i64)>,
    vertex_colors: &str,
) -> Material {
    let opengl = Term::list(vec![
        pair("ambient", rgba([0.0, 0.0, 0.0, 0.0])),
        pair("specular", rgba([0.19, 0.19, 0.19, 1.0])),
        pair("shininess", Term::float(0.19999999999999996)),
        pair("diffuse", rgba(diffuse)),
        pair("emission", rgba([0.0, 0.0, 0.0, 1.0])),
        pair("metallic", Term::float(0.1)),
        pair("roughness", Term::float(0.8)),
        pair("vertex_colors", atom(vertex_colors)),
    ]);
    let maps = Term::list(
        maps.into_iter()
            .map(|(kind, id)| pair(kind, Term::Int(id)))
            .collect(),
    );
    Material {
        name: otp25_atom(name),
        props: Term::list(vec![pair("opengl", opengl), pair("maps", maps)]),
    }
}

/// An object with Wings's default object properties (`plugin_states` with no folder).
pub fn shape(name: &str, mesh: Winged) -> Shape {
    Shape {
        name: Term::charlist(name),
        mesh,
        props: Term::list(vec![pair(
            "plugin_states",
            Term::list(vec![pair("wings_shape", atom("no_folder"))]),
        )]),
    }
}

/// Global properties as Wings 2.2 writes them for a scene without views or lights, plus an
/// embedded image when `image` is given (`(name, width, height, RGB pixels)`).
pub fn global_props(image: Option<(&str, i64, i64, Vec<u8>)>) -> Term {
    let folders = Term::Tuple(vec![
        atom("no_folder"),
        Term::list(vec![Term::Tuple(vec![
            atom("no_folder"),
            Term::Tuple(vec![
                atom("open"),
                Term::Tuple(vec![Term::Int(0), atom("nil")]),
            ]),
        ])]),
    ]);
    let mut props = vec![
        pair("scene_prefs", Term::Nil),
        pair(
            "plugin_states",
            Term::list(vec![pair("wings_shape", folders)]),
        ),
    ];
    if let Some((name, w, h, pixels)) = image {
        let im = Term::list(vec![
            pair("name", Term::charlist(name)),
            pair("width", Term::Int(w)),
            pair("height", Term::Int(h)),
            pair("samples_per_pixel", Term::Int(3)),
            pair("mask_size", Term::Int(0)),
            pair("pixels", Term::Binary(pixels)),
        ]);
        props.push(pair(
            "images",
            Term::list(vec![Term::Tuple(vec![Term::Int(0), im])]),
        ));
    }
    Term::list(props)
}
