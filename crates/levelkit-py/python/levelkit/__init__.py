"""levelkit: read, validate, write and convert the level and model formats of 1990s and 2000s
games (WAP32 (Captain Claw, Gruntz), Graal Online, Wings 3D, 3D GameStudio, V-Chat), losslessly.

    >>> import levelkit
    >>> doc = levelkit.open("samples/claw-like.wwd")
    >>> doc.format, doc.info()["planes"]
    ('wwd', 3)
    >>> doc.planes["Action"][10, 20] = 12          # a numpy array of the tile ids
    >>> data = doc.write()                           # the level with that one tile changed
    >>> doc.convert("tmx", "level.tmx")              # the Tiled map and its tilesets, written

Everything is done by the levelkit library (Rust) through one conversion pipeline, the same as
the `levelkit` command line and the browser viewer: the bytes a conversion gives here are the
bytes `levelkit convert` writes.
"""

from __future__ import annotations

import builtins
import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from . import _levelkit as _native
from ._levelkit import (
    Error,
    FileError,
    LimitError,
    Limits,
    MalformedError,
    TruncatedError,
    UnsupportedError,
    __version__,
)

__all__ = [
    "open",
    "from_json",
    "formats",
    "Document",
    "Converted",
    "Finding",
    "FormatInfo",
    "Mesh",
    "Rez",
    "Limits",
    "Error",
    "TruncatedError",
    "MalformedError",
    "UnsupportedError",
    "LimitError",
    "FileError",
    "__version__",
]

PathLike = Union[str, "os.PathLike[str]"]

# The mode a new file gets (0666 less the umask), read once: temporary files are 0600.
_UMASK = os.umask(0)
os.umask(_UMASK)


@dataclass(frozen=True)
class Finding:
    """One finding of the validator: `severity` is "error" or "warning"; `path` is a place in
    the model (`planes[1].objects[3].logic`), `offset` a byte offset, `line` and `column` a
    place in a text file, where known."""

    severity: str
    message: str
    path: Optional[str] = None
    offset: Optional[int] = None
    line: Optional[int] = None
    column: Optional[int] = None

    def __str__(self) -> str:
        where = []
        if self.path:
            where.append(self.path)
        if self.offset is not None:
            where.append(f"offset {self.offset:#x}")
        if self.line is not None:
            where.append(f"line {self.line}, column {self.column}")
        place = f" (at {', '.join(where)})" if where else ""
        return f"{self.severity}: {self.message}{place}"


@dataclass
class Converted:
    """What a conversion made: the main file's bytes (None when every output is a side file, as
    a gani's four directions), the side files by path relative to the main file's folder (a
    Tiled map's tilesets, a `.gltf`'s buffer and textures), and what it noticed."""

    main: Optional[bytes]
    side: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)

    def save(self, path: PathLike, *, force: bool = False) -> list:
        """Write the main file to `path` and the side files beside it; returns the paths
        written. Each file is written whole (a temporary file, then renamed); an existing file
        is not overwritten without `force`."""
        path = Path(path)
        folder = path.parent
        targets = []
        if self.main is not None:
            targets.append((path, self.main))
        for name, data in self.side.items():
            targets.append((_inside(folder, name), data))
        if not force:
            for target, _ in targets:
                if target.exists():
                    raise FileExistsError(
                        f"{target}: already exists; pass force=True to overwrite it"
                    )
        written = []
        for target, data in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_file(target, data, force=force)
            written.append(target)
        return written


@dataclass(frozen=True)
class Mesh:
    """One mesh of a 3D document as arrays. Faces are polygons: face `i` has `face_sizes[i]`
    corners, whose position indices come next in `face_corners` (and their UVs in
    `corner_uvs`, NaN where a corner has none); `face_materials[i]` is its material index,
    -1 for none."""

    name: Optional[str]
    positions: np.ndarray
    face_sizes: np.ndarray
    face_corners: np.ndarray
    face_materials: np.ndarray
    corner_uvs: np.ndarray

    def triangles(self) -> np.ndarray:
        """The faces as triangle fans (`m x 3` position indices): exact for the convex faces
        these formats store."""
        starts = np.concatenate(([0], np.cumsum(self.face_sizes)[:-1])).astype(np.int64)
        tris = []
        for start, size in zip(starts, self.face_sizes):
            for k in range(1, int(size) - 1):
                tris.append(
                    (
                        self.face_corners[start],
                        self.face_corners[start + k],
                        self.face_corners[start + k + 1],
                    )
                )
        return np.array(tris, dtype=np.uint32).reshape(-1, 3)


@dataclass(frozen=True)
class FormatInfo:
    """A format levelkit knows: its short name, file extensions, and whether it reads and
    writes it."""

    name: str
    extensions: tuple
    readable: bool
    writable: bool


class Document:
    """A document of any format levelkit reads (`levelkit.open`). Its model is lossless:
    `write()` of an unedited document gives the original bytes."""

    def __init__(self, native: Any):
        self._doc = native
        self._planes: Optional[dict] = None
        self._plane_index: dict = {}

    def __repr__(self) -> str:
        name = f" {self.name!r}" if self.name else ""
        return f"<levelkit.Document{name} {self.format} {self.version}>"

    @property
    def format(self) -> str:
        """The format's short name (`wwd`, `graal`, `nw`, `mdl`, `wings`, …)."""
        return self._doc.format

    @property
    def version(self) -> str:
        """The version the file declares."""
        return self._doc.version

    @property
    def name(self) -> Optional[str]:
        """The file name it was read from (None for bytes opened without a name)."""
        return self._doc.name

    def info(self) -> dict:
        """The summary `levelkit info --json` prints: format, version and the format's counts."""
        self._sync()
        return json.loads(self._doc.info_json())

    def info_text(self) -> str:
        """The summary `levelkit info` prints."""
        self._sync()
        return self._doc.info_text()

    def validate(self) -> list:
        """The validator's findings (an empty list for a file the game would load)."""
        self._sync()
        return [Finding(*f) for f in self._doc.findings()]

    def to_json(self) -> str:
        """The lossless JSON document (`levelkit dump --json`); `levelkit.from_json` reads it
        back."""
        self._sync()
        return self._doc.to_json()

    def write(self, path: Optional[PathLike] = None, *, force: bool = False) -> bytes:
        """The file's bytes in its own format, edits included; also written to `path` when
        given (whole, never over an existing file without `force`)."""
        self._sync()
        data = self._doc.write()
        if path is not None:
            _write_file(Path(path), data, force=force)
        return data

    def targets(self) -> list:
        """The format names this document converts to."""
        return list(self._doc.targets())

    def convert(
        self,
        target: Optional[str] = None,
        path: Optional[PathLike] = None,
        *,
        force: bool = False,
        compress: Optional[bool] = None,
        game: Optional[PathLike] = None,
        images: Optional[PathLike] = None,
        frames: Optional[PathLike] = None,
        sheet: bool = False,
        direction: Optional[str] = None,
        placeholders: bool = False,
        max_size: int = 0,
    ) -> Converted:
        """Convert to `target` (a format name or extension: "glb", "tmx", "png", "json", …),
        or to the format `path`'s extension names. With `path`, the output and its side files
        are written there (see `Converted.save`); without, the result holds them (a `.gltf`
        then has no side files: its buffer and textures are embedded, one self-contained file).

        Options, as `levelkit convert` has them: `compress` (WWD: compress the main block or
        store it; default: as the level was), `game` (a WWD level's game files: a REZ archive
        or a folder, to draw its tiles and sprites), `images` (Graal: the folder of NPC and
        gani images), `frames` (ANI: the image set's PIDs or PNGs), `sheet` (animations: a
        sprite sheet), `direction` and `placeholders` (ganis), `max_size` (overworld
        pictures)."""
        if target is None:
            if path is None:
                raise ValueError("convert needs a target format or a path with an extension")
            suffix = Path(path).suffix
            if not suffix:
                raise ValueError(f"{path}: no extension to tell the target format")
            target = suffix[1:]
        self._sync()
        output_name = Path(path).name if path is not None else None
        main, side, notes = self._doc.convert(
            target,
            output_name,
            compress,
            _opt_path(game),
            _opt_path(images),
            _opt_path(frames),
            sheet,
            direction,
            placeholders,
            max_size,
        )
        done = Converted(main, dict(side), list(notes))
        if path is not None:
            done.save(path, force=force)
        return done

    @property
    def planes(self) -> dict:
        """A level's tile planes by name, each a 2-D numpy array of `[row, column]` cells.
        A WWD level's planes (`"Background"`, `"Action"`, `"Front"`) are `int32`: -1 is empty,
        -286331154 (`0xEEEEEEEE`) the plane's fill colour, any other value a tile id. A binary
        Graal level's boards (`"layer 0"`, …) are 64 x 64 `uint16` tile indices. Edit the
        arrays in place (or put a new array of the same shape under the same name): `write()`,
        `convert()` and the rest use them. An empty dict for other formats (a `.nw` level's
        boards: `convert("graal")`, then open that)."""
        if self._planes is None:
            planes = {}
            index = {}
            for i, (name, _w, _h) in enumerate(self._doc.plane_shapes()):
                key = name if name not in planes else f"{name}#{i}"
                planes[key] = self._doc.plane(i)
                index[key] = i
            self._planes = planes
            self._plane_index = index
        return self._planes

    @property
    def model(self) -> dict:
        """The lossless model as plain Python data (the `model` of `to_json()`): a new copy
        each time. Assign an edited copy back to change the document."""
        return json.loads(self.to_json())["model"]

    @model.setter
    def model(self, value: dict) -> None:
        tag = json.loads(self.to_json())["format"]
        self._doc.set_json(json.dumps({"format": tag, "model": value}))
        self._planes = None

    @property
    def objects(self) -> list:
        """A WWD level's objects (every plane's, in order), each a dict of its fields with
        `"plane"`, the plane's index, added: a copy, for reading and counting. Edit them through
        `model`."""
        if self.format != "wwd":
            return []
        objects = []
        for i, plane in enumerate(self.model["planes"]):
            for obj in plane["objects"]:
                obj["plane"] = i
                objects.append(obj)
        return objects

    @property
    def meshes(self) -> list:
        """A 3D document's meshes (its scene, the common model every 3D export is made from)
        as numpy arrays: a new list of `Mesh` each time, for reading. An empty list for other
        documents."""
        self._sync()
        return [Mesh(*m) for m in self._doc.meshes()]

    def _sync(self) -> None:
        """Put edited plane arrays back into the model."""
        if not self._planes:
            return
        for key, array in self._planes.items():
            i = self._plane_index.get(key)
            if i is None:
                raise KeyError(f"{key!r} is not one of the level's planes")
            dtype = np.int32 if self.format == "wwd" else np.uint16
            self._doc.set_plane(i, np.ascontiguousarray(array, dtype=dtype))


def open(
    source: Union[PathLike, bytes, bytearray, memoryview],
    assets: Optional[PathLike] = None,
    *,
    name: Optional[str] = None,
    limits: Optional[Limits] = None,
) -> Document:
    """Read a document: a path, or the bytes of a file (`name`, a file name, then helps tell
    formats apart). `assets` is where the files it names are found (textures, tiles, the models
    a level places): a folder or a REZ archive; by default the file's own folder. `limits`
    bounds what a hostile file can make levelkit allocate."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        native = _native.open_bytes(bytes(source), name, _opt_path(assets), limits)
    else:
        native = _native.open_path(os.fspath(source), _opt_path(assets), limits)
    return Document(native)


def from_json(text: str) -> Document:
    """A document from its lossless JSON (`Document.to_json`, `levelkit dump --json`)."""
    return Document(_native.from_json(text))


def formats() -> list:
    """Every format levelkit knows."""
    return [FormatInfo(n, tuple(e), r, w) for n, e, r, w in _native.formats()]


class Rez(Mapping):
    """A REZ archive (Captain Claw's `CLAW.REZ`, Gruntz's `GRUNTZ.REZ`) as a read-only mapping
    of path to bytes: `rez["LEVEL1/TILES/ACTION/012.PID"]`, case ignored; iteration gives the
    paths in archive order."""

    def __init__(self, path: PathLike, *, limits: Optional[Limits] = None):
        self._path = os.fspath(path)
        self._rez = _native.open_rez(self._path, limits)
        self._paths = self._rez.paths()

    def __getitem__(self, path: str) -> bytes:
        data = self._rez.get(path)
        if data is None:
            raise KeyError(path)
        return data

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self._rez.get(path) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def open(self, path: str) -> Document:
        """A file of the archive read as a document (`rez.open("LEVEL1/ANIS/...ANI")`), with
        the archive as its assets."""
        return open(self[path], self._path, name=path.replace("\\", "/").rsplit("/", 1)[-1])

    def extract(self, folder: PathLike, *, force: bool = False) -> int:
        """Write every file under `folder` (its archive path as its path); returns how many.
        A path that would leave the folder is refused; existing files are not overwritten
        without `force`."""
        folder = Path(folder)
        count = 0
        for path in self._paths:
            target = _inside(folder, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_file(target, self[path], force=force)
            count += 1
        return count


def _opt_path(path: Optional[PathLike]) -> Optional[str]:
    return None if path is None else os.fspath(path)


def _inside(folder: Path, name: str) -> Path:
    """`name` (a `/`-separated relative path from a file) under `folder`, refusing what would
    leave it."""
    parts = name.replace("\\", "/").split("/")
    if name.startswith("/") or any(p in ("", ".", "..") or ":" in p for p in parts):
        raise Error(f"{name!r}: not a path inside the output folder")
    return folder.joinpath(*parts)


def _write_file(path: Path, data: bytes, *, force: bool) -> None:
    """Write `data` to `path` whole: a temporary file beside it, then renamed (linked when the
    path must not be overwritten, so a file that appeared meanwhile is not)."""
    if not force and path.exists():
        raise FileExistsError(f"{path}: already exists; pass force=True to overwrite it")
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".levelkit-", suffix=".tmp", dir=folder)
    try:
        with builtins.open(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_UMASK)
        if force:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
            os.unlink(tmp)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
