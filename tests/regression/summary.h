#pragma once
// The per-frame summary of a simulation output folder that a regression scene is compared on: per cloth the face
// and node counts, the bounding box of the written frame, contact quality and energies. Stored as
// tests/regression/<scene>/summary.json (one line per cloth and frame, so a diff shows what moved).
#include <filesystem>
#include <string>
#include <vector>

#include "config/schema.h"
#include "mesh/types.h"

namespace adacloth::regression {

struct ClothFrame {
  std::string name;
  long nodes = 0, faces = 0;
  Vec3 bboxMin = Vec3::Zero(), bboxMax = Vec3::Zero();  // m, of the frame OBJ's `v` positions
  double maxPenetration = 0;                            // m
  long intersections = 0;
  double kineticEnergy = 0, potentialEnergy = 0, elasticEnergy = 0;  // J
};

struct FrameSummary {
  int frame = 0;
  std::vector<ClothFrame> cloths;
};

struct Summary {
  std::string scene;
  std::vector<FrameSummary> frames;
};

// Summarizes OUT (stats.jsonl and frames/<cloth>_<frame:05d>.obj) and checks that every number in the stats, the
// frame OBJs and the obstacle OBJs is finite. Each problem (a non-finite value, a missing file or key) is appended
// to `problems` as "<file> line <n>: <what>".
Summary summarizeOutput(const std::filesystem::path& out, const std::string& scene, std::vector<std::string>& problems);

// summary.json text and back. fromSummaryJson throws InputError naming `file` on malformed input.
std::string toSummaryJson(const Summary& summary);
Summary fromSummaryJson(const std::string& text, const std::string& file);

}  // namespace adacloth::regression
