#pragma once
// The regression scenes (tests/regression/scenes.json): which shot each runs, for how many frames, which frames are
// rendered and compared as images, at which thread counts it must give identical bytes, and the tolerances of its
// comparison with the reference summary. Adding a scene is one entry there plus its references (README.md).
#include <filesystem>
#include <string>
#include <vector>

#include "config/schema.h"

namespace adacloth::regression {

// How far a measured value may move from the reference before the test fails. Chosen so that another correct
// machine or compiler (different rounding in a chaotic simulation) passes while a real change of behaviour fails.
struct Tolerances {
  double countRelative = 0.05;       // faces, nodes: band +-max(countRelative * ref, countAbsolute)
  double countAbsolute = 20;
  double bboxAbsolute = 0.02;        // m: a bbox corner may move max(bboxAbsolute, bboxRelative * ref diagonal)
  double bboxRelative = 0.02;
  double penetrationSlack = 0.001;   // m: max_penetration <= ref + slack
  int intersectionsSlack = 2;        // intersections <= ref + slack
  // Energies: band +-(<kind>Relative * |ref| + energyAbsolute). Separate per kind because they differ in how
  // chaotic they are: in a contact scene the elastic energy of a crumpled sheet moves by tens of percent between
  // compilers while the potential energy moves by less than one.
  double kineticRelative = 0.10;
  double potentialRelative = 0.10;
  double elasticRelative = 0.10;
  double energyAbsolute = 0.01;      // J
  int imageThreshold = 32;           // 0..255: a pixel differs when a channel differs by more than this
  double imageMaxShare = 0.01;       // fraction of pixels allowed to differ
};

struct SceneSpec {
  std::string name;                  // also the folder of its references: tests/regression/<name>/
  std::filesystem::path shot;        // absolute
  int frames = 0;                    // simulated frames (--frames)
  std::vector<int> renderFrames;     // frames compared as images (frame_<n>.png)
  int width = 320, height = 180;     // render size (pixels)
  std::vector<int> threads;          // the first count makes the summary; every other must give identical bytes
  Tolerances tolerances;
};

// The schema of scenes.json (strict: unknown keys are errors; every default is stated here).
const config::Field& sceneListSchema();

// Reads and validates a scene list; shot paths are relative to `repoRoot`. Bad input is an InputError naming the
// file and the JSON pointer.
std::vector<SceneSpec> loadSceneList(const std::filesystem::path& file, const std::filesystem::path& repoRoot);

// tests/regression/ of the source tree, where scenes.json and the reference folders live.
std::filesystem::path regressionDir();

}  // namespace adacloth::regression
