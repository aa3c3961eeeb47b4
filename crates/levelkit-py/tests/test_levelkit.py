"""The Python package against the repository's samples (made by levelkit's own writers) and,
where `LEVELKIT_CORPUS` names it, one real file of each format.

    pip install ./crates/levelkit-py && python -m pytest crates/levelkit-py/tests
"""

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import levelkit

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "samples"
CORPUS = Path(os.environ["LEVELKIT_CORPUS"]) if os.environ.get("LEVELKIT_CORPUS") else None

READABLE = {
    ext
    for f in levelkit.formats()
    if f.readable
    for ext in f.extensions
}


def documents():
    """Every sample levelkit reads as a document (pictures are assets, not documents)."""
    return sorted(
        p
        for p in SAMPLES.iterdir()
        if p.suffix[1:].lower() in READABLE and p.suffix.lower() not in (".png", ".gif")
    )


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name)
def test_every_sample_opens_validates_and_writes_back_byte_for_byte(path):
    doc = levelkit.open(path)
    info = doc.info()
    assert info["format"] == doc.format
    assert isinstance(doc.version, str)
    assert all(isinstance(f, levelkit.Finding) for f in doc.validate())
    assert doc.write() == path.read_bytes()
    # The lossless JSON reads back to the same file.
    assert levelkit.from_json(doc.to_json()).write() == path.read_bytes()
    # From bytes (the name helps tell the format) it is the same document.
    assert levelkit.open(path.read_bytes(), SAMPLES, name=path.name).write() == path.read_bytes()


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name)
def test_every_sample_converts_as_the_cli_does(path, tmp_path):
    doc = levelkit.open(path)
    targets = [t for t in doc.targets() if t not in ("json", doc.format)]
    if not targets:
        pytest.skip(f"{path.name} converts only to JSON and itself")
    target = targets[0]
    ext = next(f.extensions[0] for f in levelkit.formats() if f.name == target)
    out = tmp_path / "py" / f"{path.stem}.{ext}"
    out.parent.mkdir()
    done = doc.convert(path=out)
    cli = tmp_path / "cli" / out.name
    cli.parent.mkdir()
    binary = os.environ.get("LEVELKIT_BIN")
    if binary is None:
        pytest.skip("LEVELKIT_BIN (the levelkit binary) is not set")
    subprocess.run([binary, "convert", str(path), str(cli)], check=True, capture_output=True)
    # The same files with the same bytes.
    def files(folder):
        return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())

    py_files, cli_files = files(out.parent), files(cli.parent)
    assert py_files == cli_files
    for name in py_files:
        assert (out.parent / name).read_bytes() == (cli.parent / name).read_bytes(), name
    if done.main is not None:
        assert done.main == out.read_bytes()


def test_a_tile_edited_through_numpy_is_the_one_change():
    path = SAMPLES / "claw-like.wwd"
    doc = levelkit.open(path)
    planes = doc.planes
    assert list(planes) == ["Background", "Action", "Front"]
    action = planes["Action"]
    assert action.dtype == np.int32 and action.ndim == 2
    before = {k: v.copy() for k, v in planes.items()}
    y, x = 5, 7
    new = 12 if action[y, x] != 12 else 13
    action[y, x] = new
    edited = doc.write()
    assert edited != path.read_bytes()
    again = levelkit.open(edited, SAMPLES, name="edited.wwd")
    for name, cells in again.planes.items():
        expected = before[name]
        if name == "Action":
            expected = expected.copy()
            expected[y, x] = new
        assert np.array_equal(cells, expected), name
    # Through Tiled and back: the same edited level.
    tmx = again.convert("tmx")
    assert tmx.main is not None and b"<map " in tmx.main
    back = levelkit.open(tmx.main, SAMPLES, name="edited.tmx").convert("wwd")
    assert back.main == edited


def test_an_unedited_document_with_planes_read_writes_back_byte_for_byte():
    path = SAMPLES / "gruntz-like.wwd"
    doc = levelkit.open(path)
    assert doc.planes
    assert doc.write() == path.read_bytes()


def test_a_graal_board_is_a_numpy_array_too():
    path = SAMPLES / "island.graal"
    doc = levelkit.open(path)
    board = doc.planes["layer 0"]
    assert board.shape == (64, 64) and board.dtype == np.uint16
    assert doc.write() == path.read_bytes()
    board[3, 4] = 0x1FF if board[3, 4] != 0x1FF else 0x1FE
    edited = levelkit.open(doc.write(), name="edited.graal")
    assert edited.planes["layer 0"][3, 4] == board[3, 4]
    changed = edited.planes["layer 0"] != levelkit.open(path).planes["layer 0"]
    assert changed.sum() == 1


def test_planes_of_the_wrong_shape_are_refused():
    doc = levelkit.open(SAMPLES / "claw-like.wwd")
    doc.planes["Action"] = np.zeros((1, 1), dtype=np.int32)
    with pytest.raises(ValueError, match="cells"):
        doc.write()


def test_objects_and_the_model_are_plain_python_data():
    doc = levelkit.open(SAMPLES / "claw-like.wwd")
    logics = [o["logic"] for o in doc.objects]
    assert "TreasurePowerup" in logics
    model = doc.model
    model["planes"][1]["objects"][0]["x"] += 32
    doc.model = model
    assert levelkit.open(doc.write(), name="x.wwd").objects[0]["x"] == doc.objects[0]["x"]
    assert doc.write() != (SAMPLES / "claw-like.wwd").read_bytes()


def test_3d_meshes_are_arrays():
    doc = levelkit.open(SAMPLES / "cube.wings")
    meshes = doc.meshes
    assert len(meshes) == 2  # the cube and the pyramid
    cube = meshes[0]
    assert cube.positions.shape == (8, 3) and cube.positions.dtype == np.float64
    assert cube.face_sizes.tolist() == [4] * 6
    assert cube.face_corners.shape == (24,) and cube.face_corners.max() < 8
    assert cube.corner_uvs.shape == (24, 2)
    assert cube.triangles().shape == (12, 3)
    assert levelkit.open(SAMPLES / "claw-like.wwd").meshes == []
    # The same meshes the .glb has.
    glb = doc.convert("glb").main
    assert glb[:4] == b"glTF"


def test_errors_name_the_format_and_the_place():
    data = (SAMPLES / "claw-like.wwd").read_bytes()[:100]
    with pytest.raises(levelkit.Error) as caught:
        levelkit.open(data, name="cut.wwd")
    err = caught.value
    assert isinstance(err, levelkit.TruncatedError)
    assert err.format == "wwd" and err.kind == "truncated"
    assert err.offset is not None or err.path is not None
    with pytest.raises(levelkit.Error):
        levelkit.open(b"not a level at all", name="x.wwd")
    with pytest.raises(OSError):
        levelkit.open(SAMPLES / "no-such-file.wwd")
    with pytest.raises(levelkit.UnsupportedError):
        levelkit.open(SAMPLES / "cube.wings").convert("tmx")


def test_limits_bound_what_a_file_may_allocate():
    limits = levelkit.Limits(max_alloc=64)
    assert limits.max_alloc == 64 and "max_alloc=64" in repr(limits)
    with pytest.raises(levelkit.LimitError):
        levelkit.open(SAMPLES / "claw-like.wwd", limits=limits)


def test_rez_archives_are_mappings(tmp_path):
    rez = levelkit.Rez(SAMPLES / "claw.rez")
    paths = list(rez)
    assert len(rez) == len(paths) > 0
    first = paths[0]
    assert rez[first] == rez[first.lower()]
    assert first.upper() in rez
    with pytest.raises(KeyError):
        rez["NO/SUCH/FILE.PID"]
    assert rez.extract(tmp_path / "out") == len(rez)
    assert (tmp_path / "out" / first).read_bytes() == rez[first]
    with pytest.raises(FileExistsError):
        rez.extract(tmp_path / "out")
    assert rez.extract(tmp_path / "out", force=True) == len(rez)
    # The CLI extracts the same files.
    binary = os.environ.get("LEVELKIT_BIN")
    if binary:
        subprocess.run(
            [binary, "extract", str(SAMPLES / "claw.rez"), str(tmp_path / "cli")],
            check=True,
            capture_output=True,
        )
        for path in paths:
            assert (tmp_path / "cli" / path).read_bytes() == rez[path], path


def test_a_level_draws_with_the_game_files_of_a_rez(tmp_path):
    doc = levelkit.open(SAMPLES / "claw-like.wwd")
    plain = doc.convert("png")
    drawn = doc.convert("png", game=SAMPLES / "claw.rez")
    assert plain.main != drawn.main


def test_outputs_are_never_overwritten_without_force(tmp_path):
    doc = levelkit.open(SAMPLES / "cube.wings")
    out = tmp_path / "cube.glb"
    doc.convert(path=out)
    first = out.read_bytes()
    assert first[:4] == b"glTF"
    with pytest.raises(FileExistsError):
        doc.convert(path=out)
    doc.convert(path=out, force=True)
    assert out.read_bytes() == first
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    with pytest.raises(FileExistsError):
        doc.write(tmp_path / "cube.glb")


def test_side_files_go_beside_the_output(tmp_path):
    doc = levelkit.open(SAMPLES / "claw-like.wwd")
    done = doc.convert(path=tmp_path / "level.tmx")
    assert done.side, "a Tiled map made from a level has its tileset pictures"
    for name in done.side:
        assert (tmp_path / name).is_file(), name


@pytest.mark.skipif(CORPUS is None, reason="LEVELKIT_CORPUS is not set")
def test_one_real_file_of_each_format():
    seen, refused = {}, {}
    for path in sorted(CORPUS.rglob("*")):
        if "to-fix" in path.parts or "bad" in path.parts or not path.is_file():
            continue
        if "vchat" in path.parts and path.suffix.lower() == ".pal":
            continue  # V-Chat's own palettes, not the WAP32 `.pal` levelkit reads
        ext = path.suffix[1:].lower()
        if ext not in READABLE or ext in ("png", "gif") or ext in seen:
            continue
        if path.stat().st_size > 8 << 20:
            continue
        try:
            doc = levelkit.open(path)
        except levelkit.UnsupportedError:
            # Another format by the same extension (V-Chat's RIFF palettes are `.pal` too):
            # the next file of that extension is tried, and every extension must find one.
            refused.setdefault(ext, []).append(path)
            continue
        assert doc.write() == path.read_bytes(), path
        seen[ext] = path
    assert not set(refused) - set(seen), refused
    families = {"wwd", "pid", "pcx", "ani", "graal", "nw", "gani"}
    families |= {"wings", "wmp", "mdl", "wmb", "hmp", "wdb"}
    assert families <= set(seen), sorted(families - set(seen))
