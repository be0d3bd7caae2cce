#!/usr/bin/env bash
# Configures and builds adacloth in Release into build/ (or the folder given as $BUILD_DIR).
#   tools/build.sh [cmake targets...]     default: everything
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} >/dev/null
if [[ $# -gt 0 ]]; then
  for t in "$@"; do cmake --build "$build" --target "$t" -j "$(nproc)"; done
else
  cmake --build "$build" -j "$(nproc)"
fi
