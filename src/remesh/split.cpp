#include "remesh/split.h"

#include <algorithm>

namespace adacloth {
namespace {

int addNode(RemeshState& s, const Node& a, const Node& b) {
  Node n;
  n.x = 0.5 * (a.x + b.x);
  n.v = 0.5 * (a.v + b.v);
  s.mesh.nodes.push_back(n);
  s.protectedNode.push_back(0);
  s.originalNode.push_back(-1);
  s.lockedNode.push_back(1);
  return int(s.mesh.nodes.size()) - 1;
}

int addVert(RemeshState& s, int p, int q, int node) {
  Vert v;
  v.u = 0.5 * (s.mesh.verts[p].u + s.mesh.verts[q].u);
  v.node = node;
  s.mesh.verts.push_back(v);
  s.sizing.push_back(0.5 * (s.sizing[p] + s.sizing[q]));
  return int(s.mesh.verts.size()) - 1;
}

// Face (p, q, o) becomes (p, m, o) and a new face (m, q, o): both keep the counter-clockwise order.
void splitFace(RemeshState& s, const EdgeSide& side, int m) {
  s.mesh.faces[side.face].verts = {side.p, m, side.o};
  Face added;
  added.verts = {m, side.q, side.o};
  s.mesh.faces.push_back(added);
  s.deadFace.push_back(0);
  s.lockedFace.push_back(1);
}

// The metric a face is judged in: the mean of its verts' sizing tensors (as a collapse judges the faces it makes).
Mat2 faceMetric(const RemeshState& s, int face) {
  const Tri& v = s.mesh.faces[face].verts;
  return (s.sizing[v[0]] + s.sizing[v[1]] + s.sizing[v[2]]) / 3.0;
}

// The smallest metric aspect among the faces a split of `edge` would make (1 for equilateral faces).
double aspectAfterSplit(const RemeshState& s, int edge) {
  double worst = 1.0;
  for (int k = 0; k < 2; ++k) {
    const EdgeSide side = edgeSide(s.mesh, edge, k);
    if (side.face < 0) continue;
    const Vec2 &up = s.mesh.verts[side.p].u, &uq = s.mesh.verts[side.q].u, &uo = s.mesh.verts[side.o].u;
    const Vec2 um = 0.5 * (up + uq);
    const Mat2 M = faceMetric(s, side.face);
    worst = std::min({worst, metricAspect(up, um, uo, M), metricAspect(um, uq, uo, M)});
  }
  return worst;
}

// The edge of `face` that is longest in the face's metric.
int longestEdge(const RemeshState& s, int face) {
  const Face& f = s.mesh.faces[face];
  const Mat2 M = faceMetric(s, face);
  int longest = f.edges[0];
  double best = -1;
  for (int i = 0; i < 3; ++i) {
    const Vec2 d = s.mesh.verts[f.verts[(i + 1) % 3]].u - s.mesh.verts[f.verts[i]].u;
    const double length2 = d.dot(M * d);
    if (length2 > best) best = length2, longest = f.edges[i];
  }
  return longest;
}

}  // namespace

int edgeToSplit(const RemeshState& s, int edge, const RemeshParams& params) {
  const double here = aspectAfterSplit(s, edge);
  if (!(here < params.aspectMin)) return edge;
  for (int face : s.mesh.edges[edge].faces) {
    if (face < 0) continue;
    const int longest = longestEdge(s, face);
    if (longest != edge && aspectAfterSplit(s, longest) > here) return longest;
  }
  return edge;
}

int splitEdge(RemeshState& s, int edge) {
  const Edge e = s.mesh.edges[edge];
  EdgeSide sides[2] = {edgeSide(s.mesh, edge, 0), edgeSide(s.mesh, edge, 1)};
  for (const EdgeSide& side : sides)
    if (side.face >= 0) s.lockedFace[side.face] = 1;
  int m = addNode(s, s.mesh.nodes[e.nodes[0]], s.mesh.nodes[e.nodes[1]]);
  int vm0 = addVert(s, sides[0].p, sides[0].q, m);
  splitFace(s, sides[0], vm0);
  if (sides[1].face >= 0) {
    // Side 1 traverses the edge the other way: it shares the midpoint vert only when it uses the same two verts.
    bool sameVerts = sides[1].p == sides[0].q && sides[1].q == sides[0].p;
    int vm1 = sameVerts ? vm0 : addVert(s, sides[1].p, sides[1].q, m);
    splitFace(s, sides[1], vm1);
  }
  return m;
}

int splitPass(RemeshState& s, const RemeshParams& params) {
  s.beginBatch();
  std::vector<std::pair<double, int>> invalid;
  for (int e = 0; e < int(s.mesh.edges.size()); ++e) {
    double s2 = meshEdgeSizeSquared(s, e);
    if (s2 > 1.0) invalid.emplace_back(-s2, e);
  }
  std::sort(invalid.begin(), invalid.end());  // largest s^2 first; ties by edge index (deterministic)
  int count = 0;
  for (const auto& [negS2, invalidEdge] : invalid) {
    const int e = edgeToSplit(s, invalidEdge, params);
    const Edge& edge = s.mesh.edges[e];
    if (s.lockedFace[edge.faces[0]] || (edge.faces[1] >= 0 && s.lockedFace[edge.faces[1]])) continue;
    splitEdge(s, e);
    ++count;
  }
  if (count > 0) finishBatch(s);
  return count;
}

}  // namespace adacloth
