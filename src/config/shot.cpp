#include "config/shot.h"

#include <Eigen/Geometry>
#include <cmath>
#include <set>

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

using config::Json;

[[noreturn]] void fail(const Shot& shot, const std::string& ptr, const std::string& what) {
  throw InputError(shot.file.string() + ": " + ptr + ": " + what);
}

Vec2 toVec2(const Json& j) { return Vec2(j[0].get<double>(), j[1].get<double>()); }
Vec3 toVec3(const Json& j) { return Vec3(j[0].get<double>(), j[1].get<double>(), j[2].get<double>()); }

int wholeNumber(const Shot& shot, const Json& j, const std::string& ptr) {
  double x = j.get<double>();
  if (x != std::floor(x) || x > 1e7) fail(shot, ptr, "expected a whole number, got " + j.dump());
  return int(x);
}

MeshSpec readMeshSpec(const Shot& shot, const Json& j, const std::string& ptr) {
  MeshSpec spec;
  if (j.is_string()) {
    spec.type = MeshSpec::Type::File;
    spec.file = j.get<std::string>();
    return spec;
  }
  int count = int(j.contains("grid")) + int(j.contains("tube")) + int(j.contains("disc"));
  if (count != 1)
    fail(shot, ptr, "expected exactly one generator (\"grid\", \"tube\" or \"disc\"), got " + std::to_string(count));
  if (j.contains("grid")) {
    const Json& g = j["grid"];
    spec.type = MeshSpec::Type::Grid;
    spec.size = toVec2(g["size"]);
    spec.cellsX = wholeNumber(shot, g["cells"][0], ptr + "/grid/cells/0");
    spec.cellsY = wholeNumber(shot, g["cells"][1], ptr + "/grid/cells/1");
  } else if (j.contains("tube")) {
    const Json& t = j["tube"];
    spec.type = MeshSpec::Type::Tube;
    spec.radius = t["radius"].get<double>();
    spec.length = t["length"].get<double>();
    spec.cellsAround = t["cells_around"].get<int>();
    spec.cellsAlong = t["cells_along"].get<int>();
  } else {
    const Json& d = j["disc"];
    spec.type = MeshSpec::Type::Disc;
    spec.radius = d["radius"].get<double>();
    spec.rings = d["rings"].get<int>();
  }
  return spec;
}

bool isFileNameSafe(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

ClothSpec readCloth(Shot& shot, Json& j, size_t index) {
  ClothSpec cloth;
  cloth.place = "/cloths/" + std::to_string(index);
  if (!j.contains("name")) j["name"] = "cloth" + std::to_string(index);
  cloth.name = j["name"].get<std::string>();
  if (!isFileNameSafe(cloth.name))
    fail(shot, cloth.place + "/name",
         "expected 1 to 64 letters, digits, '_' or '-' (it names output files), got \"" + cloth.name + "\"");
  cloth.mesh = readMeshSpec(shot, j["mesh"], cloth.place + "/mesh");
  const Json& t = j["transform"];
  cloth.transform.translate = toVec3(t["translate"]);
  cloth.transform.rotateDeg = toVec3(t["rotate_deg"]);
  cloth.transform.scale = t["scale"].get<double>();
  cloth.material.density = j["material"]["density"].get<double>();
  return cloth;
}

}  // namespace

Mat3 TransformSpec::rotation() const {
  const double toRad = M_PI / 180.0;
  return (Eigen::AngleAxisd(rotateDeg.z() * toRad, Vec3::UnitZ()) *
          Eigen::AngleAxisd(rotateDeg.y() * toRad, Vec3::UnitY()) *
          Eigen::AngleAxisd(rotateDeg.x() * toRad, Vec3::UnitX()))
      .toRotationMatrix();
}

Shot parseShot(const std::string& text, const fs::path& file) {
  Shot shot;
  shot.file = file;
  config::Source source{file.string(), file.parent_path().empty() ? fs::path(".") : file.parent_path()};
  Json json = config::parseJson(text, file.string());
  shot.resolved = config::resolve(json, shotSchema(), source);
  Json& r = shot.resolved;
  if (!r.contains("name")) {
    Json named = Json::object();
    named["name"] = file.stem().string();
    named.update(r);
    r = named;
  }
  shot.name = r["name"].get<std::string>();
  shot.fps = r["fps"].get<double>();
  shot.frames = r["frames"].get<int>();
  std::set<std::string> names;
  for (size_t i = 0; i < r["cloths"].size(); ++i) {
    shot.cloths.push_back(readCloth(shot, r["cloths"][i], i));
    if (!names.insert(shot.cloths.back().name).second)
      fail(shot, "/cloths/" + std::to_string(i) + "/name",
           "the name \"" + shot.cloths.back().name + "\" is used by another cloth; names must be unique");
  }
  if (r.contains("camera")) shot.camera = fs::path(r["camera"].get<std::string>());
  return shot;
}

Shot loadShot(const fs::path& file) {
  return parseShot(readFile(file), file);
}

}  // namespace adacloth
