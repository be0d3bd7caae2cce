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
  // Energies, each on a scale that matters for the cloth (README.md, "Tolerances"). Potential energy is compared as
  // the height of the cloth's centre of mass, PE / (m |g|) with m its mass and g the shot's gravity: within
  // +-heightAbsolute. Kinetic and elastic energy are compared with the cloth's largest value over the reference
  // frames (its peak): within +-<kind>PeakShare * peak. A band relative to each frame's own value, or in joules,
  // says nothing about frames where the cloth is nearly at rest or flat, and potential energy measured from y = 0
  // is mostly the height of the shot's set, not the motion.
  double heightAbsolute = 0.01;      // m
  double kineticPeakShare = 0.01;
  double elasticPeakShare = 0.01;
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
