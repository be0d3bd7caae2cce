#include "config/shot_output.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

#include "config/schema.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

std::string frameSuffix(int frame) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "_%05d.obj", frame);
  return buf;
}

// Frame number of "<prefix>_NNNNN.obj", or -1 when the name does not have that form.
int frameNumberOf(const std::string& name, const std::string& prefix) {
  if (name.size() != prefix.size() + 10 || name.compare(0, prefix.size(), prefix) != 0) return -1;
  if (name[prefix.size()] != '_' || name.compare(name.size() - 4, 4, ".obj") != 0) return -1;
  int frame = 0;
  for (size_t i = prefix.size() + 1; i < name.size() - 4; ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    frame = frame * 10 + (name[i] - '0');
  }
  return frame;
}

// The view settings `render --color view` draws a cloth with: its resolved `view` object, or the defaults when it
// has none (a preview of `view: {}`).
template <class Bad>
ViewFactorOptions clothViewOptions(const config::Json& cloth, const std::string& pointer, const Bad& bad) {
  ViewFactorOptions options;
  if (!cloth.contains("view") || cloth["view"].is_null()) return options;
  const config::Json& view = cloth["view"];
  if (!view.is_object()) throw bad(pointer + "/view", "expected an object");
  // A number in (0, 1], or [0, 1] when zero is allowed.
  auto unitNumber = [&](const char* key, double& value, bool zeroAllowed) {
    if (!view.contains(key)) return;
    const bool number = view[key].is_number();
    const double x = number ? view[key].get<double>() : 0.0;
    if (!number || !(zeroAllowed ? x >= 0 : x > 0) || !(x <= 1))
      throw bad(pointer + "/view/" + key, zeroAllowed ? "expected a number in [0, 1]" : "expected a number in (0, 1]");
    value = x;
  };
  unitNumber("f_out", options.fOut, false);
  unitNumber("f_back", options.fBack, false);
  unitNumber("back_ramp", options.backRamp, true);
  if (view.contains("backface")) {
    if (!view["backface"].is_boolean()) throw bad(pointer + "/view/backface", "expected true or false");
    options.backFacesHidden = view["backface"].get<bool>();
  }
  return options;
}

}  // namespace

std::vector<int> listClothFrames(const fs::path& out, const std::string& cloth) {
  std::vector<int> frames;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out / "frames", ec)) {
    const int f = frameNumberOf(entry.path().filename().string(), cloth);
    if (f >= 0) frames.push_back(f);
  }
  std::sort(frames.begin(), frames.end());
  return frames;
}

ShotOutput readShotOutput(const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(out, ec))
    throw InputError(out.string() + ": no such output folder (run 'adacloth simulate SHOT.json -o " + out.string() +
                     "' first)");
  const fs::path shotFile = out / "shot.resolved.json";
  if (!fs::is_regular_file(shotFile, ec))
    throw InputError(shotFile.string() + ": missing; is " + out.string() + " an output folder of 'adacloth simulate'?");
  const config::Json shot = config::parseJson(readFile(shotFile), shotFile.string());
  ShotOutput result;
  result.folder = out;
  auto bad = [&](const std::string& pointer, const std::string& what) {
    return InputError(shotFile.string() + ": " + pointer + ": " + what);
  };
  if (!shot.is_object() || !shot.contains("fps") || !shot["fps"].is_number() || !(shot["fps"].get<double>() > 0))
    throw bad("/fps", "expected a positive number");
  result.fps = shot["fps"].get<double>();
  if (shot.contains("camera")) {
    if (!shot["camera"].is_string()) throw bad("/camera", "expected a file path (string)");
    result.camera = fs::path(shot["camera"].get<std::string>());
  }
  if (!shot.contains("cloths") || !shot["cloths"].is_array() || shot["cloths"].empty())
    throw bad("/cloths", "expected an array of at least one cloth");
  for (size_t i = 0; i < shot["cloths"].size(); ++i) {
    const auto& c = shot["cloths"][i];
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string())
      throw bad("/cloths/" + std::to_string(i) + "/name", "expected the cloth's name (string)");
    result.cloths.push_back(c["name"].get<std::string>());
    result.clothViews.push_back(clothViewOptions(c, "/cloths/" + std::to_string(i), bad));
  }
  result.frames = listClothFrames(out, result.cloths.front());
  if (result.frames.empty())
    throw InputError((out / "frames").string() + ": no frames of cloth '" + result.cloths.front() +
                     "' (expected files named " + result.cloths.front() + "_00000.obj, ...)");
  return result;
}

fs::path clothFrameFile(const fs::path& out, const std::string& cloth, int frame) {
  return out / "frames" / (cloth + frameSuffix(frame));
}

std::vector<fs::path> obstacleFrameFiles(const fs::path& out, int frame) {
  std::map<std::string, std::pair<int, fs::path>> latest;  // name -> (frame, file), sorted by name
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out / "obstacles", ec)) {
    const std::string file = entry.path().filename().string();
    if (file.size() < 11) continue;
    const std::string name = file.substr(0, file.size() - 10);
    const int f = frameNumberOf(file, name);
    if (f < 0 || f > frame) continue;
    auto it = latest.find(name);
    if (it == latest.end() || it->second.first < f) latest[name] = {f, entry.path()};
  }
  std::vector<fs::path> files;
  for (const auto& [name, found] : latest) files.push_back(found.second);
  return files;
}

fs::path renderFrameFile(const fs::path& out, int frame) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%05d.png", frame);
  return out / "render" / buf;
}

std::optional<std::pair<double, double>> edgeLengthRangeFromStats(const fs::path& out, int firstFrame,
                                                                  int lastFrame) {
  std::ifstream in(out / "stats.jsonl");
  if (!in) return std::nullopt;
  double lo = 1e300, hi = 0;
  std::string line;
  while (std::getline(in, line)) {
    const auto j = config::Json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("frame") || !j["frame"].is_number()) continue;
    const int frame = j["frame"].get<int>();
    if (frame < firstFrame || frame > lastFrame || !j.contains("cloths") || !j["cloths"].is_array()) continue;
    for (const auto& c : j["cloths"]) {
      if (!c.is_object() || !c.contains("min_edge") || !c.contains("max_edge")) continue;
      if (!c["min_edge"].is_number() || !c["max_edge"].is_number()) continue;
      lo = std::min(lo, c["min_edge"].get<double>());
      hi = std::max(hi, c["max_edge"].get<double>());
    }
  }
  if (!(lo > 0) || !(hi >= lo)) return std::nullopt;
  return std::make_pair(lo, hi);
}

}  // namespace adacloth
