"""Type stubs of the extension module behind `levelkit` (the Rust library's document layer)."""

from typing import Optional

import numpy as np
import numpy.typing as npt

__version__: str

class Error(Exception):
    """A file levelkit could not read, write or convert."""

    format: str
    kind: str
    offset: Optional[int]
    line: Optional[int]
    column: Optional[int]
    path: Optional[str]
    message: str

class TruncatedError(Error): ...
class MalformedError(Error): ...
class UnsupportedError(Error): ...
class LimitError(Error): ...
class FileError(Error): ...

class Limits:
    max_alloc: int
    max_count: int
    max_depth: int
    def __init__(
        self,
        max_alloc: Optional[int] = None,
        max_count: Optional[int] = None,
        max_depth: Optional[int] = None,
    ) -> None: ...

class NativeDocument:
    @property
    def format(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def name(self) -> Optional[str]: ...
    def info_json(self) -> str: ...
    def info_text(self) -> str: ...
    def findings(
        self,
    ) -> list[
        tuple[str, str, Optional[str], Optional[int], Optional[int], Optional[int]]
    ]: ...
    def to_json(self) -> str: ...
    def set_json(self, text: str) -> None: ...
    def write(self) -> bytes: ...
    def targets(self) -> list[str]: ...
    def convert(
        self,
        target: str,
        output_name: Optional[str] = None,
        compress: Optional[bool] = None,
        game: Optional[str] = None,
        images: Optional[str] = None,
        frames: Optional[str] = None,
        sheet: bool = False,
        direction: Optional[str] = None,
        placeholders: bool = False,
        max_size: int = 0,
    ) -> tuple[Optional[bytes], list[tuple[str, bytes]], list[str]]: ...
    def meshes(
        self,
    ) -> list[
        tuple[
            Optional[str],
            npt.NDArray[np.float64],
            npt.NDArray[np.uint32],
            npt.NDArray[np.uint32],
            npt.NDArray[np.int64],
            npt.NDArray[np.float64],
        ]
    ]: ...
    def plane_shapes(self) -> list[tuple[str, int, int]]: ...
    def plane(self, index: int) -> npt.NDArray[np.int32] | npt.NDArray[np.uint16]: ...
    def set_plane(
        self, index: int, cells: npt.NDArray[np.int32] | npt.NDArray[np.uint16]
    ) -> None: ...

class NativeRez:
    def paths(self) -> list[str]: ...
    def get(self, path: str) -> Optional[bytes]: ...
    def __len__(self) -> int: ...

def open_bytes(
    data: bytes,
    name: Optional[str] = None,
    assets: Optional[str] = None,
    limits: Optional[Limits] = None,
) -> NativeDocument: ...
def open_path(
    path: str, assets: Optional[str] = None, limits: Optional[Limits] = None
) -> NativeDocument: ...
def from_json(text: str) -> NativeDocument: ...
def open_rez(path: str, limits: Optional[Limits] = None) -> NativeRez: ...
def formats() -> list[tuple[str, list[str], bool, bool]]: ...
