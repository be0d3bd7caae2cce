#!/usr/bin/env bash
# The README's first command: install what is needed, build, run the default shot and render it to PNG.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
CMAKE_ARGS="-DADACLOTH_TESTS=OFF -DADACLOTH_BENCHMARKS=OFF" bash tools/build.sh adacloth
./build/adacloth simulate conf/drape.json -o out/drape
./build/adacloth render out/drape
echo
echo "frames (OBJ):  $(pwd)/out/drape/frames"
echo "renders (PNG): $(pwd)/out/drape/render"
