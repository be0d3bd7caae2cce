#!/usr/bin/env bash
# Renders one still per shot into docs/images/<shot>.png and writes docs/shots.md (the shot gallery).
# Usage: bash tools/make-stills.sh [SHOT_NAME ...]   (default: every shot in the table below)
# Each shot is simulated up to its still's frame only (a temporary folder), then that frame is rendered with the
# shot's camera at 640x360. Needs a built ./build/adacloth (bash tools/build.sh adacloth).
set -euo pipefail
cd "$(dirname "$0")/.."

# shot | frame of the still | what the shot shows
SHOTS=(
  "drape|48|A 1 m cotton sheet held at two corners falls into a drape."
  "flag|72|A silk flag held along one edge flutters in a 6 m/s wind."
  "sheet_on_sphere|96|A cotton sheet falls onto a ball and the floor."
  "skirt_walk|24|A four-gore cotton skirt bound to the walking mannequin; the camera dollies alongside (the default shot)."
  "cape_run|24|A cotton cape bound to the shoulders of the running mannequin (3 m/s); the camera tracks it."
  "crowd|12|Five walking mannequins in skirts and capes; the camera pans across them, so garments leave the frame."
  "jump_cut|44|Two gathered cotton curtains in a breeze; the camera cuts from one to the other (frame 36), then wide."
)

exe=./build/adacloth
[[ -x $exe ]] || { echo "make-stills: $exe not found; run: bash tools/build.sh adacloth" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

wanted=("$@")
selected() { [[ ${#wanted[@]} -eq 0 ]] && return 0; local w; for w in "${wanted[@]}"; do [[ $w == "$1" ]] && return 0; done; return 1; }

for entry in "${SHOTS[@]}"; do
  IFS='|' read -r shot frame what <<<"$entry"
  selected "$shot" || continue
  echo "still: $shot frame $frame" >&2
  "$exe" simulate "conf/$shot.json" -o "$work/$shot" --frames "$frame" --quiet
  "$exe" render "$work/$shot" --frames "$frame:$frame" --width 640 --height 360 --quiet
  cp "$work/$shot/render/$(printf %05d "$frame").png" "docs/images/$shot.png"
done

{
  echo "# Shots"
  echo
  echo "The shots in conf/. Each still is frame N of the shot, rendered by \`adacloth render\` with the shot's camera;"
  echo "this page and the images are written by \`bash tools/make-stills.sh\` (do not edit by hand)."
  echo
  for entry in "${SHOTS[@]}"; do
    IFS='|' read -r shot frame what <<<"$entry"
    echo "## $shot"
    echo
    echo "\`conf/$shot.json\` — $what"
    echo
    echo "![$shot, frame $frame](images/$shot.png)"
    echo
  done
} > docs/shots.md
echo "wrote docs/shots.md and docs/images/" >&2
