#!/usr/bin/env python3
"""The peak memory table of issue 27: peak RSS of `levelkit convert` for the largest corpus file
of each format, to each target the CLI offers, against the bound 4 x input + 16 MiB.

    python3 tests/peak.py target/release/levelkit [CORPUS]

CORPUS defaults to $LEVELKIT_CORPUS, else ../shared/corpus. Needs GNU time (/usr/bin/time).
Targets the CLI refuses as a usage error (exit 2) are not offered and left out.
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP_EXT = {"md", "tsv", "txt", "png", "gif", "bmp", "jpg", "pal", "adf"}
TARGETS = ["json", "tmx", "tmj", "png", "glb", "gltf", "obj", "gif", "wings", "wdb"]


def main():
    binary = sys.argv[1]
    root = Path(__file__).resolve().parent.parent
    corpus = Path(sys.argv[2] if len(sys.argv) > 2 else
                  os.environ.get("LEVELKIT_CORPUS") or root.parent / "shared" / "corpus")
    largest = {}
    for p in corpus.rglob("*"):
        if not p.is_file() or {"to-fix", "decoded", "decoded-alpha"} & set(p.parts):
            continue
        ext = p.suffix.lower().lstrip(".")
        if ext in SKIP_EXT:
            continue
        if ext not in largest or p.stat().st_size > largest[ext].stat().st_size:
            largest[ext] = p
    over = 0
    for ext, path in sorted(largest.items()):
        size = path.stat().st_size
        for target in TARGETS:
            with tempfile.TemporaryDirectory() as d:
                out = Path(d) / f"out.{target}"
                r = subprocess.run(["/usr/bin/time", "-f", "%M %e", binary, "convert", str(path),
                                    str(out)], capture_output=True, text=True)
            if r.returncode == 2:
                continue
            kb, secs = r.stderr.strip().splitlines()[-1].split()
            peak = int(kb) * 1024
            ok = peak <= 4 * size + 16 * 2**20
            over += not ok
            print(f"{ext:6} {path.name:28} {size / 2**20:7.2f} MiB -> {target:5} exit "
                  f"{r.returncode}  peak {peak / 2**20:7.1f} MiB  {float(secs):5.2f} s  "
                  f"{'ok' if ok else 'OVER'}", flush=True)
    print(f"{over} over the bound")


if __name__ == "__main__":
    main()
