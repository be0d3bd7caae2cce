#include "app/separation_check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "app/cloth_reach.h"
#include "config/shot_output.h"
#include "io/atomic_file.h"

namespace adacloth {
namespace fs = std::filesystem;
namespace {

// The box of an OBJ file's `v` lines (m).
Aabb vertexBox(const fs::path& file) {
  const std::string text = readFile(file);
  Aabb box;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (text.compare(at, 2, "v ") == 0) {
      const char* p = text.c_str() + at + 2;
      char* next = nullptr;
      Vec3 x;
      for (int k = 0; k < 3; ++k, p = next) x[k] = std::strtod(p, &next);
      box.add(x);
    }
    at = end + 1;
  }
  return box;
}

// A body whose boxes are compared: a cloth, or an obstacle (as written by the group that simulated it).
struct Body {
  std::string what;  // "cloth \"skirt1\"" or "obstacle \"walker2\""
  size_t group = 0;  // the group that wrote it
  bool cloth = true;
  std::string name;
  Aabb swept;        // since the previous frame
  Aabb now;
};

std::vector<Body> bodiesOf(const std::vector<GroupFolder>& groups) {
  std::vector<Body> bodies;
  std::map<std::string, bool> seen;
  for (size_t g = 0; g < groups.size(); ++g)
    for (const std::string& c : groups[g].cloths) bodies.push_back({"cloth \"" + c + "\"", g, true, c, {}, {}});
  for (size_t g = 0; g < groups.size(); ++g)
    for (const std::string& o : groups[g].obstacles)
      if (!seen[o]) seen[o] = true, bodies.push_back({"obstacle \"" + o + "\"", g, false, o, {}, {}});
  return bodies;
}

// The obstacle's file for `frame` in its group's folder: the latest at or before it.
std::optional<fs::path> obstacleFile(const GroupFolder& group, const std::string& name, int frame) {
  for (const fs::path& file : obstacleFrameFiles(group.folder, frame))
    if (file.filename().string().compare(0, name.size() + 1, name + "_") == 0 &&
        file.filename().string().size() == name.size() + 10)
      return file;
  return std::nullopt;
}

void updateBoxes(std::vector<Body>& bodies, const std::vector<GroupFolder>& groups, int frame, bool first,
                 std::map<fs::path, Aabb>& obstacleBoxes) {
  for (Body& b : bodies) {
    Aabb now;
    if (b.cloth) {
      now = vertexBox(clothFrameFile(groups[b.group].folder, b.name, frame));
    } else if (auto file = obstacleFile(groups[b.group], b.name, frame)) {
      auto it = obstacleBoxes.find(*file);
      if (it == obstacleBoxes.end()) it = obstacleBoxes.emplace(*file, vertexBox(*file)).first;
      now = it->second;
    }
    b.swept = now;
    if (!first) b.swept.add(b.now);
    b.now = now;
  }
}

bool simulates(const GroupFolder& group, const Body& body) {
  const auto& names = body.cloth ? group.cloths : group.obstacles;
  return std::find(names.begin(), names.end(), body.name) != names.end();
}

}  // namespace

std::optional<std::string> findCloseApproach(const std::vector<GroupFolder>& groups, double distance) {
  std::vector<Body> bodies = bodiesOf(groups);
  std::map<fs::path, Aabb> obstacleBoxes;
  const std::vector<int>& frames = groups.front().frames;
  for (size_t i = 0; i < frames.size(); ++i) {
    updateBoxes(bodies, groups, frames[i], i == 0, obstacleBoxes);
    for (const Body& a : bodies) {
      if (!a.cloth) continue;
      for (const Body& b : bodies) {
        // Cloth pairs once each; an obstacle only when the cloth's own group did not simulate it.
        if (b.cloth ? (&b <= &a || b.group == a.group) : simulates(groups[a.group], b)) continue;
        if (b.swept.lo.x() > b.swept.hi.x()) continue;  // an obstacle with no file yet
        const double d = boxDistance(a.swept, b.swept);
        if (d > distance) continue;
        char text[96];
        std::snprintf(text, sizeof text, " came within %.3f m (interaction distance %.3f m) of ", d, distance);
        return "frame " + std::to_string(frames[i]) + ": " + a.what + " of " + groups[a.group].folder.string() +
               text + b.what + (b.cloth ? " of " : " (simulated only by ") + groups[b.group].folder.string() +
               (b.cloth ? "" : ")") + ": the groups were not independent; rerun the shot unsplit";
      }
    }
  }
  return std::nullopt;
}

}  // namespace adacloth
