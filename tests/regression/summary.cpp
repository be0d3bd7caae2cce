#include "regression/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth::regression {

namespace fs = std::filesystem;
using config::Json;

namespace {

struct ObjScan {
  Vec3 min = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 max = -Vec3::Constant(std::numeric_limits<double>::infinity());
  long positions = 0;
};

// Reads the `v x y z` lines of an OBJ: their bounding box, and a problem for each line with a non-finite or
// missing coordinate. `name` is how problems name the file.
ObjScan scanObj(const fs::path& file, const std::string& name, std::vector<std::string>& problems) {
  ObjScan scan;
  std::string text;
  try {
    text = readFile(file);
  } catch (const InputError&) {
    problems.push_back(name + ": missing or unreadable");
    return scan;
  }
  std::istringstream lines(text);
  std::string line;
  for (long n = 1; std::getline(lines, line); ++n) {
    if (line.size() < 2 || line[0] != 'v' || line[1] != ' ') continue;
    const char* p = line.c_str() + 2;
    Vec3 x;
    bool ok = true;
    for (int k = 0; k < 3 && ok; ++k) {
      char* end = nullptr;
      x[k] = std::strtod(p, &end);
      ok = end != p && std::isfinite(x[k]);
      p = end;
    }
    if (!ok) {
      problems.push_back(name + " line " + std::to_string(n) + ": not three finite coordinates: '" + line + "'");
      continue;
    }
    scan.min = scan.min.cwiseMin(x);
    scan.max = scan.max.cwiseMax(x);
    ++scan.positions;
  }
  if (scan.positions == 0) problems.push_back(name + ": no vertex positions");
  return scan;
}

// Every null (how a NaN or infinity is written to JSON) inside `v`, by JSON pointer.
void findNulls(const Json& v, const std::string& pointer, std::vector<std::string>& nulls) {
  if (v.is_null()) nulls.push_back(pointer);
  if (v.is_object())
    for (const auto& item : v.items()) findNulls(item.value(), pointer + "/" + item.key(), nulls);
  if (v.is_array())
    for (size_t i = 0; i < v.size(); ++i) findNulls(v[i], pointer + "/" + std::to_string(i), nulls);
}

// A number of a stats.jsonl cloth entry; a missing or non-numeric value is a problem (and 0).
double statNumber(const Json& cloth, const char* key, const std::string& where, std::vector<std::string>& problems) {
  if (cloth.contains(key) && cloth[key].is_number()) return cloth[key].get<double>();
  if (!cloth.contains(key)) problems.push_back(where + ": no \"" + key + "\"");
  return 0;
}

std::string frameObjName(const std::string& cloth, int frame) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "_%05d.obj", frame);
  return "frames/" + cloth + buf;
}

ClothFrame clothFrameOf(const Json& entry, const fs::path& out, int frame, const std::string& where,
                        std::vector<std::string>& problems) {
  ClothFrame c;
  c.name = entry.contains("name") && entry["name"].is_string() ? entry["name"].get<std::string>() : "?";
  const std::string at = where + " cloth " + c.name;
  c.nodes = long(statNumber(entry, "nodes", at, problems));
  c.faces = long(statNumber(entry, "faces", at, problems));
  c.maxPenetration = statNumber(entry, "max_penetration", at, problems);
  c.intersections = long(statNumber(entry, "intersections", at, problems));
  c.kineticEnergy = statNumber(entry, "kinetic_energy", at, problems);
  c.potentialEnergy = statNumber(entry, "potential_energy", at, problems);
  c.elasticEnergy = statNumber(entry, "elastic_energy", at, problems);
  const std::string obj = frameObjName(c.name, frame);
  const ObjScan scan = scanObj(out / obj, obj, problems);
  if (scan.positions > 0) c.bboxMin = scan.min, c.bboxMax = scan.max;
  return c;
}

// One stats.jsonl line -> the frame's summary; non-finite values and missing keys go to `problems`.
FrameSummary frameOf(const std::string& line, long lineNumber, const fs::path& out,
                     std::vector<std::string>& problems) {
  const std::string where = "stats.jsonl line " + std::to_string(lineNumber);
  FrameSummary frame;
  const Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    problems.push_back(where + ": not a JSON object");
    frame.frame = -1;
    return frame;
  }
  std::vector<std::string> nulls;
  findNulls(j, "", nulls);
  for (const std::string& p : nulls) problems.push_back(where + ": " + p + " is not a finite number (null)");
  frame.frame = j.contains("frame") && j["frame"].is_number_integer() ? j["frame"].get<int>() : -1;
  if (frame.frame < 0) problems.push_back(where + ": no frame number");
  if (!j.contains("cloths") || !j["cloths"].is_array()) {
    problems.push_back(where + ": no \"cloths\" array");
    return frame;
  }
  for (const Json& entry : j["cloths"]) frame.cloths.push_back(clothFrameOf(entry, out, frame.frame, where, problems));
  return frame;
}

void checkObstacles(const fs::path& out, std::vector<std::string>& problems) {
  std::error_code ec;
  if (!fs::is_directory(out / "obstacles", ec)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(out / "obstacles"))
    if (entry.path().extension() == ".obj") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) scanObj(f, "obstacles/" + f.filename().string(), problems);
}

// Six significant digits: enough to see any movement the tolerances care about, short enough to read in a diff.
double rounded(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return std::strtod(buf, nullptr);
}

Json vecJson(const Vec3& v) { return Json::array({rounded(v.x()), rounded(v.y()), rounded(v.z())}); }

Json clothJson(const ClothFrame& c) {
  return Json{{"name", c.name},
              {"nodes", c.nodes},
              {"faces", c.faces},
              {"bbox_min", vecJson(c.bboxMin)},
              {"bbox_max", vecJson(c.bboxMax)},
              {"max_penetration", rounded(c.maxPenetration)},
              {"intersections", c.intersections},
              {"kinetic_energy", rounded(c.kineticEnergy)},
              {"potential_energy", rounded(c.potentialEnergy)},
              {"elastic_energy", rounded(c.elasticEnergy)}};
}

Vec3 vecOf(const Json& j) { return Vec3(j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>()); }

ClothFrame clothOf(const Json& j) {
  ClothFrame c;
  c.name = j.at("name").get<std::string>();
  c.nodes = j.at("nodes").get<long>();
  c.faces = j.at("faces").get<long>();
  c.bboxMin = vecOf(j.at("bbox_min"));
  c.bboxMax = vecOf(j.at("bbox_max"));
  c.maxPenetration = j.at("max_penetration").get<double>();
  c.intersections = j.at("intersections").get<long>();
  c.kineticEnergy = j.at("kinetic_energy").get<double>();
  c.potentialEnergy = j.at("potential_energy").get<double>();
  c.elasticEnergy = j.at("elastic_energy").get<double>();
  return c;
}

}  // namespace

Summary summarizeOutput(const fs::path& out, const std::string& scene, std::vector<std::string>& problems) {
  Summary summary;
  summary.scene = scene;
  std::string stats;
  try {
    stats = readFile(out / "stats.jsonl");
  } catch (const InputError&) {
    problems.push_back("stats.jsonl: missing or unreadable");
    return summary;
  }
  std::istringstream lines(stats);
  std::string line;
  for (long n = 1; std::getline(lines, line); ++n) summary.frames.push_back(frameOf(line, n, out, problems));
  if (summary.frames.empty()) problems.push_back("stats.jsonl: no frames");
  checkObstacles(out, problems);
  return summary;
}

std::string toSummaryJson(const Summary& summary) {
  std::string text = "{\n  \"scene\": " + Json(summary.scene).dump() + ",\n  \"frames\": [";
  for (size_t f = 0; f < summary.frames.size(); ++f) {
    const FrameSummary& frame = summary.frames[f];
    text += std::string(f ? "," : "") + "\n    {\"frame\": " + std::to_string(frame.frame) + ", \"cloths\": [";
    for (size_t c = 0; c < frame.cloths.size(); ++c)
      text += std::string(c ? "," : "") + "\n      " + clothJson(frame.cloths[c]).dump();
    text += "]}";
  }
  return text + "\n  ]\n}\n";
}

Summary fromSummaryJson(const std::string& text, const std::string& file) {
  const Json j = config::parseJson(text, file);
  try {
    Summary summary;
    summary.scene = j.at("scene").get<std::string>();
    for (const Json& f : j.at("frames")) {
      FrameSummary frame;
      frame.frame = f.at("frame").get<int>();
      for (const Json& c : f.at("cloths")) frame.cloths.push_back(clothOf(c));
      summary.frames.push_back(std::move(frame));
    }
    return summary;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file + ": not a regression summary (" + e.what() + ")");
  }
}

}  // namespace adacloth::regression
