//! levelkit for Python: the extension module `levelkit._levelkit` behind the `levelkit` package
//! (`python/levelkit`).
//!
//! It is a thin front end over the library's document layer, like the CLI and the browser
//! viewer: a file is read with [`Model::read_with`], converted with
//! [`levelkit::document::convert()`] (the one conversion pipeline, with the document's folder or
//! REZ archive as its assets), validated, summarised and written by the library. What is
//! Pythonic (dicts, dataclasses, a mapping for archives, writing files) is done in
//! `python/levelkit/__init__.py`; this module hands over bytes, strings, JSON text and numpy
//! arrays.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use levelkit::assets::{Assets, Folder, NoAssets};
use levelkit::document::Model;
use levelkit::document::convert::{self, Direction, Options};
use levelkit::formats::graal::level::BOARD_SIZE;
use levelkit::formats::rez::RezIndex;
use levelkit::{ErrorKind, Format};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

create_exception!(
    _levelkit,
    Error,
    PyException,
    "A file levelkit could not read, write or convert. Attributes: `format`, `kind`, `offset` \
     (bytes), `line` and `column` (text files), `path` (a place in the model) and `message`."
);
create_exception!(
    _levelkit,
    TruncatedError,
    Error,
    "The input ended before a structure did."
);
create_exception!(
    _levelkit,
    MalformedError,
    Error,
    "A field holds a value the format does not allow."
);
create_exception!(
    _levelkit,
    UnsupportedError,
    Error,
    "A valid feature levelkit does not handle (yet), or a conversion it does not make."
);
create_exception!(
    _levelkit,
    LimitError,
    Error,
    "The input asks for more than the limits allow (`Limits`)."
);
create_exception!(
    _levelkit,
    FileError,
    Error,
    "A file could not be read (a missing asset, a folder that is not there)."
);

/// A library error as the Python exception of its kind, its parts as attributes.
fn py_error(e: &levelkit::Error) -> PyErr {
    let text = e.to_string();
    let err = match e.kind {
        ErrorKind::Truncated => TruncatedError::new_err(text),
        ErrorKind::Malformed => MalformedError::new_err(text),
        ErrorKind::Unsupported => UnsupportedError::new_err(text),
        ErrorKind::LimitExceeded => LimitError::new_err(text),
        ErrorKind::Io => FileError::new_err(text),
        _ => Error::new_err(text),
    };
    Python::attach(|py| {
        let value = err.value(py);
        let kind = match e.kind {
            ErrorKind::Truncated => "truncated",
            ErrorKind::Malformed => "malformed",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::LimitExceeded => "limit_exceeded",
            ErrorKind::Io => "io",
            _ => "other",
        };
        let (line, column) = e.location.line_col.unzip();
        // Setting attributes on a fresh exception does not fail; were it to, the message
        // still says everything.
        let _ = value.setattr("format", e.format.name());
        let _ = value.setattr("kind", kind);
        let _ = value.setattr("offset", e.location.offset);
        let _ = value.setattr("line", line);
        let _ = value.setattr("column", column);
        let _ = value.setattr("path", e.location.path.clone());
        let _ = value.setattr("message", e.message.clone());
    });
    err
}

/// Resource limits for reading hostile input: the most bytes one allocation may take, the
/// most items one count may claim, the deepest nesting. The defaults are the CLI's.
#[pyclass(module = "levelkit._levelkit", from_py_object)]
#[derive(Clone)]
struct Limits {
    /// The most bytes any one allocation may take.
    #[pyo3(get, set)]
    max_alloc: usize,
    /// The most items a count in a file may claim.
    #[pyo3(get, set)]
    max_count: usize,
    /// The deepest nesting (text formats, ETF terms).
    #[pyo3(get, set)]
    max_depth: usize,
}

#[pymethods]
impl Limits {
    #[new]
    #[pyo3(signature = (max_alloc=None, max_count=None, max_depth=None))]
    fn new(max_alloc: Option<usize>, max_count: Option<usize>, max_depth: Option<usize>) -> Self {
        let d = levelkit::Limits::default();
        Limits {
            max_alloc: max_alloc.unwrap_or(d.max_alloc),
            max_count: max_count.unwrap_or(d.max_count),
            max_depth: max_depth.unwrap_or(d.max_depth),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Limits(max_alloc={}, max_count={}, max_depth={})",
            self.max_alloc, self.max_count, self.max_depth
        )
    }
}

impl Limits {
    fn get(limits: Option<&Limits>) -> levelkit::Limits {
        let mut l = levelkit::Limits::default();
        if let Some(given) = limits {
            l.max_alloc = given.max_alloc;
            l.max_count = given.max_count;
            l.max_depth = given.max_depth;
        }
        l
    }
}

/// Where a document's files (textures, tiles, models a level names) are found: a folder or a
/// REZ archive.
#[derive(Clone)]
enum Source {
    None,
    Folder(PathBuf),
    Rez(Arc<Vec<u8>>),
}

/// A [`Source`] opened for one call: the REZ index borrows the archive's bytes.
enum Opened<'a> {
    None(NoAssets),
    Folder(Folder),
    Rez(RezIndex<'a>),
}

impl Opened<'_> {
    fn assets(&self) -> &dyn Assets {
        match self {
            Opened::None(a) => a,
            Opened::Folder(a) => a,
            Opened::Rez(a) => a,
        }
    }
}

impl Source {
    /// A folder, or the REZ archive a file is.
    fn of_path(path: &Path, limits: &levelkit::Limits) -> PyResult<Source> {
        if path.is_dir() {
            return Ok(Source::Folder(path.to_path_buf()));
        }
        let bytes = read_file(path, limits)?;
        // Checked now, so that a wrong file is named where it is given.
        RezIndex::read_with(&bytes, limits).map_err(|e| py_error(&e))?;
        Ok(Source::Rez(Arc::new(bytes)))
    }

    fn open(&self) -> PyResult<Opened<'_>> {
        Ok(match self {
            Source::None => Opened::None(NoAssets),
            Source::Folder(p) => Opened::Folder(Folder::new(p)),
            Source::Rez(bytes) => Opened::Rez(RezIndex::read(bytes).map_err(|e| py_error(&e))?),
        })
    }
}

/// A file's bytes, refused past the allocation limit before any is read.
fn read_file(path: &Path, limits: &levelkit::Limits) -> PyResult<Vec<u8>> {
    let io = |e: std::io::Error| {
        pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display()))
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if usize::try_from(len).map_or(true, |n| n > limits.max_alloc) {
        return Err(LimitError::new_err(format!(
            "{}: {len} bytes is over the limit of {} (Limits.max_alloc)",
            path.display(),
            limits.max_alloc
        )));
    }
    std::fs::read(path).map_err(io)
}

/// One document of any format levelkit reads (the `levelkit.Document` wrapper holds one).
#[pyclass(module = "levelkit._levelkit")]
struct NativeDocument {
    model: Model,
    /// The file name it was read from (its extension helps tell formats apart).
    name: Option<String>,
    /// The files around it.
    assets: Source,
}

#[pymethods]
impl NativeDocument {
    /// The format's short name (`wwd`, `mdl`, …).
    #[getter]
    fn format(&self) -> &'static str {
        self.model.format().name()
    }

    /// The format version the file declares (`WWD 1.0`, `MDL7`, …).
    #[getter]
    fn version(&self) -> String {
        self.model.version()
    }

    /// The file name it was read from, if any.
    #[getter]
    fn name(&self) -> Option<String> {
        self.name.clone()
    }

    /// `levelkit info --json`'s record, as JSON text.
    fn info_json(&self) -> String {
        let name = self.name.as_deref().unwrap_or("");
        serde_json::to_string(&self.model.info_record(name)).unwrap_or_default()
    }

    /// `levelkit info`'s text.
    fn info_text(&self) -> String {
        self.model.info_text(self.name.as_deref().unwrap_or(""))
    }

    /// The validator's findings: (severity, message, path, offset, line, column) each.
    #[allow(clippy::type_complexity)]
    fn findings(
        &self,
    ) -> Vec<(
        String,
        String,
        Option<String>,
        Option<u64>,
        Option<u32>,
        Option<u32>,
    )> {
        self.model
            .validate()
            .into_iter()
            .map(|w| {
                let (line, column) = w.location.line_col.unzip();
                (
                    format!("{:?}", w.severity).to_ascii_lowercase(),
                    w.message,
                    w.location.path,
                    w.location.offset,
                    line,
                    column,
                )
            })
            .collect()
    }

    /// The lossless JSON document (`levelkit dump --json`).
    fn to_json(&self) -> PyResult<String> {
        let bytes = self.model.to_json().map_err(|e| py_error(&e))?;
        String::from_utf8(bytes).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Replace the model with a lossless JSON document's (of any format).
    fn set_json(&mut self, text: &str) -> PyResult<()> {
        self.model = Model::from_json(text.as_bytes()).map_err(|e| py_error(&e))?;
        Ok(())
    }

    /// The file's bytes, written from the model (the original bytes when nothing was edited).
    fn write<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.model.write().map_err(|e| py_error(&e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The format names the document converts to.
    fn targets(&self) -> Vec<&'static str> {
        self.model.targets().into_iter().map(Format::name).collect()
    }

    /// Convert to `target` (a format name or extension): (main bytes or None, side files as
    /// (relative name, bytes), notes).
    #[pyo3(signature = (target, output_name=None, compress=None, game=None, images=None, frames=None, sheet=false, direction=None, placeholders=false, max_size=0))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn convert<'py>(
        &self,
        py: Python<'py>,
        target: &str,
        output_name: Option<String>,
        compress: Option<bool>,
        game: Option<PathBuf>,
        images: Option<PathBuf>,
        frames: Option<PathBuf>,
        sheet: bool,
        direction: Option<String>,
        placeholders: bool,
        max_size: u32,
    ) -> PyResult<(
        Option<Bound<'py, PyBytes>>,
        Vec<(String, Bound<'py, PyBytes>)>,
        Vec<String>,
    )> {
        let format = Format::from_name(target).ok_or_else(|| {
            PyValueError::new_err(format!("{target:?} is not a format levelkit knows"))
        })?;
        let direction = match direction {
            Some(d) => Some(Direction::from_name(&d).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{d:?} is not a direction (up, left, down or right)"
                ))
            })?),
            None => None,
        };
        let limits = levelkit::Limits::default();
        let source = |p: Option<PathBuf>| -> PyResult<Source> {
            p.map_or(Ok(Source::None), |p| Source::of_path(&p, &limits))
        };
        let (game, images, frames) = (source(game)?, source(images)?, source(frames)?);
        let (game, images, frames) = (game.open()?, images.open()?, frames.open()?);
        let some = |o: &Opened<'_>| !matches!(o, Opened::None(_));
        let options = Options {
            output_name,
            compress,
            game: some(&game).then(|| game.assets()),
            images: some(&images).then(|| images.assets()),
            frames: some(&frames).then(|| frames.assets()),
            input_name: self.name.clone(),
            sheet,
            direction,
            placeholders,
            max_size,
            ..Options::default()
        };
        let assets = self.assets.open()?;
        let done = convert::convert(&self.model, format, &options, assets.assets()).map_err(
            |f| match f.not_convertible {
                true => UnsupportedError::new_err(f.error.to_string()),
                false => py_error(&f.error),
            },
        )?;
        Ok((
            done.main.map(|m| PyBytes::new(py, &m)),
            done.side
                .into_iter()
                .map(|(n, b)| (n, PyBytes::new(py, &b)))
                .collect(),
            done.notes,
        ))
    }

    /// The meshes of a 3D document's scene (the common model every 3D export is made from),
    /// as arrays; an empty list for other documents.
    fn meshes<'py>(&self, py: Python<'py>) -> PyResult<Vec<MeshArrays<'py>>> {
        self.mesh_arrays(py)
    }

    /// The tile planes: (name, width, height) each, in file order. A WWD level's planes; a
    /// binary Graal level's boards (`layer 0` …, 64 x 64).
    fn plane_shapes(&self) -> Vec<(String, usize, usize)> {
        match &self.model {
            Model::Wwd(w) => w
                .planes
                .iter()
                .map(|p| {
                    let (w, h) = plane_size(p);
                    (p.name.text.display(), w, h)
                })
                .collect(),
            Model::Graal(g) => (0..g.boards.len())
                .map(|i| (format!("layer {i}"), BOARD_SIZE, BOARD_SIZE))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Plane `index` as a new array: a WWD plane's raw cells as `int32` (-1 is empty,
    /// -286331154 (`0xEEEEEEEE`) the fill colour, else set << 16 | tile id), a Graal board's
    /// tile indices as `uint16`.
    fn plane<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        let missing = || PyKeyError::new_err(index);
        match &self.model {
            Model::Wwd(w) => {
                let p = w.planes.get(index).ok_or_else(missing)?;
                let (width, height) = plane_size(p);
                let cells: Vec<i32> = p.tiles.iter().map(|&t| t as i32).collect();
                Ok(PyArray1::from_vec(py, cells)
                    .reshape([height, width])?
                    .into_any())
            }
            Model::Graal(g) => {
                let board = g.boards.get(index).ok_or_else(missing)?;
                Ok(PyArray1::from_slice(py, &board.tiles)
                    .reshape([board.tiles.len() / BOARD_SIZE, BOARD_SIZE])?
                    .into_any())
            }
            _ => Err(PyValueError::new_err(
                "only WWD and binary Graal levels have planes here",
            )),
        }
    }

    /// Put an array of the plane's shape (and type, as `plane` gives it) back as plane
    /// `index`'s cells.
    fn set_plane(&mut self, index: usize, cells: &Bound<'_, PyAny>) -> PyResult<()> {
        let missing = || PyKeyError::new_err(index);
        let wrong = |shape: &[usize], height: usize, width: usize| {
            PyValueError::new_err(format!(
                "plane {index} is {height} x {width} cells, not {shape:?}"
            ))
        };
        match &mut self.model {
            Model::Wwd(w) => {
                let cells: PyReadonlyArray2<'_, i32> = cells.extract()?;
                let p = w.planes.get_mut(index).ok_or_else(missing)?;
                let (width, height) = plane_size(p);
                if cells.shape() != [height, width] {
                    return Err(wrong(cells.shape(), height, width));
                }
                for (cell, &v) in p.tiles.iter_mut().zip(cells.as_array().iter()) {
                    *cell = v as u32;
                }
            }
            Model::Graal(g) => {
                let cells: PyReadonlyArray2<'_, u16> = cells.extract()?;
                let board = g.boards.get_mut(index).ok_or_else(missing)?;
                let height = board.tiles.len() / BOARD_SIZE;
                if cells.shape() != [height, BOARD_SIZE] {
                    return Err(wrong(cells.shape(), height, BOARD_SIZE));
                }
                for (cell, &v) in board.tiles.iter_mut().zip(cells.as_array().iter()) {
                    *cell = v;
                }
            }
            _ => {
                return Err(PyValueError::new_err(
                    "only WWD and binary Graal levels have planes here",
                ));
            }
        }
        Ok(())
    }
}

/// One mesh of a 3D document's scene as arrays: its name, positions (`n x 3`, `float64`), each
/// face's corner count (`uint32`), every corner's position index in face order (`uint32`),
/// each face's material index (`int64`, -1 for none) and every corner's UV (`corners x 2`,
/// `float64`, NaN where a corner has none).
type MeshArrays<'py> = (
    Option<String>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

impl NativeDocument {
    fn mesh_arrays<'py>(&self, py: Python<'py>) -> PyResult<Vec<MeshArrays<'py>>> {
        let Some((scene, _)) = self.model.to_scene() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(scene.meshes.len());
        for mesh in &scene.meshes {
            let n = mesh.positions.len();
            let positions: Vec<f64> = mesh.positions.iter().flatten().copied().collect();
            let sizes: Vec<u32> = mesh
                .faces
                .iter()
                .map(|f| u32::try_from(f.corners.len()).unwrap_or(u32::MAX))
                .collect();
            let corners: Vec<u32> = mesh
                .faces
                .iter()
                .flat_map(|f| f.corners.iter().map(|c| c.position))
                .collect();
            let materials: Vec<i64> = mesh
                .faces
                .iter()
                .map(|f| f.material.and_then(|m| i64::try_from(m).ok()).unwrap_or(-1))
                .collect();
            let uvs: Vec<f64> = mesh
                .faces
                .iter()
                .flat_map(|f| f.corners.iter().map(|c| c.uv.unwrap_or([f64::NAN; 2])))
                .flatten()
                .collect();
            let count = corners.len();
            out.push((
                mesh.name.clone(),
                PyArray1::from_vec(py, positions)
                    .reshape([n, 3])?
                    .into_any(),
                PyArray1::from_vec(py, sizes).into_any(),
                PyArray1::from_vec(py, corners).into_any(),
                PyArray1::from_vec(py, materials).into_any(),
                PyArray1::from_vec(py, uvs).reshape([count, 2])?.into_any(),
            ));
        }
        Ok(out)
    }
}

/// A plane's grid size in cells (width, height), as its tiles are stored.
fn plane_size(p: &levelkit::formats::wwd::Plane) -> (usize, usize) {
    let w = usize::try_from(p.tiles_wide).unwrap_or(0);
    let h = p.tiles.len().checked_div(w).unwrap_or(0);
    (w, h)
}

/// Read a document from bytes; `name` (a file name) helps tell formats apart, `assets` is
/// where the files it names are (a folder or a REZ archive).
#[pyfunction]
#[pyo3(signature = (data, name=None, assets=None, limits=None))]
fn open_bytes(
    data: &[u8],
    name: Option<String>,
    assets: Option<PathBuf>,
    limits: Option<Limits>,
) -> PyResult<NativeDocument> {
    let limits = Limits::get(limits.as_ref());
    let assets = match assets {
        Some(p) => Source::of_path(&p, &limits)?,
        None => Source::None,
    };
    read_document(data, name, assets, &limits)
}

/// Read the document at `path`; its folder holds the files it names unless `assets` says
/// otherwise (a folder or a REZ archive).
#[pyfunction]
#[pyo3(signature = (path, assets=None, limits=None))]
fn open_path(
    path: PathBuf,
    assets: Option<PathBuf>,
    limits: Option<Limits>,
) -> PyResult<NativeDocument> {
    let limits = Limits::get(limits.as_ref());
    let data = read_file(&path, &limits)?;
    let assets = match assets {
        Some(p) => Source::of_path(&p, &limits)?,
        None => match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => Source::Folder(dir.to_path_buf()),
            _ => Source::Folder(PathBuf::from(".")),
        },
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    read_document(&data, name, assets, &limits)
}

fn read_document(
    data: &[u8],
    name: Option<String>,
    assets: Source,
    limits: &levelkit::Limits,
) -> PyResult<NativeDocument> {
    let opened = assets.open()?;
    let model = Model::read_with(data, name.as_deref(), limits, &mut |n: &str| {
        opened.assets().read(n).map(Cow::into_owned)
    })
    .map_err(|e| py_error(&e))?;
    drop(opened);
    Ok(NativeDocument {
        model,
        name,
        assets,
    })
}

/// A document from its lossless JSON text.
#[pyfunction]
fn from_json(text: &str) -> PyResult<NativeDocument> {
    let model = Model::from_json(text.as_bytes()).map_err(|e| py_error(&e))?;
    Ok(NativeDocument {
        model,
        name: None,
        assets: Source::None,
    })
}

/// A REZ archive's files, read in place (the `levelkit.Rez` mapping holds one).
#[pyclass(module = "levelkit._levelkit")]
struct NativeRez {
    bytes: Arc<Vec<u8>>,
    /// Every file: its path and where its data is.
    files: Vec<(String, Range<usize>)>,
    /// File index by path, ASCII case folded (the game looks names up without case).
    by_path: HashMap<String, usize>,
}

#[pymethods]
impl NativeRez {
    /// Every file's path (`/`-separated), depth first in archive order.
    fn paths(&self) -> Vec<String> {
        self.files.iter().map(|(p, _)| p.clone()).collect()
    }

    /// A file's bytes by path (case ignored), or None.
    fn get<'py>(&self, py: Python<'py>, path: &str) -> Option<Bound<'py, PyBytes>> {
        let key = path.replace('\\', "/").to_ascii_lowercase();
        let i = *self.by_path.get(key.trim_start_matches('/'))?;
        let (_, range) = self.files.get(i)?;
        self.bytes.get(range.clone()).map(|b| PyBytes::new(py, b))
    }

    /// How many files.
    fn __len__(&self) -> usize {
        self.files.len()
    }
}

/// Open a REZ archive (path) and index its files.
#[pyfunction]
#[pyo3(signature = (path, limits=None))]
fn open_rez(path: PathBuf, limits: Option<Limits>) -> PyResult<NativeRez> {
    let limits = Limits::get(limits.as_ref());
    let bytes = read_file(&path, &limits)?;
    let (files, by_path) = {
        let index = RezIndex::read_with(&bytes, &limits).map_err(|e| py_error(&e))?;
        let base = bytes.as_ptr() as usize;
        let mut files = Vec::new();
        let mut by_path = HashMap::new();
        for (p, file) in index.files() {
            let data = index.data(file).map_err(|e| py_error(&e))?;
            let start = (data.as_ptr() as usize).saturating_sub(base);
            by_path.entry(p.to_ascii_lowercase()).or_insert(files.len());
            files.push((p, start..start + data.len()));
        }
        (files, by_path)
    };
    Ok(NativeRez {
        bytes: Arc::new(bytes),
        files,
        by_path,
    })
}

/// Every format: (name, extensions, readable, writable).
#[pyfunction]
fn formats() -> Vec<(&'static str, Vec<&'static str>, bool, bool)> {
    levelkit::registry::FORMATS
        .iter()
        .map(|f| (f.name, f.extensions.to_vec(), f.readable, f.writable))
        .collect()
}

/// The extension module.
#[pymodule]
fn _levelkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("TruncatedError", py.get_type::<TruncatedError>())?;
    m.add("MalformedError", py.get_type::<MalformedError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    m.add("FileError", py.get_type::<FileError>())?;
    m.add_class::<Limits>()?;
    m.add_class::<NativeDocument>()?;
    m.add_class::<NativeRez>()?;
    m.add_function(wrap_pyfunction!(open_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(open_path, m)?)?;
    m.add_function(wrap_pyfunction!(from_json, m)?)?;
    m.add_function(wrap_pyfunction!(open_rez, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
