#!/usr/bin/env python3
"""A fuzzing campaign: seed every target from real and hostile files, run each for a while, and
report runs per second and findings.

    python3 fuzz/campaign.py --seconds 1800 rez_read pid ani   # 30 minutes each
    python3 fuzz/campaign.py --seconds 600                      # every target, 10 minutes each

Seeds come from `samples/`, `$LEVELKIT_CORPUS` (default `../shared/corpus`) and
`../shared/hostile`, by file extension (files over 1 MiB are left out); the `export` target's
seeds start with the byte that picks their file name (see `fuzz_targets/export.rs`). Corpora
live in `fuzz/corpus/<target>/` (not committed), findings in `fuzz/artifacts/<target>/`. The
report is printed as a table and written to `fuzz/campaign-report.json`. Runs with
`RUSTC_BOOTSTRAP=1 cargo fuzz` on the stable toolchain, as the README says.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
SHARED = ROOT.parent / "shared"

# Target -> the file extensions that seed it.
SEEDS = {
    "wwd_read": ["wwd"],
    "wwd_roundtrip": ["wwd"],
    "graal_read": ["graal", "zelda"],
    "nw_read": ["nw"],
    "gani_read": ["gani"],
    "gani_render": ["gani"],
    "tiled_read": ["tmx", "tmj", "tsx"],
    "etf_decode": ["wings"],
    "wings_read": ["wings"],
    "gltf_read": ["gltf", "glb"],
    "obj_read": ["obj"],
    "wmp_text_read": ["wmp"],
    "wmpb_read": ["wmp"],
    "wdb_read": ["wdb"],
    "hmp_read": ["hmp"],
    "ani": ["ani"],
    "pid": ["pid", "pcx", "pal", "png"],
    "rez_read": ["rez"],
    "wmb": ["wmb"],
    "mdl": ["mdl"],
    "gmap_read": ["gmap"],
    "gmap_world": ["world"],
    "export": [],
}

# The names `fuzz_targets/export.rs` picks by its first byte, in its order.
EXPORT_NAMES = [
    "wwd", "pid", "pcx", "pal", "ani", "gani", "graal", "zelda", "nw", "gmap", "wings", "mdl",
    "wmb", "hmp", "wmp", "wdb", "tmx", "tmj", "gltf", "obj", "rez", "wad",
]

MAX_SEED = 1 << 20

# Where the built targets are copied for the campaign.
BUILT = FUZZ / "target" / "x86_64-unknown-linux-gnu" / "release"
BIN = FUZZ / "target" / "campaign-bin"


def seed_files():
    corpus = Path(os.environ.get("LEVELKIT_CORPUS") or SHARED / "corpus")
    if not corpus.is_absolute():
        corpus = ROOT / corpus
    for top in [ROOT / "samples", corpus, SHARED / "hostile"]:
        if not top.is_dir():
            print(f"campaign: no {top}; its files are not seeds", file=sys.stderr)
            continue
        for path in sorted(top.rglob("*")):
            if path.is_file() and path.stat().st_size <= MAX_SEED:
                yield path


def seed(target, files):
    out = FUZZ / "corpus" / target
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for path in files:
        ext = path.suffix.lower().lstrip(".")
        if target == "export":
            if ext not in EXPORT_NAMES:
                continue
            data = bytes([EXPORT_NAMES.index(ext)]) + path.read_bytes()
        elif ext in SEEDS[target]:
            data = path.read_bytes()
        else:
            continue
        (out / f"seed-{n:04}-{path.name}").write_bytes(data)
        n += 1
    return n


def run(target, seconds, env):
    """Fuzz `target` for `seconds` of wall time. libFuzzer stops at its first finding; the run
    is started again (the corpus kept) until the time is spent, so one finding does not end a
    long run."""
    artifacts = FUZZ / "artifacts" / target
    before = set(artifacts.glob("*")) if artifacts.is_dir() else set()
    started = time.monotonic()
    runs, cov, exits, logs = 0, None, [], []
    while True:
        left = round(seconds - (time.monotonic() - started))
        if left < 5:
            break
        # The binary `cargo fuzz build` made, copied aside (see `main`): `cargo fuzz run` would
        # build again whenever the sources changed since, on the fuzzing clock.
        artifacts.mkdir(parents=True, exist_ok=True)
        cmd = [
            str(BIN / target), str(FUZZ / "corpus" / target), f"-artifact_prefix={artifacts}/",
            f"-max_total_time={left}", "-max_len=262144", "-rss_limit_mb=2048",
            "-timeout=10", "-print_final_stats=1",
        ]
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        log = proc.stdout + proc.stderr
        logs.append(log)
        exits.append(proc.returncode)
        done = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
        runs += int(done[-1]) if done else 0
        found = re.findall(r"cov: (\d+)", log)
        cov = int(found[-1]) if found else cov
        if proc.returncode == 0 or len(exits) >= 20:
            break
    wall = time.monotonic() - started
    (FUZZ / "artifacts").mkdir(exist_ok=True)
    # cargo-fuzz prints a failing input's bytes as one huge line: keep the rest.
    log = "\n".join(logs)
    kept = "\n".join(l if len(l) < 4000 else l[:200] + " …" for l in log.splitlines())
    (FUZZ / "artifacts" / f"{target}.log").write_text(kept[-400000:])
    after = set(artifacts.glob("*")) if artifacts.is_dir() else set()
    found = sorted(str(p.relative_to(ROOT)) for p in after - before)
    return {
        "target": target,
        "seconds": round(wall),
        "runs": runs,
        "runs_per_s": round(runs / wall, 1) if wall else 0,
        "coverage": cov,
        "exit": max(exits) if exits else None,
        "starts": len(exits),
        "findings": found,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--report", type=Path, default=FUZZ / "campaign-report.json",
                        help="the JSON report to update (one entry per target)")
    parser.add_argument("targets", nargs="*")
    args = parser.parse_args()
    targets = args.targets or list(SEEDS)
    unknown = [t for t in targets if t not in SEEDS]
    if unknown:
        parser.error(f"unknown targets: {', '.join(unknown)}")
    if not shutil.which("cargo-fuzz"):
        sys.exit("campaign: cargo-fuzz is not installed (cargo install cargo-fuzz)")
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    files = list(seed_files())
    subprocess.run(["cargo", "fuzz", "build", "--fuzz-dir", str(FUZZ)], cwd=ROOT, env=env,
                   check=True)
    BIN.mkdir(parents=True, exist_ok=True)
    for target in targets:
        shutil.copy2(BUILT / target, BIN / target)
    # One entry per target: a run replaces that target's earlier entry, others are kept.
    path = args.report
    for target in targets:
        seeds = seed(target, files)
        result = run(target, args.seconds, env)
        result["seeds"] = seeds
        # Read again: another campaign may share the report.
        report = json.loads(path.read_text()) if path.is_file() else []
        report = [r for r in report if r["target"] != target] + [result]
        print(f"{target:14} {result['seconds']:6} s {result['runs']:10} runs "
              f"{result['runs_per_s']:9} runs/s  seeds {seeds:4}  exit {result['exit']}  "
              f"findings {len(result['findings'])}", flush=True)
        path.write_text(json.dumps(report, indent=2))
    return 1 if any(r["findings"] for r in report if r["target"] in targets) else 0


if __name__ == "__main__":
    sys.exit(main())
