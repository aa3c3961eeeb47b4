#!/usr/bin/env bash
# Build the browser viewer into target/site/ (or $1; target/ is $CARGO_TARGET_DIR when set): levelkit compiled to WebAssembly
# (crates/levelkit-wasm, profile wasm-release: opt-level "z", LTO), its JavaScript glue made by
# wasm-bindgen-cli of exactly the version Cargo.lock pins, the page (web/*.html, *.js, *.css)
# and three.js from web/package-lock.json. Serve the folder with `levelkit view` (or any static
# server: `python3 -m http.server -d target/site`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$target"
target="$(cd "$target" && pwd)"
site="${1:-$target/site}"
mkdir -p "$site"
site="$(cd "$site" && pwd)"

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true

# wasm-bindgen-cli must be the wasm-bindgen version in Cargo.lock.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
tools="$target/tools"
bindgen="$tools/bin/wasm-bindgen"
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version | awk '{print $2}')" != "$version" ]; then
  echo "installing wasm-bindgen-cli $version into $tools"
  # Its published lock file first; some releases' lock files name a yanked crate (webpki-roots),
  # so that attempt's errors are kept quiet and the install is retried with current versions.
  log="$(mktemp)"
  if ! cargo install wasm-bindgen-cli --version "$version" --locked --root "$tools" >"$log" 2>&1; then
    echo "wasm-bindgen-cli $version: its lock file does not resolve; installing with current dependency versions"
    cargo install wasm-bindgen-cli --version "$version" --root "$tools"
  fi
  rm -f "$log"
fi

# The npm packages web/package-lock.json pins: three.js (for the page) and binaryen (wasm-opt,
# built to WebAssembly and run by node: Debian's wasm-opt 108 breaks wasm-bindgen's externref
# table; the npm package is the one binaryen release the lock file names, on every machine).
if ! [ -f web/node_modules/.package-lock.json ] ||
   [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --ignore-scripts --no-audit --no-fund)
fi

cargo build -p levelkit-wasm --target wasm32-unknown-unknown --profile wasm-release
wasm="$target/wasm32-unknown-unknown/wasm-release/levelkit_wasm.wasm"
rm -rf "$site/pkg"
"$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
  --out-dir "$site/pkg" "$wasm"

# Shrink after wasm-bindgen (whose output uses reference types for its externref table): the
# features enabled are the ones rustc's wasm32-unknown-unknown target emits.
bg="$site/pkg/levelkit_wasm_bg.wasm"
node web/node_modules/binaryen/bin/wasm-opt -Oz --strip-debug --strip-producers \
  --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  "$bg" -o "$bg.opt"
mv "$bg.opt" "$bg"

# three.js, pinned by web/package-lock.json; only the files the page imports are copied.
three=web/node_modules/three
rm -rf "$site/vendor"
mkdir -p "$site/vendor/three/addons/loaders" "$site/vendor/three/addons/controls" "$site/vendor/three/addons/utils"
cp "$three/build/three.module.js" "$three/build/three.core.js" "$site/vendor/three/"
cp "$three/examples/jsm/loaders/GLTFLoader.js" "$site/vendor/three/addons/loaders/"
cp "$three/examples/jsm/controls/OrbitControls.js" "$site/vendor/three/addons/controls/"
cp "$three/examples/jsm/utils/BufferGeometryUtils.js" "$site/vendor/three/addons/utils/"
cp "$three/LICENSE" "$site/vendor/three/"

cp web/index.html web/app.js web/worker.js web/view3d.js web/style.css "$site/"

size=$(stat -c %s "$site/pkg/levelkit_wasm_bg.wasm")
gz=$(gzip -9 -c "$site/pkg/levelkit_wasm_bg.wasm" | wc -c)
echo "site: $site (levelkit_wasm_bg.wasm: $size bytes, $gz gzipped)"
