#!/usr/bin/env bash
# The README's first command: install what is needed, build, run the default shot and render it to PNG.
# The default shot is conf/skirt_walk.json: a cotton skirt on a walking mannequin, remeshed adaptively every frame and
# view-dependently (finer where its camera sees it, coarser out of frame, on the far side and far away). It is
# rendered twice: in material colours, and coloured by the size of each face (the adaptive mesh: violet small, yellow
# large); the contact sheet shows both side by side, frame by frame. About a minute on 2 cores after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
CMAKE_ARGS="-DADACLOTH_TESTS=OFF -DADACLOTH_BENCHMARKS=OFF" bash tools/build.sh adacloth
out=out/skirt_walk
./build/adacloth simulate conf/skirt_walk.json -o "$out"
./build/adacloth render "$out"
./build/adacloth render "$out" --color sizing -o "$out/render_sizing"
./build/adacloth contact-sheet "$out" --from render,render_sizing --count 12
echo
echo "frames (OBJ):                 $(pwd)/$out/frames"
echo "renders (PNG):                $(pwd)/$out/render"
echo "renders by face size (PNG):  $(pwd)/$out/render_sizing"
echo "both side by side:            $(pwd)/$out/contact_sheet.png"
