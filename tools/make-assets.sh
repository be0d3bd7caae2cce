#!/bin/sh
# Regenerates meshes/ (mannequin sequences and garments) with tools/make_assets; builds it first if needed.
set -e; root=$(cd "$(dirname "$0")/.." && pwd); build=${BUILD_DIR:-$root/build}; [ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build "$build" --target make_assets -j2 >/dev/null && "$build/make_assets" "$root/meshes" "$@"
