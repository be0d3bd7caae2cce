#include "collision/measure.h"

#include <algorithm>
#include <limits>

#include "collision/bvh.h"
#include "collision/geometry.h"
#include "collision/wide_bvh.h"

namespace adacloth {

double maxPenetration(const Mesh& cloth, const ObstacleField& obstacles) {
  if (obstacles.empty()) return 0.0;
  std::vector<double> depth(cloth.nodes.size(), 0.0);
#pragma omp parallel for schedule(dynamic, 256)
  for (long i = 0; i < long(cloth.nodes.size()); ++i) {
    depth[i] = obstacles.depthInside(cloth.nodes[i].x);
  }
  return depth.empty() ? 0.0 : *std::max_element(depth.begin(), depth.end());
}

namespace {

std::vector<Aabb> faceBoxes(const Mesh& m) {
  std::vector<Aabb> boxes(m.faces.size());
  for (size_t f = 0; f < m.faces.size(); ++f) {
    Tri t = m.faceNodes(int(f));
    for (int k = 0; k < 3; ++k) boxes[f].add(m.nodes[t[k]].x);
  }
  return boxes;
}

bool facesIntersect(const Mesh& a, int fa, const Mesh& b, int fb, bool same) {
  Tri ta = a.faceNodes(fa), tb = b.faceNodes(fb);
  if (same)
    for (int i : ta)
      for (int j : tb)
        if (i == j) return false;
  return trianglesIntersect(a.nodes[ta[0]].x, a.nodes[ta[1]].x, a.nodes[ta[2]].x, b.nodes[tb[0]].x,
                            b.nodes[tb[1]].x, b.nodes[tb[2]].x);
}

// Pairs of a cloth's faces that share exactly one node and cross beyond it (trianglesCrossBeyondCorner), each pair
// once: at its shared node.
int crossingsAtSharedNodes(const Mesh& m) {
  int count = 0;
  std::vector<int> fan;
  for (size_t n = 0; n < m.nodes.size(); ++n) {
    fan.clear();
    for (int v : m.nodes[n].verts) fan.insert(fan.end(), m.verts[v].faces.begin(), m.verts[v].faces.end());
    for (size_t i = 0; i < fan.size(); ++i)
      for (size_t j = i + 1; j < fan.size(); ++j) {
        const Tri a = m.faceNodes(fan[i]), b = m.faceNodes(fan[j]);
        // The corners other than n, in order; a pair sharing an edge has one in common.
        int oa[2], ob[2], ka = 0, kb = 0;
        for (int k = 0; k < 3; ++k) {
          if (a[k] != int(n)) oa[ka++] = a[k];
          if (b[k] != int(n)) ob[kb++] = b[k];
        }
        if (oa[0] == ob[0] || oa[0] == ob[1] || oa[1] == ob[0] || oa[1] == ob[1]) continue;
        const Vec3& x = m.nodes[n].x;
        count += trianglesCrossBeyondCorner(x, m.nodes[oa[0]].x, m.nodes[oa[1]].x, m.nodes[ob[0]].x, m.nodes[ob[1]].x);
      }
  }
  return count;
}

}  // namespace

std::vector<std::vector<int>> intersectionsBetween(const std::vector<const Mesh*>& cloths) {
  // Four-wide trees that know the faces' nodes: faces sharing a node do not count as intersecting, and the self
  // traversal leaves those pairs (most of its overlapping pairs) out. The trees may let through a few pairs whose
  // boxes lie a micrometre apart, which the exact test then finds apart: the count does not depend on them.
  std::vector<WideBvh> trees(cloths.size());
  for (size_t c = 0; c < cloths.size(); ++c) {
    const std::vector<Aabb> boxes = faceBoxes(*cloths[c]);
    std::vector<Tri> corners(cloths[c]->faces.size());
    for (size_t f = 0; f < corners.size(); ++f) corners[f] = cloths[c]->faceNodes(int(f));
    trees[c].build(boxes.data(), boxes.size(), corners.data());
  }
  std::vector<std::vector<int>> count(cloths.size(), std::vector<int>(cloths.size(), 0));
  for (size_t a = 0; a < cloths.size(); ++a) {
    count[a][a] += crossingsAtSharedNodes(*cloths[a]);
    std::vector<std::pair<int, int>> pairs;
    trees[a].selfOverlaps([&](int i, int j) { pairs.push_back({i, j}); }, 0.0);
    for (const auto& [i, j] : pairs) count[a][a] += facesIntersect(*cloths[a], i, *cloths[a], j, true);
    for (size_t b = a + 1; b < cloths.size(); ++b) {
      int between = 0;
      trees[a].overlaps(
          trees[b], [&](int i, int j) { between += facesIntersect(*cloths[a], i, *cloths[b], j, false); }, 0.0);
      count[a][b] = count[b][a] = between;
    }
  }
  return count;
}

std::vector<int> countIntersections(const std::vector<const Mesh*>& cloths) {
  std::vector<int> count;
  for (const std::vector<int>& row : intersectionsBetween(cloths)) {
    int sum = 0;
    for (int pairs : row) sum += pairs;
    count.push_back(sum);
  }
  return count;
}

}  // namespace adacloth
