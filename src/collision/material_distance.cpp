#include "collision/material_distance.h"

#include <algorithm>
#include <limits>

#include "mesh/plane_geometry.h"

namespace adacloth {
namespace {

constexpr double kFar = std::numeric_limits<double>::infinity();

double pointSegment(const Vec2& p, const Vec2& a, const Vec2& b) {
  return (a + segmentParameter(a, b, p) * (b - a) - p).norm();
}

double segmentSegment(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const double sc = cross2(b - a, c - a), sd = cross2(b - a, d - a);
  const double sa = cross2(d - c, a - c), sb = cross2(d - c, b - c);
  if ((sc > 0) != (sd > 0) && (sa > 0) != (sb > 0)) return 0;
  return std::min({pointSegment(a, c, d), pointSegment(b, c, d), pointSegment(c, a, b), pointSegment(d, a, b)});
}

int cornerOf(const Tri& face, int node) {
  for (int k = 0; k < 3; ++k)
    if (face[k] == node) return k;
  return -1;
}

// The material ends of edge e in the chart of its owner face.
std::array<Vec2, 2> edgeEnds(const CollisionMesh& w, int e) {
  const int f = w.edgeOwner[e];
  const int k = int(std::find(w.faceEdges[f].begin(), w.faceEdges[f].end(), e) - w.faceEdges[f].begin());
  return {w.faceMaterial[f][k], w.faceMaterial[f][(k + 1) % 3]};
}

}  // namespace

double materialDistance(const Vec2& p, const std::array<Vec2, 3>& t) {
  const Vec2 &a = t[0], &b = t[1], &c = t[2];
  const double ab = cross2(b - a, p - a), bc = cross2(c - b, p - b), ca = cross2(a - c, p - c);
  if ((ab >= 0 && bc >= 0 && ca >= 0) || (ab <= 0 && bc <= 0 && ca <= 0)) return 0;
  return std::min({pointSegment(p, a, b), pointSegment(p, b, c), pointSegment(p, c, a)});
}

double materialDistance(const CollisionMesh& w, const Candidate& c) {
  if (c.edgeEdge) {
    const int fa = w.edgeOwner[c.a], fb = w.edgeOwner[c.b];
    if (fa < 0 || fb < 0 || w.faceChart[fa] < 0 || w.faceChart[fa] != w.faceChart[fb]) return kFar;
    const auto p = edgeEnds(w, c.a), q = edgeEnds(w, c.b);
    return segmentSegment(p[0], p[1], q[0], q[1]);
  }
  const int owner = w.nodeOwner[c.a], face = c.b;
  if (owner < 0 || w.faceChart[face] < 0 || w.faceChart[owner] != w.faceChart[face]) return kFar;
  const Vec2& p = w.faceMaterial[owner][cornerOf(w.faces[owner], c.a)];
  const auto& t = w.faceMaterial[face];
  return materialDistance(p, t);
}

}  // namespace adacloth
