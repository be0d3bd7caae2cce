#include "app/group_folder.h"

#include <algorithm>
#include <fstream>

#include "config/shot_output.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace fs = std::filesystem;
namespace {

using config::Json;

std::vector<std::string> namesAt(const Json& record, const char* key, const fs::path& file) {
  if (!record.contains(key) || !record[key].is_array())
    throw InputError(file.string() + ": /" + key + ": expected an array of names");
  std::vector<std::string> names;
  for (const Json& n : record[key]) {
    if (!n.is_string()) throw InputError(file.string() + ": /" + key + ": expected an array of names");
    names.push_back(n.get<std::string>());
  }
  return names;
}

void readRecord(GroupFolder& g) {
  const fs::path file = g.folder / "group.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw InputError(g.folder.string() + ": no group.json; expected the output folder of 'adacloth simulate SHOT "
                                         "--cloths ...' (one cloth group)");
  const Json record = config::parseJson(readFile(file), file.string());
  if (!record.is_object()) throw InputError(file.string() + ": expected a JSON object");
  g.cloths = namesAt(record, "cloths", file);
  g.obstacles = namesAt(record, "obstacles", file);
  if (g.cloths.empty()) throw InputError(file.string() + ": /cloths: expected at least one cloth");
  if (!record.contains("shot") || !record["shot"].is_object())
    throw InputError(file.string() + ": /shot: expected the whole shot (an object)");
  g.shot = record["shot"];
}

// The frames of the group's first cloth, which every other cloth must have too.
void readFrames(GroupFolder& g) {
  g.frames = listClothFrames(g.folder, g.cloths.front());
  if (g.frames.empty())
    throw InputError((g.folder / "frames").string() + ": no frames of cloth '" + g.cloths.front() + "'");
  for (const std::string& cloth : g.cloths)
    for (int f : g.frames) {
      const fs::path file = clothFrameFile(g.folder, cloth, f);
      std::error_code ec;
      if (!fs::is_regular_file(file, ec))
        throw InputError(file.string() + ": missing (cloth '" + cloth + "' lacks a frame that '" + g.cloths.front() +
                         "' has)");
    }
}

// One stats line per frame, for exactly the frames in frames/.
void readStats(GroupFolder& g) {
  const fs::path file = g.folder / "stats.jsonl";
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": missing; expected one stats line per frame");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const Json j = Json::parse(line, nullptr, false);
    const std::string where = file.string() + ":" + std::to_string(number) + ": ";
    if (j.is_discarded() || !j.is_object() || !j.contains("frame") || !j["frame"].is_number_integer() ||
        !j.contains("cloths") || !j["cloths"].is_array())
      throw InputError(where + "expected a stats object with \"frame\" and \"cloths\"");
    if (!g.stats.emplace(j["frame"].get<int>(), j).second)
      throw InputError(where + "frame " + std::to_string(j["frame"].get<int>()) + " appears twice");
  }
  for (int f : g.frames)
    if (!g.stats.count(f)) throw InputError(file.string() + ": no line for frame " + std::to_string(f));
  for (const auto& [frame, line] : g.stats)
    if (!std::binary_search(g.frames.begin(), g.frames.end(), frame))
      throw InputError(file.string() + ": has a line for frame " + std::to_string(frame) + ", which frames/ lacks");
}

void listObstacleFiles(GroupFolder& g) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(g.folder / "obstacles", ec))
    if (entry.path().extension() == ".obj") g.obstacleFiles.push_back(entry.path().filename().string());
  std::sort(g.obstacleFiles.begin(), g.obstacleFiles.end());
}

}  // namespace

GroupFolder readGroupFolder(const fs::path& folder) {
  GroupFolder g;
  g.folder = folder;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw InputError(folder.string() + ": no such group folder");
  readRecord(g);
  readFrames(g);
  readStats(g);
  listObstacleFiles(g);
  return g;
}

}  // namespace adacloth
