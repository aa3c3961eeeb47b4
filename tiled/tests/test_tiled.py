#!/usr/bin/env python3
"""levelkit's Tiled extension, checked in Tiled itself: headless (Qt's offscreen platform), in a
throw-away home folder with nothing but what `levelkit tiled install` puts there.

    python3 tiled/tests/test_tiled.py LEVELKIT_BIN [CORPUS]

1. `levelkit tiled install` puts the extension where Tiled loads it; Tiled lists its formats.
2. Every sample level and every corpus level (.wwd, .graal, .zelda, .nw) opens in Tiled through
   the extension (`tiled --export-map tmx LEVEL out.tmx`) and saves back through it
   (`tiled --export-map <format> out.tmx LEVEL2`) to the same bytes; a level levelkit refuses
   gives Tiled's error with levelkit's reason.
3. Edits made by a Tiled script (harness.js: one tile, one object moved) come back as exactly
   those edits in the level.
4. A map that cannot become the level (an object of an unknown type, a Graal level resized to
   70 x 64) gives the reason as the format's error and leaves the level on disk as it was.
5. A levelkit that is missing or too old is a clear message in Tiled.
6. With the object types `levelkit tiled types` generates, a Claw logic's fields and a Graal
   link's destination are typed properties a script reads; a new object saved with only the
   fields its user set gets the others' defaults (and a WWD object the next free id).
7. Opening the largest corpus WWD through the extension takes under 1.5 times the two
   conversions alone (levelkit to .tmx, Tiled loading the .tmx); both times are printed.

Exit 0 when every check passed; the first failure stops it with a message.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
LEVEL_SUFFIXES = {".wwd": "wwd", ".graal": "graal", ".zelda": "zelda", ".nw": "nw"}


def fail(message):
    print(f"tiled: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


class Env:
    def __init__(self, levelkit, root):
        self.levelkit = str(levelkit)
        self.root = root
        self.home = root / "home"
        runtime = root / "runtime"
        runtime.mkdir(mode=0o700, parents=True)
        self.home.mkdir()
        self.env = dict(os.environ)
        for key in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "LEVELKIT_TILED_CACHE"):
            self.env.pop(key, None)
        self.env.update(
            HOME=str(self.home),
            QT_QPA_PLATFORM="offscreen",
            XDG_RUNTIME_DIR=str(runtime),
            PATH=str(Path(self.levelkit).parent) + os.pathsep + self.env.get("PATH", ""),
        )

    def run(self, args, check_exit=True, timeout=120):
        result = subprocess.run(
            args, env=self.env, capture_output=True, text=True, timeout=timeout, cwd=self.root
        )
        if check_exit and result.returncode != 0:
            fail(f"{' '.join(map(str, args))}: exit {result.returncode}\n{result.stderr}")
        return result

    def tiled(self, *args, check_exit=True):
        return self.run(["tiled", *map(str, args)], check_exit=check_exit)

    def lk(self, *args, check_exit=True):
        return self.run([self.levelkit, *map(str, args)], check_exit=check_exit)

    def harness(self, job):
        """Run one harness job; its result."""
        name = self.root / f"job-{time.monotonic_ns()}.lktest"
        Path(str(name) + ".json").write_text(json.dumps(job))
        self.tiled("--export-map", "lktest", self.root / "any.tmx", name)
        return json.loads(name.read_text())

    def dump(self, path):
        return json.loads(self.lk("dump", "--json", path).stdout)["model"]


def differences(a, b, path=""):
    """Every leaf that differs between two JSON values, as (path, before, after)."""
    if type(a) is not type(b):
        return [(path, a, b)]
    if isinstance(a, dict):
        out = []
        for key in sorted(set(a) | set(b)):
            out += differences(a.get(key), b.get(key), f"{path}.{key}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [(path + ".len", len(a), len(b))]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [(path, a, b)]


def level_changes(env, before, after):
    """What an edit changed in a level's meaning: the model's leaves, without what only
    records how the file was stored (its compressed stream, size and checksum)."""
    a, b = env.dump(before), env.dump(after)
    for model in (a, b):
        for key in ("compression", "source", "layout"):
            model.pop(key, None)
    return differences(a, b)


def moved(changes):
    """How far the one object these changes belong to moved, or None when they are not one
    object's position: `x` and `y` leaves of one object, or a binary Graal link, whose dump is
    one string "dest x y width height dest_x dest_y"."""
    if len(changes) == 1 and isinstance(changes[0][1], str):
        before, after = changes[0][1].split(), changes[0][2].split()
        if len(before) != len(after) or before[3:] != after[3:] or before[0] != after[0]:
            return None
        return (float(after[1]) - float(before[1]), float(after[2]) - float(before[2]))
    owners = {c[0].rsplit(".", 1)[0] for c in changes}
    if len(owners) != 1 or not all(c[0].endswith((".x", ".y")) for c in changes):
        return None
    delta = {c[0].rsplit(".", 1)[1]: c[2] - c[1] for c in changes}
    return (delta.get("x", 0), delta.get("y", 0))


def install(env):
    report = json.loads(env.lk("tiled", "install", "--json").stdout)
    installed = Path(report["installed"])
    check(
        installed == env.home / ".config/tiled/extensions/levelkit.js",
        f"installed at {installed}, not in Tiled's extensions folder",
    )
    check(
        installed.read_bytes() == (REPO / "tiled/levelkit.js").read_bytes(),
        "the installed extension is not tiled/levelkit.js",
    )
    again = json.loads(env.lk("tiled", "install", "--json").stdout)
    check(again["changed"] is False, "a second install rewrote the same extension")
    shutil.copy(HERE / "harness.js", installed.parent / "harness.js")
    (env.root / "any.tmx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="orthogonal" '
        'renderorder="right-down" width="1" height="1" tilewidth="16" tileheight="16" '
        'infinite="0" nextlayerid="1" nextobjectid="1"/>\n'
    )
    formats = env.tiled("--export-formats").stdout.split()
    for name in ("wwd", "graal", "zelda", "nw"):
        check(name in formats, f"tiled --export-formats does not list {name}: {formats}")
    print(f"tiled: extension installed at {installed}; Tiled lists wwd, graal, zelda, nw")


def finding_levelkit(env):
    """A levelkit that is not there, or too old, is a clear message in Tiled."""
    settings = env.home / ".config/tiled/extensions/levelkit.json"
    old = env.root / "old-levelkit"
    old.write_text("#!/bin/sh\necho 'levelkit 0.0.9'\n")
    old.chmod(0o755)
    level = REPO / "samples/island.graal"
    cases = [
        (env.root / "no-such-levelkit", "was not found"),
        (old, "is levelkit 0.0.9; this extension needs"),
    ]
    for program, message in cases:
        settings.write_text(json.dumps({"levelkit": str(program)}))
        opened = env.tiled("--export-map", "tmx", level, env.root / "x.tmx", check_exit=False)
        check(opened.returncode != 0 and message in opened.stderr, f"{program}: {opened.stderr}")
        print(f"tiled: {opened.stderr.strip().splitlines()[-1]}")
    settings.unlink()


def levels(corpus):
    found = sorted(p for p in (REPO / "samples").iterdir() if p.suffix.lower() in LEVEL_SUFFIXES)
    if corpus:
        found += sorted(
            p
            for p in Path(corpus).rglob("*")
            if p.suffix.lower() in LEVEL_SUFFIXES and "to-fix" not in p.parts and p.is_file()
        )
    return found


def round_trips(env, corpus):
    same = refused = 0
    work = env.root / "trips"
    work.mkdir()
    for i, level in enumerate(levels(corpus)):
        fmt = LEVEL_SUFFIXES[level.suffix.lower()]
        tmx = work / f"{i}.tmx"
        back = work / f"{i}{level.suffix}"
        opened = env.tiled("--export-map", "tmx", level, tmx, check_exit=False)
        if env.lk("validate", level, check_exit=False).returncode != 0:
            # levelkit refuses the file: Tiled must say why, not open something else.
            check(opened.returncode != 0, f"{level}: levelkit refuses it, but Tiled opened it")
            check("levelkit:" in opened.stderr, f"{level}: no levelkit reason: {opened.stderr}")
            refused += 1
            continue
        check(opened.returncode == 0, f"{level}: Tiled could not open it: {opened.stderr}")
        env.tiled("--export-map", fmt, tmx, back)
        check(back.read_bytes() == level.read_bytes(), f"{level}: saved through Tiled, bytes differ")
        same += 1
    # A Zelda-era level (Z3-V1.0x) under the .zelda name it had in its day, through the
    # extension's "zelda" format: the corpus keeps it as .graal.
    zelda = [p for p in levels(corpus) if p.suffix.lower() == ".graal" and p.read_bytes()[:3] == b"Z3-"]
    for level in zelda[:1]:
        renamed = work / (level.stem + ".zelda")
        shutil.copy(level, renamed)
        env.tiled("--export-map", "tmx", renamed, work / "zelda.tmx")
        env.tiled("--export-map", "zelda", work / "zelda.tmx", work / "back.zelda")
        check((work / "back.zelda").read_bytes() == level.read_bytes(), f"{level} as .zelda: bytes differ")
        same += 1
    check(same > 0, "no level was tried")
    leftovers = list((env.home / ".cache/levelkit/tiled/save").glob("*"))
    check(not leftovers, f"temporary maps left in the cache: {leftovers}")
    print(
        f"tiled: {same} levels opened in Tiled and saved back byte for byte; "
        f"{refused} that levelkit refuses gave levelkit's reason"
    )


def game_graphics(env):
    """A project's levelkit-tiled.json points the extension at the game's REZ: the map opens
    with the game's tiles and object sprites, and saves back to the same bytes."""
    work = env.root / "game" / "levels" / "custom"
    work.mkdir(parents=True)
    shutil.copy(REPO / "samples/claw.rez", env.root / "game" / "CLAW.REZ")
    (env.root / "game" / "levelkit-tiled.json").write_text(json.dumps({"wwd": {"game": "CLAW.REZ"}}))
    level = work / "claw-like.wwd"
    shutil.copy(REPO / "samples/claw-like.wwd", level)
    tmx = env.root / "game" / "opened.tmx"
    opened = env.tiled("--export-map", "tmx", level, tmx)
    text = tmx.read_text()
    check('name="sprites"' in text, "no object sprites in the map opened with the game's REZ")
    check("levelkit.sprite_dx" in text, "the objects are not the game's sprites")
    back = work / "back.wwd"
    env.tiled("--export-map", "wwd", tmx, back)
    check(back.read_bytes() == level.read_bytes(), "the level with the game's graphics did not come back")
    check(opened.returncode == 0, "not opened")
    print("tiled: with levelkit-tiled.json naming the game's REZ, the level opens with its sprites "
          "and saves back byte for byte")


def edits(env):
    work = env.root / "edits"
    work.mkdir()
    cases = [
        (
            "claw-like.wwd",
            "wwd",
            [
                {"op": "tile", "layer": "Action", "x": 3, "y": 4, "from": [0, 31]},
                {"op": "move", "layer": "Action objects", "index": 0, "dx": 64, "dy": -32},
            ],
        ),
        (
            "island.graal",
            "graal",
            [
                {"op": "tile", "layer": "layer 0", "x": 10, "y": 10, "from": [0, 0]},
                {"op": "move", "layer": "objects", "index": 1, "dx": 32, "dy": 16},
            ],
        ),
        (
            "village.nw",
            "nw",
            [
                {"op": "tile", "layer": "layer 0", "x": 5, "y": 6, "from": [0, 0]},
                {"op": "move", "layer": "objects", "index": 0, "dx": 16, "dy": 0},
            ],
        ),
    ]
    for name, fmt, steps in cases:
        source = REPO / "samples" / name
        saved = work / name
        result = env.harness({"format": fmt, "level": str(source), "save": str(saved), "steps": steps})
        check(result["error"] is None, f"{name}: the edited map did not save: {result['error']}")
        check(result["source"] == str(source), f"{name}: levelkit.source is {result['source']}")
        check(result["actions"] == ["LevelkitGame", "LevelkitProgram"], f"actions: {result['actions']}")
        changes = level_changes(env, source, saved)
        tile_changes = [c for c in changes if "tiles" in c[0]]
        object_changes = [c for c in changes if c not in tile_changes]
        check(len(tile_changes) == 1, f"{name}: not exactly one tile changed: {changes}")
        move = steps[1]
        # WWD positions are pixels, Graal positions tiles of 16 pixels.
        scale = 1 if fmt == "wwd" else 16
        check(moved(object_changes) == (move["dx"] / scale, move["dy"] / scale),
              f"{name}: the move is not the one object moved by ({move['dx']}, {move['dy']}) "
              f"pixels: {object_changes}")
        print(f"tiled: {name}: a Tiled script's edit came back as exactly that edit: {changes}")


def refusals(env):
    work = env.root / "refusals"
    work.mkdir()
    level = work / "island.graal"
    shutil.copy(REPO / "samples/island.graal", level)
    original = level.read_bytes()
    stamp = level.stat().st_mtime_ns
    cases = [
        ([{"op": "type", "layer": "objects", "index": 4, "type": "chestx"}], 'unknown object type "chestx"'),
        ([{"op": "resize", "layer": "layer 0", "width": 70, "height": 64}], "64 x 64"),
    ]
    for steps, reason in cases:
        result = env.harness({"format": "graal", "level": str(level), "save": str(level), "steps": steps})
        check(result["error"] and reason in result["error"], f"no {reason!r} in the error: {result['error']}")
        check(level.read_bytes() == original and level.stat().st_mtime_ns == stamp, "the level changed")
        print(f"tiled: refused with Tiled's error message: {result['error']}")
    # The same through headless Tiled's own export: exit 1, the level untouched.
    tmx = work / "bad.tmx"
    env.tiled("--export-map", "tmx", level, tmx)
    text = tmx.read_text().replace('type="chest"', 'type="chestx"', 1)
    tmx.write_text(text)
    exported = env.tiled("--export-map", "graal", tmx, level, check_exit=False)
    check(exported.returncode != 0, "Tiled saved a map levelkit cannot write")
    check(level.read_bytes() == original and level.stat().st_mtime_ns == stamp, "the level changed")
    check(not list(work.glob(".levelkit-*")), "a temporary file was left beside the level")
    print("tiled: `tiled --export-map graal` of a bad map: exit 1, the level unchanged")


def types(env, corpus):
    project = env.root / "project" / "levels.tiled-project"
    project.parent.mkdir()
    args = ["tiled", "types", project]
    if corpus and (Path(corpus) / "wwd").is_dir():
        args += ["--levels", Path(corpus) / "wwd"]
    env.lk(*args)
    data = json.loads(project.read_text())
    check(data["objectTypesFile"] == "levelkit-objecttypes.xml", "the project names no object types")
    names = {t["name"] for t in data["propertyTypes"]}
    check({"link", "sign", "chest", "baddy", "npc", "TreasurePowerup", "Officer"} <= names, f"types: {names}")
    # Tiled 1.8 without a project reads the object types from its data folder.
    data_dir = env.home / ".local/share/tiled"
    data_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(project.parent / "levelkit-objecttypes.xml", data_dir / "objecttypes.xml")

    def saved_with(fmt, sample, saved, steps):
        """Open a sample through the extension, do `steps`, save it as `saved`."""
        job = {"format": fmt, "level": str(REPO / "samples" / sample), "save": str(saved)}
        result = env.harness({**job, "steps": steps})
        check(result["error"] is None, f"{sample} with a new object did not save: {result['error']}")
        return result

    saved = env.root / "project" / "claw-new.wwd"
    result = saved_with("wwd", "claw-like.wwd", saved, [
        {"op": "resolved", "layer": "Action objects", "index": 0},
        {"op": "add", "layer": "Action objects", "type": "Officer", "x": 320, "y": 640,
         "properties": {"health": 30}},
        {"op": "resolved", "layer": "Action objects", "index": -1},
    ])
    existing, _, new = result["steps"]
    check(existing["kinds"].get("score") == "number", f"score is not a number: {existing['kinds']}")
    check(new["own"] == {"health": 30}, f"the new object holds {new['own']}")
    check(len(new["resolved"]) >= 45, f"the Officer type offers {len(new['resolved'])} fields")
    check(new["kinds"]["speed_x"] == "number" and new["kinds"]["hit_rect"] == "string", "untyped fields")
    model = env.dump(saved)
    objects = [o for p in model["planes"] for o in p["objects"]]
    added = objects[-1]
    check(added["logic"] == "Officer" and added["health"] == 30 and added["score"] == 0, f"{added}")
    check(added["id"] == max(o["id"] for o in objects[:-1]) + 1, "the new object's id is not the next")
    print(
        f"tiled: a Claw object shows {len(existing['resolved'])} typed fields; a new Officer "
        f"saved with health 30 has id {added['id']} and every other field at its default"
    )

    saved = env.root / "project" / "island-new.graal"
    result = saved_with("graal", "island.graal", saved, [
        {"op": "add", "layer": "objects", "type": "link", "x": 160, "y": 320,
         "width": 32, "height": 16, "properties": {"dest": "cave.nw"}},
        {"op": "resolved", "layer": "objects", "index": -1},
    ])
    link = result["steps"][1]
    check(link["resolved"] == {"dest": "cave.nw", "dest_x": "0", "dest_y": "0"}, f"{link['resolved']}")
    check(set(link["kinds"].values()) == {"string"}, f"the link's fields: {link['kinds']}")
    links = env.dump(saved)["links"]
    # A binary level's link: "dest x y width height dest_x dest_y", in tiles.
    check(links[-1] == "cave.nw 10 20 2 1 0 0", f"the new link is {links[-1]!r}")
    print(f"tiled: a new Graal link shows its destination as typed fields {link['kinds']} and saves")


def timing(env, corpus):
    if not corpus:
        print("tiled: no corpus, no timing")
        return
    wwds = [p for p in levels(corpus) if p.suffix.lower() == ".wwd"]
    wwds = [p for p in wwds if env.lk("validate", p, check_exit=False).returncode == 0]
    largest = max(wwds, key=lambda p: p.stat().st_size)
    work = env.root / "timing"
    work.mkdir()

    def clock(args):
        start = time.perf_counter()
        env.run(args)
        return time.perf_counter() - start

    through, alone = [], []
    for i in range(5):
        through.append(clock(["tiled", "--export-map", "tmx", str(largest), str(work / f"t{i}.tmx")]))
        convert = clock([env.levelkit, "convert", str(largest), str(work / f"c{i}.tmx"), "--force"])
        load = clock(["tiled", "--export-map", "tmx", str(work / f"c{i}.tmx"), str(work / f"l{i}.tmx")])
        alone.append(convert + load)
    a, b = statistics.median(through), statistics.median(alone)
    print(
        f"tiled: {largest.name} ({largest.stat().st_size:,} bytes): through the extension "
        f"{a * 1000:.0f} ms, the two conversions alone {b * 1000:.0f} ms (ratio {a / b:.2f})"
    )
    check(a < 1.5 * b, "opening through the extension takes 1.5 times the conversions or more")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    levelkit = Path(sys.argv[1]).resolve()
    corpus = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    if shutil.which("tiled") is None:
        fail("tiled is not installed (Debian: apt-get install tiled)")
    with tempfile.TemporaryDirectory(prefix="levelkit-tiled-") as tmp:
        env = Env(levelkit, Path(tmp))
        install(env)
        finding_levelkit(env)
        round_trips(env, corpus)
        game_graphics(env)
        edits(env)
        refusals(env)
        types(env, corpus)
        timing(env, corpus)
    print("tiled: all checks passed")


if __name__ == "__main__":
    main()
