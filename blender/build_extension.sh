#!/usr/bin/env bash
# Package the add-on as a Blender 4.2+ extension with the levelkit wheel inside:
#   blender/build_extension.sh            -> target/levelkit_io-<version>.zip
# Install it in Blender with Edit > Preferences > Get Extensions > Install from Disk, or
#   blender --command extension install-file -r user_default target/levelkit_io-<version>.zip
# Needs maturin (pip install "maturin>=1.9,<2") and Rust.
set -euo pipefail
cd "$(dirname "$0")/.."
maturin build --release -m crates/levelkit-py/Cargo.toml -o target/wheels
wheel=$(ls -t target/wheels/levelkit-*-abi3-*.whl | head -1)
version=$(sed -n 's/^    "version": (\([0-9]*\), \([0-9]*\), \([0-9]*\)),/\1.\2.\3/p' blender/levelkit_io/__init__.py)
stage=target/extension/levelkit_io
rm -rf "$stage"
mkdir -p "$stage/wheels"
cp blender/levelkit_io/__init__.py "$stage/"
cp "$wheel" "$stage/wheels/"
cat > "$stage/blender_manifest.toml" <<MANIFEST
schema_version = "1.0.0"
id = "levelkit_io"
version = "$version"
name = "levelkit formats"
tagline = "Import Wings 3D, 3D GameStudio and V-Chat files; export .wings and .wdb"
maintainer = "levelkit"
type = "add-on"
blender_version_min = "4.2.0"
license = ["SPDX:MIT"]
tags = ["Import-Export"]
wheels = ["./wheels/$(basename "$wheel")"]
[permissions]
files = "Import and export the files the user picks"
MANIFEST
out="$PWD/target/levelkit_io-$version.zip"
rm -f "$out"
(cd "$stage" && python3 -m zipfile -c "$out" __init__.py blender_manifest.toml wheels)
echo "$out"
