#include "surface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>

namespace adacloth::assets {
namespace {

// Directed edge -> number of faces traversing it in that direction.
std::map<std::pair<int, int>, int> directedEdges(const Surface& s) {
  std::map<std::pair<int, int>, int> count;
  for (const Tri& f : s.faces)
    for (int i = 0; i < 3; ++i) ++count[{f[i], f[(i + 1) % 3]}];
  return count;
}

// Number of separate fans of faces around vertex v (1 for a manifold vertex).
int fansAround(const Surface& s, int v, const std::vector<std::vector<int>>& facesOf) {
  // Union the faces of v that share an edge incident to v.
  const std::vector<int>& fs = facesOf[v];
  std::vector<int> root(fs.size());
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](int i) { while (root[i] != i) i = root[i] = root[root[i]]; return i; };
  std::map<int, int> firstFaceWithOther;  // other vertex of an edge at v -> index in fs
  for (size_t k = 0; k < fs.size(); ++k)
    for (int c : s.faces[fs[k]]) {
      if (c == v) continue;
      auto [it, fresh] = firstFaceWithOther.emplace(c, int(k));
      if (!fresh) root[find(int(k))] = find(it->second);
    }
  int fans = 0;
  for (size_t k = 0; k < fs.size(); ++k) fans += find(int(k)) == int(k);
  return fans;
}

}  // namespace

std::vector<std::string> closedManifoldProblems(const Surface& s) {
  std::vector<std::string> problems;
  for (size_t i = 0; i < s.x.size(); ++i)
    if (!s.x[i].allFinite()) problems.push_back("vertex " + std::to_string(i) + " is not finite");
  const auto directed = directedEdges(s);
  for (const auto& [e, n] : directed) {
    auto back = directed.find({e.second, e.first});
    if (n != 1 || back == directed.end())
      problems.push_back("edge " + std::to_string(e.first) + "-" + std::to_string(e.second) + " is used " +
                         std::to_string(n) + " times in one direction and " +
                         std::to_string(back == directed.end() ? 0 : back->second) + " in the other");
  }
  std::vector<std::vector<int>> facesOf(s.x.size());
  for (size_t f = 0; f < s.faces.size(); ++f)
    for (int c : s.faces[f]) facesOf[c].push_back(int(f));
  for (size_t v = 0; v < s.x.size(); ++v) {
    if (facesOf[v].empty()) problems.push_back("vertex " + std::to_string(v) + " is in no face");
    else if (fansAround(s, int(v), facesOf) != 1) problems.push_back("vertex " + std::to_string(v) + " is pinched");
  }
  for (size_t f = 0; f < s.faces.size(); ++f) {
    const Tri& t = s.faces[f];
    if ((s.x[t[1]] - s.x[t[0]]).cross(s.x[t[2]] - s.x[t[0]]).norm() == 0.0)
      problems.push_back("face " + std::to_string(f) + " has zero area");
  }
  return problems;
}

int eulerCharacteristic(const Surface& s) {
  std::set<std::pair<int, int>> edges;
  for (const Tri& f : s.faces)
    for (int i = 0; i < 3; ++i) edges.insert(std::minmax(f[i], f[(i + 1) % 3]));
  return int(s.x.size()) - int(edges.size()) + int(s.faces.size());
}

int connectedComponents(const Surface& s) {
  std::vector<int> root(s.x.size());
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](int i) { while (root[i] != i) i = root[i] = root[root[i]]; return i; };
  for (const Tri& f : s.faces) {
    root[find(f[1])] = find(f[0]);
    root[find(f[2])] = find(f[0]);
  }
  int n = 0;
  for (size_t i = 0; i < s.x.size(); ++i) n += find(int(i)) == int(i);
  return n;
}

double signedVolume(const Surface& s) {
  double sixV = 0;  // summed in face order: deterministic
  for (const Tri& f : s.faces) sixV += s.x[f[0]].dot(s.x[f[1]].cross(s.x[f[2]]));
  return sixV / 6.0;
}

double minFaceArea(const Surface& s) {
  double a = std::numeric_limits<double>::infinity();
  for (const Tri& f : s.faces) a = std::min(a, 0.5 * (s.x[f[1]] - s.x[f[0]]).cross(s.x[f[2]] - s.x[f[0]]).norm());
  return a;
}

}  // namespace adacloth::assets
