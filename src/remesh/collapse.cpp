#include "remesh/collapse.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "mesh/triangle_stretch.h"
#include "sizing/tensor.h"

namespace adacloth {
namespace {

int otherNode(const Edge& e, int n) { return e.nodes[0] == n ? e.nodes[1] : e.nodes[0]; }

bool faceHasVert(const Face& f, int v) { return f.verts[0] == v || f.verts[1] == v || f.verts[2] == v; }

// The vert of node `target` in the same panel as vert `v` (sharing a face with it); -1 when there is none or more
// than one (then the collapse is not well defined).
int partnerVert(const Mesh& m, int v, int target) {
  int found = -1;
  for (int f : m.verts[v].faces)
    for (int w : m.faces[f].verts)
      if (m.verts[w].node == target) {
        if (found >= 0 && found != w) return -1;
        found = w;
      }
  return found;
}

std::vector<int> neighbours(const Mesh& m, int node) {
  std::vector<int> out;
  for (int e : m.nodes[node].edges) out.push_back(otherNode(m.edges[e], node));
  std::sort(out.begin(), out.end());
  return out;
}

// Link condition: the nodes adjacent to both ends are exactly the nodes opposite the edge.
bool linkConditionHolds(const Mesh& m, int edge) {
  const Edge& e = m.edges[edge];
  std::vector<int> a = neighbours(m, e.nodes[0]), b = neighbours(m, e.nodes[1]), common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  std::vector<int> opposite;
  for (int side = 0; side < 2; ++side) {
    EdgeSide s = edgeSide(m, edge, side);
    if (s.face >= 0) opposite.push_back(m.verts[s.o].node);
  }
  std::sort(opposite.begin(), opposite.end());
  opposite.erase(std::unique(opposite.begin(), opposite.end()), opposite.end());
  return common == opposite;
}

// Whether a collapse of `removed` is held to params.maxChangedStretch: not when a face around it is thinner in
// material space than params.aspectMin (removing or reshaping such a face is worth a sheared face for a step).
bool stretchLimited(const Mesh& m, int removed, const RemeshParams& params) {
  if (!(params.maxChangedStretch > 0)) return false;
  for (int va : m.nodes[removed].verts)
    for (int f : m.verts[va].faces)
      if (thinInMaterial(m, m.faces[f].verts, params.aspectMin)) return false;
  return true;
}

// Whether face `face` stays acceptable with its vert `va` replaced by `vb` (new corner verts `v`): new edges short
// enough (the cheapest and most frequent rejection, tested first), positive material area, metric aspect ratio, no
// flip of its world normal and, when `limitStretch`, no stretch past params.maxChangedStretch and past its own.
bool changedFaceIsValid(const RemeshState& s, const Face& face, const Tri& v, int vb, const RemeshParams& params,
                        bool limitStretch, double& area) {
  const Mesh& m = s.mesh;
  for (int w : v)
    if (w != vb &&
        edgeSizeSquared(m.verts[w].u - m.verts[vb].u, s.sizing[w], s.sizing[vb]) > params.collapseMaxSizeSq)
      return false;
  const Vec2 &u0 = m.verts[v[0]].u, &u1 = m.verts[v[1]].u, &u2 = m.verts[v[2]].u;
  area = signedArea(u0, u1, u2);
  if (!(area > 1e-12 * std::abs(face.materialArea))) return false;
  Mat2 M = (s.sizing[v[0]] + s.sizing[v[1]] + s.sizing[v[2]]) / 3.0;
  if (metricAspect(u0, u1, u2, M) < params.aspectMin) return false;
  const Vec3 &x0 = m.nodes[m.verts[v[0]].node].x, &x1 = m.nodes[m.verts[v[1]].node].x,
             &x2 = m.nodes[m.verts[v[2]].node].x;
  if (!((x1 - x0).cross(x2 - x0).dot(face.normal) > 0.0)) return false;
  if (!limitStretch) return true;
  const double stretch = largerStretch(m, v);
  return stretch <= params.maxChangedStretch || noMoreStretched(stretch, largerStretch(m, face.verts));
}

// Checks the faces of vert `va` once `va` is replaced by `vb`; fails on any bad new face or a change of the fan's
// material area (the panel outline would move).
bool fanStaysValid(const RemeshState& s, int va, int vb, const RemeshParams& params, bool limitStretch) {
  const Mesh& m = s.mesh;
  double lost = 0.0, kept = 0.0, scale = 0.0;
  for (int f : m.verts[va].faces) {
    const Face& face = m.faces[f];
    scale += std::abs(face.materialArea);
    lost += face.materialArea;
    if (faceHasVert(face, vb)) continue;  // dies with the edge
    Tri v = face.verts;
    for (int& w : v)
      if (w == va) w = vb;
    double area = 0.0;
    if (!changedFaceIsValid(s, face, v, vb, params, limitStretch, area)) return false;
    kept += area;
  }
  return std::abs(kept - lost) <= 1e-12 * scale;
}

}  // namespace

bool canCollapse(const RemeshState& s, int edge, int removed, const RemeshParams& params) {
  const Mesh& m = s.mesh;
  const Edge& e = m.edges[edge];
  const int target = otherNode(e, removed);
  if (s.protectedNode[removed]) return false;
  const Node& node = m.nodes[removed];
  if ((node.boundary || node.seam) && !(e.isBoundary() || m.isSeam(edge))) return false;
  const bool limitStretch = stretchLimited(m, removed, params);
  for (int va : node.verts) {
    int vb = partnerVert(m, va, target);
    if (vb < 0 || !fanStaysValid(s, va, vb, params, limitStretch)) return false;
  }
  return linkConditionHolds(m, edge);
}

std::vector<std::array<Vec3, 4>> collapseSweep(const Mesh& m, int edge, int removed) {
  const int target = otherNode(m.edges[edge], removed);
  const Vec3 &from = m.nodes[removed].x, &to = m.nodes[target].x;
  std::vector<std::array<Vec3, 4>> sweep;
  for (int va : m.nodes[removed].verts)
    for (int f : m.verts[va].faces) {
      const Tri n = m.faceNodes(f);
      if (n[0] == target || n[1] == target || n[2] == target) continue;  // dies with the edge
      const int k = n[0] == removed ? 0 : n[1] == removed ? 1 : 2;
      sweep.push_back({from, to, m.nodes[n[(k + 1) % 3]].x, m.nodes[n[(k + 2) % 3]].x});
    }
  return sweep;
}

void collapseEdge(RemeshState& s, int edge, int removed) {
  Mesh& m = s.mesh;
  const int target = otherNode(m.edges[edge], removed);
  for (int va : m.nodes[removed].verts) {
    int vb = partnerVert(m, va, target);
    for (int f : m.verts[va].faces) {
      Face& face = m.faces[f];
      if (faceHasVert(face, vb)) {
        s.deadFace[f] = 1;
        continue;
      }
      for (int& w : face.verts)
        if (w == va) w = vb;
    }
  }
}

namespace {

// Whether canCollapse(edge, removed) is known to be false: the collapses of `removed` were all found invalid at the
// start of a batch, and neither end of the edge changed in that batch or later (the test reads only the faces around
// `removed` and the edges of the other end).
bool knownInvalid(const RemeshState& s, int removed, int other) {
  const int refutedAt = s.collapsesRefutedAt[size_t(removed)];
  return refutedAt >= 0 && !s.changedSince(removed, refutedAt) && !s.changedSince(other, refutedAt);
}

// The edges with s^2 <= params.collapseMaxSizeSq that have an end whose collapse is not known to be invalid,
// shortest first (ties by index).
std::vector<std::pair<double, int>> collapseCandidates(const RemeshState& s, const RemeshParams& params) {
  std::vector<std::pair<double, int>> candidates;
  for (int e = 0; e < int(s.mesh.edges.size()); ++e) {
    const auto& ends = s.mesh.edges[e].nodes;
    if (knownInvalid(s, ends[0], ends[1]) && knownInvalid(s, ends[1], ends[0])) continue;
    double s2 = meshEdgeSizeSquared(s, e);
    if (s2 <= params.collapseMaxSizeSq) candidates.emplace_back(s2, e);
  }
  std::sort(candidates.begin(), candidates.end());
  return candidates;
}

}  // namespace

int collapsePass(RemeshState& s, const RemeshParams& params) {
  s.beginBatch();
  const std::vector<std::pair<double, int>> candidates = collapseCandidates(s, params);
  // Nodes with a valid collapse that the sweep check refused (its answer depends on what else changes). Every other
  // node's collapses were invalid at the batch's start, except along edges skipped for a lock: those have an end that
  // this batch changes, which knownInvalid() reads as unknown.
  std::vector<char> open(s.mesh.nodes.size(), 0);
  int count = 0;
  for (const auto& [s2, e] : candidates) {
    const Edge& edge = s.mesh.edges[e];
    if (s.lockedNode[edge.nodes[0]] || s.lockedNode[edge.nodes[1]]) continue;
    // A face changed earlier in this batch has all its nodes locked, so with both ends unlocked every face, edge
    // list and position the check reads is as the batch started. The collapse changes the faces around the removed
    // node: locking its closed one-ring (which holds the other end) keeps that true for later operations.
    for (int k = 0; k < 2; ++k) {
      const int removed = edge.nodes[k], other = edge.nodes[1 - k];
      if (knownInvalid(s, removed, other) || !canCollapse(s, e, removed, params)) continue;
      const std::vector<std::array<Vec3, 4>> sweep = collapseSweep(s.mesh, e, removed);
      std::vector<std::array<Vec3, 3>> made;  // u w w' becomes v w w'
      for (const auto& tet : sweep) made.push_back({tet[1], tet[2], tet[3]});
      if (!s.sweepAllowed(sweep, made)) {
        open[size_t(removed)] = 1;
        continue;
      }
      lockNodes(s, oneRing(s.mesh, removed));
      collapseEdge(s, e, removed);
      ++count;
      break;
    }
  }
  for (size_t n = 0; n < open.size(); ++n)
    if (!open[n]) s.collapsesRefutedAt[n] = s.batches;
  if (count > 0) finishBatch(s);
  return count;
}

}  // namespace adacloth
