#!/usr/bin/env bash
# The Blender client tests (ctest -L client; tools/blender/README.md).
#   blender_client.sh import ADACLOTH BLENDER SOURCE_DIR WORK_DIR
#     simulates conf/skirt_walk.json (frames 0..2) and a small remeshed sheet with a fixed-topology (`upsample`)
#     output, imports each folder with tools/blender/adacloth_import.py and checks every frame against the OBJ files
#     (tools/blender/check_import.py), saves the scene, then opens it in a new Blender with the add-on installed and
#     enabled at startup and checks again.
#   blender_client.sh render ADACLOTH BLENDER SOURCE_DIR WORK_DIR
#     renders a small still of the skirt's frame 2 with tools/blender/render_still.py and checks the PNG's size.
# BLENDER is what cmake found; when it found none, blender on PATH, else the test fails: CI installs Blender, so a
# skip would hide a broken install.
set -euo pipefail
mode=$1 adacloth=$2 blender=$3 src=$4 work=$5

if [[ ! -x "$blender" ]]; then
  blender=$(command -v blender || true)
  if [[ -z "$blender" ]]; then
    echo "client test: blender not found (cmake found none, none on PATH); install it with" \
         "'bash tools/install-deps.sh' (Debian package blender) and re-run cmake" >&2
    exit 1
  fi
fi

rm -rf "$work"
mkdir -p "$work"
"$adacloth" simulate "$src/conf/skirt_walk.json" -o "$work/skirt" --frames 2 -q

run_blender() {
  # --factory-startup: the user's preferences and add-ons must not change the outcome.
  "$blender" -b --factory-startup --python-exit-code 1 "$@" >"$work/blender.log" 2>&1 || {
    grep -v '^$' "$work/blender.log" | tail -n 40 >&2
    echo "client test: blender failed: $*" >&2
    exit 1
  }
  grep -E '^(check_import|render_still)' "$work/blender.log" || true
}

check_folder() {
  local out=$1 blend="$1.blend"
  run_blender --python "$src/tools/blender/check_import.py" -- "$out" --save "$blend"
  # A new Blender with the add-on installed into a private scripts folder, as Preferences > Add-ons > Install does.
  mkdir -p "$work/scripts/addons"
  cp "$src/tools/blender/adacloth_import.py" "$work/scripts/addons/"
  BLENDER_USER_SCRIPTS="$work/scripts" run_blender --addons adacloth_import "$blend" \
    --python "$src/tools/blender/check_import.py" -- "$out" --reopened
}

case "$mode" in
  import)
    # A fixed-topology output needs an operator: learnt in a blink from a tracked 2x2-cell sheet.
    mkdir -p "$work/upsample"
    cp "$src/tests/client/data/sheet_track.json" "$src/tests/client/data/sheet_upsample.json" "$work/upsample/"
    "$adacloth" upsample track "$work/upsample/sheet_track.json" -o "$work/upsample/track" --levels 2 \
      --test-functions 4 -q
    "$adacloth" upsample train "$work/upsample/track" -o "$work/upsample/op.bin" --K 8 >/dev/null
    "$adacloth" simulate "$work/upsample/sheet_upsample.json" -o "$work/sheet" -q
    ls "$work/sheet/frames/sheet_out_00002.obj" >/dev/null
    check_folder "$work/skirt"
    check_folder "$work/sheet"
    ;;
  render)
    run_blender --python "$src/tools/blender/render_still.py" -- "$work/skirt" --frame 2 -o "$work/still.png" \
      --samples 2 --width 96 --height 54
    size=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print(*struct.unpack(">II", d[16:24]))' \
           "$work/still.png")
    [[ "$size" == "96 54" ]] || { echo "client test: $work/still.png is $size pixels, expected 96 54" >&2; exit 1; }
    echo "render_still: $work/still.png, $size pixels"
    ;;
  *) echo "blender_client.sh: unknown mode '$mode' (import or render)" >&2; exit 2 ;;
esac
