#include "regression/output_identity.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "config/schema.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth::regression {

namespace fs = std::filesystem;

namespace {

// File names (not paths) in `dir`, sorted; none when it does not exist.
std::set<std::string> filesIn(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file()) names.insert(entry.path().filename().string());
  return names;
}

// Long lines (a stats line) are cut so a message stays readable.
std::string clipped(const std::string& line) { return line.size() <= 160 ? line : line.substr(0, 157) + "..."; }

void compareTexts(const std::string& scene, const std::string& name, const std::string& a, const std::string& b,
                  const std::string& runs, std::vector<std::string>& failures) {
  if (a == b) return;
  const LineDifference d = firstDifference(a, b);
  failures.push_back(scene + ": " + name + " differs at line " + std::to_string(d.line) + " (" + runs + "): '" +
                     clipped(d.a) + "' vs '" + clipped(d.b) + "'");
}

void compareFolder(const std::string& scene, const fs::path& a, const fs::path& b, const std::string& sub,
                   const std::string& labelA, const std::string& labelB, std::vector<std::string>& failures) {
  const std::set<std::string> inA = filesIn(a / sub), inB = filesIn(b / sub);
  const std::string runs = labelA + " vs " + labelB;
  // Once a run diverges every later frame differs: the first few files say where, the count says how far.
  const size_t shown = 5;
  size_t differing = 0;
  for (const std::string& name : inA) {
    if (!inB.count(name)) {
      failures.push_back(scene + ": " + sub + "/" + name + " written with " + labelA + " but not with " + labelB);
      continue;
    }
    std::vector<std::string> difference;
    compareTexts(scene, sub + "/" + name, readFile(a / sub / name), readFile(b / sub / name), runs, difference);
    if (!difference.empty() && differing++ < shown) failures.push_back(difference.front());
  }
  if (differing > shown)
    failures.push_back(scene + ": " + std::to_string(differing - shown) + " more files in " + sub + "/ differ (" +
                       runs + ")");
  for (const std::string& name : inB)
    if (!inA.count(name))
      failures.push_back(scene + ": " + sub + "/" + name + " written with " + labelB + " but not with " + labelA);
}

}  // namespace

LineDifference firstDifference(const std::string& a, const std::string& b) {
  if (a == b) return {};
  std::istringstream sa(a), sb(b);
  LineDifference d;
  for (d.line = 1;; ++d.line) {
    const bool moreA = bool(std::getline(sa, d.a)), moreB = bool(std::getline(sb, d.b));
    if (!moreA) d.a.clear();
    if (!moreB) d.b.clear();
    if (d.a != d.b || moreA != moreB || (!moreA && !moreB)) return d;
  }
}

std::string statsWithoutWallTimes(const std::string& stats) {
  std::istringstream lines(stats);
  std::string line, out;
  while (std::getline(lines, line)) {
    config::Json j = config::Json::parse(line, nullptr, false);
    if (j.is_object()) j.erase("wall_ms");
    out += (j.is_discarded() ? line : j.dump()) + "\n";
  }
  return out;
}

std::vector<std::string> compareOutputs(const std::string& scene, const fs::path& a, const std::string& labelA,
                                        const fs::path& b, const std::string& labelB) {
  std::vector<std::string> failures;
  compareFolder(scene, a, b, "frames", labelA, labelB, failures);
  compareFolder(scene, a, b, "obstacles", labelA, labelB, failures);
  std::string statsA, statsB;
  try {
    statsA = statsWithoutWallTimes(readFile(a / "stats.jsonl"));
    statsB = statsWithoutWallTimes(readFile(b / "stats.jsonl"));
  } catch (const InputError& e) {
    failures.push_back(scene + ": " + e.what());
    return failures;
  }
  compareTexts(scene, "stats.jsonl (without wall_ms)", statsA, statsB, labelA + " vs " + labelB, failures);
  return failures;
}

}  // namespace adacloth::regression
