#!/usr/bin/env bash
# The README's second command (and CI's): install what is needed, build, run the whole test suite, then the unit
# tests once more under AddressSanitizer + UndefinedBehaviorSanitizer, then each input loader's fuzz target for 60 s
# (tools/fuzz.sh; it first replays every crash found so far).
#   tools/run-tests.sh              everything
#   tools/run-tests.sh -L unit      only what ctest selects (any ctest arguments), no sanitizer pass
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time is printed as it ends, so a slow CI run shows where its time went.
stage() { echo "== $1 took $((SECONDS - stage_start)) s (total $SECONDS s) =="; stage_start=$SECONDS; }
stage_start=$SECONDS
bash tools/install-deps.sh
stage "installing dependencies"
jobs=$(nproc)
# ctest runs tests side by side, each with OpenMP threads; spinning (the default wait policy) then makes them up to
# 10x slower. Passive waiting changes timing only, never results.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"

CMAKE_ARGS="-DADACLOTH_TESTS=ON -DADACLOTH_BENCHMARKS=ON" bash tools/build.sh
stage "the Release build"
(cd build && ctest --output-on-failure -j "$jobs" "$@")
stage "the test suite"
[[ $# -gt 0 ]] && exit 0

echo "== unit tests under AddressSanitizer + UndefinedBehaviorSanitizer =="
# -O1 -g1 (line tables only): what sanitizer reports need for file:line stacks, and half the compile time of -O2 -g
# (this build was 13 of CI's 30 minutes).
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DADACLOTH_SANITIZE=ON -DADACLOTH_BENCHMARKS=OFF >/dev/null
cmake --build build-sanitize -j "$jobs"
stage "the sanitizer build"
(cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j "$jobs" -L unit)
stage "the unit tests under sanitizers"

echo "== input loaders under libFuzzer, 60 s each =="
bash tools/fuzz.sh --seconds 60 --jobs "$jobs"
stage "fuzzing"
