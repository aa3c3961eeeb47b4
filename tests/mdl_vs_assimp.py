#!/usr/bin/env python3
"""Issue 27's side by side: the ten largest corpus MDLs to `.glb`, levelkit against Assimp.

    python3 tests/mdl_vs_assimp.py target/release/levelkit [CORPUS] [RUNS]

Whole processes, RUNS runs each (21 unless given), medians, the output a new file each time;
Assimp as `assimp export FILE OUT.glb -fglb2`. Prints each model's times, Assimp's exit status
(a negative one is a signal: Assimp 5.2 crashes on some of these) and the ratio. CORPUS defaults
to $LEVELKIT_CORPUS, else ../shared/corpus. Needs `assimp` (Debian's assimp-utils).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def median_ms(command, out, runs):
    times, code = [], 0
    for _ in range(runs):
        if out.exists():
            out.unlink()
        start = time.perf_counter()
        code = subprocess.run(command, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, code


def main():
    binary = sys.argv[1]
    root = Path(__file__).resolve().parent.parent
    corpus = Path(sys.argv[2] if len(sys.argv) > 2 else
                  os.environ.get("LEVELKIT_CORPUS") or root.parent / "shared" / "corpus")
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 21
    models = sorted((p for p in corpus.rglob("*") if p.suffix.lower() == ".mdl"
                     and p.is_file() and "to-fix" not in p.parts),
                    key=lambda p: p.stat().st_size, reverse=True)[:10]
    worst = 0.0
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.glb"
        for model in models:
            theirs, code = median_ms(["assimp", "export", str(model), str(out), "-fglb2"],
                                     out, runs)
            ours, ours_code = median_ms([binary, "convert", str(model), str(out)], out, runs)
            ratio = ours / theirs
            note = "" if code == 0 else f"  (assimp exit {code}: no export to compare)"
            if code == 0:
                worst = max(worst, ratio)
            print(f"{model.name:18} {model.stat().st_size:>8} B  levelkit {ours:6.2f} ms "
                  f"(exit {ours_code})  assimp {theirs:6.2f} ms  ratio {ratio:.2f}{note}",
                  flush=True)
    print(f"largest ratio where assimp exported: {worst:.2f}")


if __name__ == "__main__":
    main()
