#pragma once
// Determinism of a scene: two output folders of the same shot (run at different thread counts) must hold identical
// bytes in frames/ and obstacles/, and the same stats.jsonl apart from the wall-clock times (wall_ms).
#include <filesystem>
#include <string>
#include <vector>

namespace adacloth::regression {

// One message per difference, naming `scene`, the file and its first differing line, e.g.
// "drape: frames/sheet_00003.obj differs at line 57 (1 vs 2 threads): 'v 0.1 ...' vs 'v 0.1000001 ...'".
// `labelA`, `labelB` name the two runs in messages.
std::vector<std::string> compareOutputs(const std::string& scene, const std::filesystem::path& a,
                                        const std::string& labelA, const std::filesystem::path& b,
                                        const std::string& labelB);

// The first line (1-based) at which two texts differ, with both lines ("" past the end); 0 when they are equal.
struct LineDifference {
  long line = 0;
  std::string a, b;
};
LineDifference firstDifference(const std::string& a, const std::string& b);

// stats.jsonl without the wall_ms of each line (the only part that may differ between identical runs).
std::string statsWithoutWallTimes(const std::string& stats);

}  // namespace adacloth::regression
