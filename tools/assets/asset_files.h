#pragma once
// Writes the generated assets (what `make_assets OUT_DIR` produces):
//   mannequin_rest.obj                              the body in the rest pose the garments were fitted to
//   mannequin_walk/mannequin_walk_%04d.obj          one walk period, files 0..N-1 (loops: file N would be file 0)
//   mannequin_run/mannequin_run_%04d.obj            one run period, likewise
//   skirt.obj, cape.obj, curtain.obj, flag.obj      garments (v + vt + f v/vt)
//   README.md                                       what the files are, speeds, periods, pin regions (full runs only)
// Every file is written atomically and is byte-identical from run to run.
#include <filesystem>
#include <string>
#include <vector>

namespace adacloth::assets {

constexpr int kSequenceFilesPerSecond = 12;  // files per second of the mannequin sequences (obstacle `fps`)
constexpr int kMannequinFaces = 5600;        // triangles of the body mesh

// Names accepted by `only`: "mannequin" (rest + both sequences), "walk", "run", "skirt", "cape", "curtain", "flag";
// empty for everything. Returns human-readable lines describing what was written (speeds, periods, counts).
std::vector<std::string> writeAssets(const std::filesystem::path& outDir, const std::string& only = "");

// The asset names `only` accepts.
const std::vector<std::string>& assetNames();

}  // namespace adacloth::assets
