#!/usr/bin/env bash
# Rewrites the references of the regression scenes (tests/regression/<scene>/summary.json and frame_<n>.png) from a
# fresh run, and prints what moved compared with the old ones. Review the changes (git diff) before committing.
#   tools/refresh-regression.sh              every scene of tests/regression/scenes.json
#   tools/refresh-regression.sh drape flag   only these scenes
# Builds adacloth and the tests in Release into build/ (or $BUILD_DIR) first. A scene whose run fails, writes a
# non-finite value or differs between thread counts keeps its old references (exit code 1).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
if [[ $# -eq 0 ]]; then
  spec="[scene]"
else
  # Catch2 test names "scene <name>", separated by commas (= or).
  spec=""
  for scene in "$@"; do
    grep -q "\"name\": *\"${scene}\"" tests/regression/scenes.json || {
      echo "refresh-regression.sh: no scene '${scene}' in tests/regression/scenes.json" >&2; exit 2; }
    spec+="${spec:+,}scene ${scene}"
  done
fi
CMAKE_ARGS="-DADACLOTH_TESTS=ON ${CMAKE_ARGS:-}" BUILD_DIR="$build" bash tools/build.sh adacloth adacloth_tests
status=0
ADACLOTH_REFRESH_REGRESSION=1 "$build/tests/adacloth_tests" "$spec" || status=$?
git -c core.quotepath=off status --short -- tests/regression 2>/dev/null || true
exit "$status"
