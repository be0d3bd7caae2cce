#include "collision/solid_check.h"

#include <algorithm>
#include <array>

namespace adacloth {

SolidCheck checkSolid(const std::vector<Vec3>& x, const std::vector<Tri>& faces) {
  SolidCheck check;
  std::vector<std::array<int, 2>> edges;
  edges.reserve(3 * faces.size());
  check.volume = enclosedVolume(x, faces);
  for (const Tri& f : faces)
    for (int k = 0; k < 3; ++k) edges.push_back({std::min(f[k], f[(k + 1) % 3]), std::max(f[k], f[(k + 1) % 3])});
  std::sort(edges.begin(), edges.end());
  for (size_t i = 0; i < edges.size();) {
    size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if (j - i != 2) ++check.openEdges;
    i = j;
  }
  return check;
}

double enclosedVolume(const std::vector<Vec3>& x, const std::vector<Tri>& faces) {
  double volume = 0;
  for (const Tri& f : faces) volume += x[f[0]].dot(x[f[1]].cross(x[f[2]])) / 6;
  return volume;
}

}  // namespace adacloth
