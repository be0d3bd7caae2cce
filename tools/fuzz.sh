#!/usr/bin/env bash
# Fuzzes adacloth's input loaders with libFuzzer (tools/fuzz/fuzz_*.cpp): the cloth OBJ reader, the obstacle OBJ
# reader, the shot JSON (schema and resolution), camera path files and checkpoint files. Builds them with Clang,
# AddressSanitizer and UndefinedBehaviorSanitizer into build-fuzz/ (or $FUZZ_BUILD_DIR), first replays every input
# kept in tests/data/fuzz/<target>/ (the crashes found so far, now fixed: a regression check), then runs each target
# for the given time from a seed corpus of the project's own files (conf/, meshes/, cameras/; checkpoints of a short
# run of tools/fuzz/checkpoint_shot.json).
#   tools/fuzz.sh                     every target for 60 s
#   tools/fuzz.sh --seconds 600       longer
#   tools/fuzz.sh --runs 10000000     until each target has run this many inputs (no time limit)
#   tools/fuzz.sh --only shot         the targets whose name contains "shot"
#   tools/fuzz.sh --jobs 2            run two targets side by side (default: one at a time)
# Prints a table of executions per target. Exit code 1 when a target crashed, hung or leaked: libFuzzer's report is
# printed and the input that did it is kept as build-fuzz/artifacts/<target>-crash-<sha1>; add it to
# tests/data/fuzz/<target>/ with the fix. New corpus entries accumulate in build-fuzz/corpus/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
runs=-1  # libFuzzer's "no limit"
only=""
jobs=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; seconds=0; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) echo "fuzz.sh: unknown argument '$1' (expected --seconds N, --runs N, --only TEXT or --jobs N)" >&2; exit 2 ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ && ( "$seconds" -gt 0 || "$runs" -gt 0 ) ]] || { echo "fuzz.sh: --seconds expects a positive integer, got '$seconds'" >&2; exit 2; }
[[ "$runs" == -1 || "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --runs expects a positive integer, got '$runs'" >&2; exit 2; }
[[ "$jobs" =~ ^[0-9]+$ && "$jobs" -gt 0 ]] || { echo "fuzz.sh: --jobs expects a positive integer, got '$jobs'" >&2; exit 2; }

build="${FUZZ_BUILD_DIR:-build-fuzz}"
targets=()
for src in tools/fuzz/fuzz_*.cpp; do
  name=$(basename "$src" .cpp)
  [[ -z "$only" || "$name" == *"$only"* ]] && targets+=("$name")
done
[[ ${#targets[@]} -gt 0 ]] || { echo "fuzz.sh: no target matches '$only'" >&2; exit 2; }

CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DADACLOTH_FUZZ=ON -DADACLOTH_TESTS=OFF \
  -DADACLOTH_BENCHMARKS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

# Seeds per target: the project's own files of that format. OBJ inputs are capped at 4 KiB: long meshes make every
# execution slow and add nothing a mutated short one does not.
seeds_of() {
  case "$1" in
    fuzz_cloth_obj) ls meshes/*.obj tests/data/*.obj ;;
    fuzz_obstacle_obj) ls meshes/*.obj meshes/mannequin_walk/*_0000.obj meshes/mannequin_run/*_0000.obj ;;
    fuzz_shot) ls conf/*.json conf/upsample/*.json conf/materials/*.json ;;
    fuzz_camera) ls cameras/*.json ;;
    fuzz_checkpoint) ls "$build"/checkpoint-seeds/checkpoints/*.ckpt ;;
  esac
}
max_len_of() { case "$1" in *obj) echo 4096 ;; *checkpoint) echo 65536 ;; *) echo 16384 ;; esac; }

# The checkpoint target's seeds are the checkpoints of a short run of its shot, made by this build's adacloth (so
# they always have the current format).
if [[ " ${targets[*]} " == *" fuzz_checkpoint "* ]]; then
  cmake --build "$build" -j "$(nproc)" --target adacloth
  "$build/adacloth" simulate tools/fuzz/checkpoint_shot.json -o "$build/checkpoint-seeds" --quiet
fi

mkdir -p "$build/artifacts" "$build/logs"
run_target() {
  local t="$1" exe="$build/$1" log="$build/logs/$1.log"
  local regressions="tests/data/fuzz/$t"
  if [[ -d "$regressions" ]] && compgen -G "$regressions/*" >/dev/null; then
    # Replays each kept input once; any crash fails here, before the timed run.
    if ! "$exe" "$regressions"/* >"$log.replay" 2>&1; then
      cat "$log.replay" >&2
      echo "fuzz.sh: $t: a kept input from $regressions crashes again" >&2
      return 1
    fi
  fi
  local seeds="$build/seeds/$t" corpus="$build/corpus/$t"
  rm -rf "$seeds"
  mkdir -p "$seeds" "$corpus"
  seeds_of "$t" | while read -r f; do cp "$f" "$seeds/$(echo "$f" | tr / _)"; done
  local status=0
  "$exe" "$corpus" "$seeds" -max_total_time="$seconds" -runs="$runs" -max_len="$(max_len_of "$t")" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" >"$log" 2>&1 || status=$?
  if [[ $status -ne 0 ]]; then
    tail -n 60 "$log" >&2
    echo "fuzz.sh: $t failed (exit $status); the input is in $build/artifacts/" >&2
    return 1
  fi
}

export -f run_target seeds_of max_len_of
export build seconds runs
failed=0
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_target {}' || failed=1

echo
echo "| target | seconds | executions | executions / s | corpus entries |"
echo "|---|---:|---:|---:|---:|"
for t in "${targets[@]}"; do
  log="$build/logs/$t.log"
  executed=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' || true)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' || true)
  entries=$(find "$build/corpus/$t" -type f 2>/dev/null | wc -l)
  took="$seconds"  # with --runs: the time it took
  [[ "$seconds" == 0 && -n "$executed" && -n "$rate" && "$rate" -gt 0 ]] && took=$((executed / rate))
  printf '| %s | %s | %s | %s | %s |\n' "$t" "$took" "${executed:-failed}" "${rate:--}" "$entries"
done
exit $failed
