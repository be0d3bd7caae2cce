#pragma once
// Reading a run's OUT/stats.jsonl in tests: one JSON object per frame (docs/design.md §8).
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "config/schema.h"
#include "io/atomic_file.h"
#include "test_util.h"

namespace adacloth::test {

// The frames' stats objects, in file order.
inline std::vector<config::Json> frameStats(const std::filesystem::path& out) {
  std::vector<config::Json> frames;
  std::istringstream lines(readFile(out / "stats.jsonl"));
  std::string line;
  while (std::getline(lines, line)) frames.push_back(config::Json::parse(line));
  return frames;
}

// Writes `shot` (JSON text) to dir/NAME.json, simulates it into dir/out on one thread and returns what the run printed
// (for INFO) and its exit code; frameStats(dir / "out") reads its stats.
inline RunResult simulateShot(const TempDir& dir, const std::string& name, const std::string& shot) {
  writeText(dir / (name + ".json"), shot);
  return runAdacloth("simulate " + (dir / (name + ".json")).string() + " -o " + (dir / "out").string() +
                     " --quiet --threads 1");
}

// Kinetic + gravitational + elastic energy (J) of one cloth's entry in a frame's stats.
inline double totalEnergy(const config::Json& cloth) {
  return cloth["kinetic_energy"].get<double>() + cloth["potential_energy"].get<double>() +
         cloth["elastic_energy"].get<double>();
}

}  // namespace adacloth::test
