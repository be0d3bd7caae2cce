#include "remesh/flip.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh/triangle_stretch.h"
#include "sizing/tensor.h"

namespace adacloth {
namespace {

bool flippable(const Mesh& mesh, int edge) {
  return !mesh.edges[edge].isBoundary() && !mesh.isSeam(edge);
}

Vec3 worldNormal(const Mesh& mesh, int a, int b, int c) {
  const Vec3& x0 = mesh.nodes[a].x;
  return (mesh.nodes[b].x - x0).cross(mesh.nodes[c].x - x0);
}

bool nodesAreLinked(const Mesh& mesh, int a, int b) {
  for (int e : mesh.nodes[a].edges)
    if (mesh.edges[e].nodes[0] == b || mesh.edges[e].nodes[1] == b) return true;
  return false;
}

// Whether the flip of the edge between sides s0 and s1 replaces a face thinner in the metric than params.aspectMin
// (thinner than any collapse may make) by two faces whose thinner one is thicker than it. Why: splitting the long edge
// of a face whose third corner lies almost on that edge, or a short edge of such a face, makes another sliver each
// time, and the midpoint of the long edge lands next to that corner: edges of 0.1 mm in a cloth whose shortest
// allowed edge is 2 cm, which the contact passes then stretched 7-22x (docs/remeshing.md, "Slivers"). The flip that
// removes the sliver is the Delaunay one, but it was refused when its new diagonal was longer than the sizing allows
// (the next split batch now splits that diagonal at its midpoint, away from the old corner), and it was no candidate
// when the area-weighted test failed by less than its threshold.
bool removesSliver(const RemeshState& s, const EdgeSide& s0, const EdgeSide& s1, const RemeshParams& params) {
  const Mesh& m = s.mesh;
  const Vec2 &up = m.verts[s0.p].u, &uq = m.verts[s0.q].u, &uc = m.verts[s0.o].u, &ud = m.verts[s1.o].u;
  const Mat2 M = 0.25 * (s.sizing[s0.p] + s.sizing[s0.q] + s.sizing[s0.o] + s.sizing[s1.o]);
  // Side 0 is (p, q, c), side 1 is (q, p, d); after the flip (c, p, d) and (d, q, c).
  const double before = std::min(std::abs(metricAspect(up, uq, uc, M)), std::abs(metricAspect(uq, up, ud, M)));
  if (!(before < params.aspectMin)) return false;
  const double after = std::min(std::abs(metricAspect(uc, up, ud, M)), std::abs(metricAspect(ud, uq, uc, M)));
  return after > before;
}

// Whether the flip's new faces (c, p, d) and (d, q, c) stay within params.maxChangedStretch or within the larger
// stretch of the faces they replace. Why: turned across a fold, the new diagonal is shorter in the world than in
// material space, and a face that was flat and obtuse opens up across it (its height to that diagonal grows): 10 of
// the 43 frame ends at which a silk skirt's remesh left a face sheared past 1.3 came from the first flips, 13 from
// the flips after the collapses (docs/benchmarks.md, "Flips that sheared faces"). The flip is made anyway when a face
// it replaces is thinner in material space than params.aspectMin, or in the metric (removesSliver): keeping a thin
// face is worse, since the contacts shear it further.
bool keepsStretch(const RemeshState& s, const EdgeSide& s0, const EdgeSide& s1, const RemeshParams& params) {
  if (!(params.maxChangedStretch > 0)) return true;
  const Mesh& m = s.mesh;
  const Tri made[2] = {{s0.o, s0.p, s1.o}, {s1.o, s0.q, s0.o}};
  const double after = std::max(largerStretch(m, made[0]), largerStretch(m, made[1]));
  if (after <= params.maxChangedStretch) return true;
  const Tri& old0 = m.faces[s0.face].verts;
  const Tri& old1 = m.faces[s1.face].verts;
  if (noMoreStretched(after, std::max(largerStretch(m, old0), largerStretch(m, old1)))) return true;
  if (thinInMaterial(m, old0, params.aspectMin) || thinInMaterial(m, old1, params.aspectMin)) return true;
  return removesSliver(s, s0, s1, params);
}

}  // namespace

double flipMeasure(const RemeshState& s, int edge) {
  if (!flippable(s.mesh, edge)) return std::numeric_limits<double>::infinity();
  EdgeSide s0 = edgeSide(s.mesh, edge, 0), s1 = edgeSide(s.mesh, edge, 1);
  // Edge x-z with opposite verts w (side 0) and y (side 1).
  const Vec2 &x = s.mesh.verts[s0.p].u, &z = s.mesh.verts[s0.q].u, &w = s.mesh.verts[s0.o].u,
             &y = s.mesh.verts[s1.o].u;
  Mat2 M = 0.25 * (s.sizing[s0.p] + s.sizing[s0.q] + s.sizing[s0.o] + s.sizing[s1.o]);
  double areaXYZ = std::abs(signedArea(x, y, z)), areaXWZ = std::abs(signedArea(x, w, z));
  // areaXYZ ~ sin(angle at y), the dot at w ~ cos(angle at w), and vice versa: the sum is ~ sin(w + y) < 0 when
  // w + y > pi.
  return areaXYZ * (x - w).dot(M * (z - w)) + areaXWZ * (z - y).dot(M * (x - y));
}

bool canFlip(const RemeshState& s, int edge, const RemeshParams& params) {
  const Mesh& m = s.mesh;
  if (!flippable(m, edge)) return false;
  EdgeSide s0 = edgeSide(m, edge, 0), s1 = edgeSide(m, edge, 1);
  int c = m.verts[s0.o].node, d = m.verts[s1.o].node;
  if (c == d || nodesAreLinked(m, c, d)) return false;
  const Vec2 &up = m.verts[s0.p].u, &uq = m.verts[s0.q].u, &uc = m.verts[s0.o].u, &ud = m.verts[s1.o].u;
  double a0 = signedArea(uc, up, ud), a1 = signedArea(ud, uq, uc);
  double quad = m.faces[s0.face].materialArea + m.faces[s1.face].materialArea;
  if (!(a0 > 1e-9 * quad && a1 > 1e-9 * quad)) return false;
  // The new diagonal must itself be valid: a flip never creates an edge that the sizing field would split, except to
  // remove a sliver (removesSliver).
  if (edgeSizeSquared(uc - ud, s.sizing[s0.o], s.sizing[s1.o]) > 1.0 && !removesSliver(s, s0, s1, params))
    return false;
  const Vec3 &n0 = m.faces[s0.face].normal, &n1 = m.faces[s1.face].normal;
  if (n0.dot(n1) < std::cos(params.flipMaxDihedral)) return false;
  int p = m.verts[s0.p].node, q = m.verts[s0.q].node;
  Vec3 average = n0 + n1;
  if (!(worldNormal(m, c, p, d).dot(average) > 0.0 && worldNormal(m, d, q, c).dot(average) > 0.0)) return false;
  return keepsStretch(s, s0, s1, params);
}

void flipEdge(RemeshState& s, int edge) {
  EdgeSide s0 = edgeSide(s.mesh, edge, 0), s1 = edgeSide(s.mesh, edge, 1);
  s.mesh.faces[s0.face].verts = {s0.o, s0.p, s1.o};
  s.mesh.faces[s1.face].verts = {s1.o, s0.q, s0.o};
}

namespace {

// The edges that fail the Delaunay test by more than params.flipThreshold, worst first (ties by index). An edge whose
// ends did not change since the last scan and that was not a candidate then is not one now (its measure reads only
// its two faces): only the others are measured again.
std::vector<std::pair<double, int>> flipCandidates(RemeshState& s, const RemeshParams& params) {
  const bool rescanAll = s.flipScanBatch < 0;
  auto remeasure = [&](int n) {
    return rescanAll || s.flipCandidateEnd[size_t(n)] || s.changedSince(n, s.flipScanBatch);
  };
  std::vector<std::pair<double, int>> candidates;
  for (int e = 0; e < int(s.mesh.edges.size()); ++e) {
    const Edge& edge = s.mesh.edges[e];
    if (!remeasure(edge.nodes[0]) && !remeasure(edge.nodes[1])) continue;
    if (!flippable(s.mesh, e)) continue;
    EdgeSide s0 = edgeSide(s.mesh, e, 0), s1 = edgeSide(s.mesh, e, 1);
    double measure = flipMeasure(s, e);
    double scale = s.mesh.faces[s0.face].materialArea + s.mesh.faces[s1.face].materialArea;
    // A sliver's measure is weighted by its own tiny area, so it may fail the test by less than the threshold.
    if (measure < -params.flipThreshold * scale || (measure < 0.0 && removesSliver(s, s0, s1, params)))
      candidates.emplace_back(measure / scale, e);
  }
  std::sort(candidates.begin(), candidates.end());
  std::fill(s.flipCandidateEnd.begin(), s.flipCandidateEnd.end(), 0);
  for (const auto& candidate : candidates)
    for (int n : s.mesh.edges[candidate.second].nodes) s.flipCandidateEnd[size_t(n)] = 1;
  s.flipScanBatch = s.batches;
  return candidates;
}

}  // namespace

int flipPass(RemeshState& s, const RemeshParams& params) {
  s.beginBatch();
  const std::vector<std::pair<double, int>> candidates = flipCandidates(s, params);
  int count = 0;
  for (const auto& [measure, e] : candidates) {
    // A face changed by an earlier flip of this batch has all its nodes locked: test the edge's own nodes before
    // reading its faces.
    const Edge& edge = s.mesh.edges[e];
    if (s.lockedNode[edge.nodes[0]] || s.lockedNode[edge.nodes[1]]) continue;
    EdgeSide s0 = edgeSide(s.mesh, e, 0), s1 = edgeSide(s.mesh, e, 1);
    int quad[4] = {s.mesh.verts[s0.p].node, s.mesh.verts[s0.q].node, s.mesh.verts[s0.o].node,
                   s.mesh.verts[s1.o].node};
    bool free = true;
    for (int n : quad) free = free && !s.lockedNode[n];
    if (!free || !canFlip(s, e, params)) continue;
    // The flip makes (c, p, d) and (d, q, c) (flipEdge).
    const Vec3 &p = s.mesh.nodes[quad[0]].x, &q = s.mesh.nodes[quad[1]].x, &c = s.mesh.nodes[quad[2]].x,
               &d = s.mesh.nodes[quad[3]].x;
    if (!s.sweepAllowed({{p, q, c, d}}, {{c, p, d}, {d, q, c}})) continue;
    for (int n : quad) s.lockedNode[n] = 1;
    flipEdge(s, e);
    ++count;
  }
  if (count > 0) finishBatch(s);
  return count;
}

int flipUntilDelaunay(RemeshState& s, const RemeshParams& params) {
  int total = 0;
  for (int pass = 0; pass < params.maxFlipPasses; ++pass) {
    int n = flipPass(s, params);
    total += n;
    if (n == 0) break;
  }
  return total;
}

}  // namespace adacloth
