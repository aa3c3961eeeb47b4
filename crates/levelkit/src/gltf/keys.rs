//! The `extras` keys this writer adds and the reader reads back (and removes).

/// Primitive: corner count of each face, in triangle order.
pub const POLYGONS: &str = "levelkit_polygons";
/// Primitive: faces (indices into the primitive's faces) that had no UVs.
pub const FACES_WITHOUT_UV: &str = "levelkit_faces_without_uv";
/// Primitive: vertices that had no colour.
pub const UNCOLORED_VERTICES: &str = "levelkit_uncolored_vertices";
/// Primitive: for each vertex, the scene position it was made from. The importer shares
/// positions again by it, so vertices split at UV seams and normal creases, and across
/// primitives, come back as one position, while distinct positions that happen to coincide
/// stay distinct (which welding by coordinates could not tell apart).
pub const POSITIONS: &str = "levelkit_positions";
/// Mesh (in the scene only, never written): every primitive carried [`POSITIONS`], so the
/// mesh's positions are the source's own vertices, shared again, not glTF's split copies.
pub const SOURCE_VERTICES: &str = "levelkit_source_vertices";
/// Material: the Phong values.
pub const PHONG: &str = "phong";
/// Material: `Material::vertex_colors`.
pub const VERTEX_COLORS: &str = "levelkit_vertex_colors";
/// Material: its occlusion texture is a lightmap, sampled with `TEXCOORD_1`.
pub const LIGHTMAP: &str = "levelkit_lightmap";
/// Scene: the ambient lights.
pub const AMBIENT_LIGHTS: &str = "ambient_lights";
/// Node: index into the scene's ambient lights.
pub const AMBIENT_LIGHT: &str = "ambient_light";
/// Light: the spot light stands for an area light.
pub const AREA_LIGHT: &str = "area_light";
/// Node: the original matrix, where the node was written as TRS.
pub const MATRIX: &str = "levelkit_matrix";
/// Node: inserted child carrying the rotation `V^T` of a matrix that is not TRS.
pub const SPLIT: &str = "levelkit_split";
/// Animation: `{ "axis": [x, y, z], "degrees_per_second": s }` of a spin.
pub const SPIN: &str = "levelkit_spin";
