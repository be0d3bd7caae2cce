#include "config/shot_part.h"

#include <algorithm>
#include <set>

#include "io/error.h"

namespace adacloth {
namespace {

using config::Json;

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

// Which of `available` the names pick (a mask in shot order). Unknown or repeated names are InputErrors.
std::vector<char> pick(const std::vector<std::string>& names, const std::vector<std::string>& available,
                       const Shot& shot, const std::string& option, const std::string& kind) {
  std::vector<char> keep(available.size(), 0);
  for (const std::string& name : names) {
    const auto found = std::find(available.begin(), available.end(), name);
    if (found == available.end()) {
      const auto guess = config::didYouMean(name, available);
      throw InputError("adacloth simulate: " + option + ": " + shot.file.string() + " has no " + kind + " \"" + name +
                       "\"" + (guess ? " (did you mean \"" + *guess + "\"?)" : "") + "; expected one of: " +
                       joined(available));
    }
    char& k = keep[size_t(found - available.begin())];
    if (k) throw InputError("adacloth simulate: " + option + ": " + kind + " \"" + name + "\" is named twice");
    k = 1;
  }
  return keep;
}

template <typename T>
std::vector<T> kept(const std::vector<T>& all, const std::vector<char>& keep) {
  std::vector<T> out;
  for (size_t i = 0; i < all.size(); ++i)
    if (keep[i]) out.push_back(all[i]);
  return out;
}

// A cloth of the part bound to an obstacle left out could not be built: say which.
void checkBindTargetsKept(const Shot& part) {
  for (const ClothSpec& cloth : part.cloths)
    for (const HandleSpec& h : cloth.handles) {
      if (h.bindTo.empty()) continue;
      const bool present = std::any_of(part.obstacles.begin(), part.obstacles.end(),
                                       [&](const ObstacleSpec& o) { return o.name == h.bindTo; });
      if (!present)
        throw InputError("adacloth simulate: --obstacles: cloth \"" + cloth.name + "\" is bound to obstacle \"" +
                         h.bindTo + "\" (" + part.file.string() + ": " + h.place + "/bind_to); add it to the list");
    }
}

}  // namespace

std::vector<std::string> splitNames(const std::string& list, const std::string& option) {
  std::vector<std::string> names;
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty())
      throw InputError("adacloth: " + option + ": expected names separated by commas, got '" + list + "'");
    names.push_back(name);
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

Shot selectShotPart(const Shot& shot, const ShotPart& part) {
  std::vector<std::string> clothNames, obstacleNames;
  for (const ClothSpec& c : shot.cloths) clothNames.push_back(c.name);
  for (const ObstacleSpec& o : shot.obstacles) obstacleNames.push_back(o.name);
  const std::vector<char> keepCloths = pick(part.cloths, clothNames, shot, "--cloths", "cloth");
  const std::vector<char> keepObstacles = part.obstacles
                                              ? pick(*part.obstacles, obstacleNames, shot, "--obstacles", "obstacle")
                                              : std::vector<char>(obstacleNames.size(), 1);
  Shot result = shot;
  result.cloths = kept(shot.cloths, keepCloths);
  result.obstacles = kept(shot.obstacles, keepObstacles);
  checkBindTargetsKept(result);
  Json& r = result.resolved;
  r["cloths"] = Json(kept(std::vector<Json>(shot.resolved["cloths"].begin(), shot.resolved["cloths"].end()),
                          keepCloths));
  if (shot.resolved.contains("obstacles")) {
    std::vector<Json> obstacles(shot.resolved["obstacles"].begin(), shot.resolved["obstacles"].end());
    // A default name ("obstacle<i>") follows the index, which changes when earlier obstacles are left out.
    for (size_t i = 0; i < obstacles.size(); ++i) {
      if (obstacles[i].contains("name")) continue;
      Json named = {{"name", shot.obstacles[i].name}};
      named.update(obstacles[i]);
      obstacles[i] = std::move(named);
    }
    r["obstacles"] = Json(kept(obstacles, keepObstacles));
  }
  return result;
}

Json groupRecord(const Shot& whole, const Shot& part) {
  Json cloths = Json::array(), obstacles = Json::array();
  for (const ClothSpec& c : part.cloths) cloths.push_back(c.name);
  for (const ObstacleSpec& o : part.obstacles) obstacles.push_back(o.name);
  return Json{{"cloths", cloths}, {"obstacles", obstacles}, {"shot", whole.resolved}};
}

}  // namespace adacloth
