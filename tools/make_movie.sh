#!/usr/bin/env bash
# Turns the rendered frames of an output folder into a movie and a contact sheet:
#   OUT/movie.mp4          H.264 (yuv420p, plays everywhere) at the shot's fps
#   OUT/contact_sheet.png  thumbnails of up to 24 frames (adacloth contact-sheet)
#
# usage: tools/make_movie.sh OUT [--fps N] [--crf Q]
#   OUT        an output folder with OUT/render/*.png (run `adacloth render OUT` first)
#   --fps N    frames per second (default: "fps" of OUT/shot.resolved.json, else 24)
#   --crf Q    x264 quality, lower is better (default 18, visually lossless)
# Needs ffmpeg (Debian: apt-get install ffmpeg); installs nothing itself. The adacloth binary is taken from
# $ADACLOTH, else PATH, else build/adacloth next to this script's repository.
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }

out="" fps="" crf=18
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fps) fps="${2:?--fps needs a value}"; shift 2 ;;
    --crf) crf="${2:?--crf needs a value}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "make_movie.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) [[ -z "$out" ]] || { echo "make_movie.sh: one output folder expected" >&2; exit 2; }; out="$1"; shift ;;
  esac
done
[[ -n "$out" ]] || { usage >&2; exit 2; }

if ! command -v ffmpeg >/dev/null 2>&1; then
  echo "make_movie.sh: ffmpeg is not installed; install it with: sudo apt-get install ffmpeg" >&2
  exit 2
fi
shopt -s nullglob
frames=("$out"/render/*.png)
if [[ ${#frames[@]} -eq 0 ]]; then
  echo "make_movie.sh: $out/render: no rendered frames (run 'adacloth render $out' first)" >&2
  exit 2
fi
if [[ -z "$fps" ]]; then
  fps=$(grep -o '"fps": *[0-9.eE+-]*' "$out/shot.resolved.json" 2>/dev/null | head -n1 | sed 's/.*: *//')
  fps=${fps:-24}
fi

# Frames may not start at 0 (render --frames A:B), so feed them by name in order. yuv420p needs even sizes.
tmp="$out/.movie.tmp.mp4"
trap 'rm -f "$tmp"' EXIT
ffmpeg -loglevel error -y -framerate "$fps" -pattern_type glob -i "$out/render/*.png" \
  -vf "pad=ceil(iw/2)*2:ceil(ih/2)*2" -c:v libx264 -preset medium -crf "$crf" -pix_fmt yuv420p \
  -movflags +faststart "$tmp"
mv -f "$tmp" "$out/movie.mp4"
echo "$out/movie.mp4: ${#frames[@]} frames at $fps fps"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
adacloth="${ADACLOTH:-$(command -v adacloth || echo "$repo/build/adacloth")}"
if [[ -x "$adacloth" ]]; then
  "$adacloth" contact-sheet "$out"
else
  echo "make_movie.sh: adacloth not found (set ADACLOTH=path/to/adacloth); skipped the contact sheet" >&2
fi
