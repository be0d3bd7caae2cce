#include "remesh/remesh_state.h"

#include <algorithm>
#include <cmath>

#include "sizing/tensor.h"

namespace adacloth {

void RemeshState::recordNewNodes() {
  changedIn.resize(mesh.nodes.size(), batches);
  collapsesRefutedAt.resize(mesh.nodes.size(), -1);
  flipCandidateEnd.resize(mesh.nodes.size(), 0);
}

void RemeshState::beginBatch() {
  recordNewNodes();  // nodes without a history (a state made by hand, as in tests)
  facesAtBegin.resize(mesh.faces.size());
  for (size_t f = 0; f < mesh.faces.size(); ++f) facesAtBegin[f] = mesh.faces[f].verts;
  deadFace.assign(mesh.faces.size(), 0);
  lockedNode.assign(mesh.nodes.size(), 0);
  lockedFace.assign(mesh.faces.size(), 0);
  if (sweepCheck && sweepCheck->beginBatch) sweepCheck->beginBatch(mesh, batches, faceMap);
}

bool RemeshState::sweepAllowed(const std::vector<std::array<Vec3, 4>>& sweep,
                               const std::vector<std::array<Vec3, 3>>& made) {
  if (!sweepCheck || !sweepCheck->allow || sweepCheck->allow(sweep, made)) return true;
  ++refused;
  return false;
}

namespace {

// Keeps the entries whose keep[i] is set, in order; returns old -> new (-1 when dropped).
template <typename T>
std::vector<int> compactVector(std::vector<T>& items, const std::vector<char>& keep) {
  std::vector<int> remap(items.size(), -1);
  size_t next = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!keep[i]) continue;
    remap[i] = int(next);
    if (next != i) items[next] = std::move(items[i]);
    ++next;
  }
  items.resize(next);
  return remap;
}

// Marks the nodes of every face the batch changed, created or removed (their old and new corners). Entries of nodes
// made in the batch are added.
void recordChanges(RemeshState& s) {
  const Mesh& m = s.mesh;
  s.recordNewNodes();  // the batch's splits made nodes
  auto mark = [&](const Tri& verts) {
    for (int v : verts) s.changedIn[size_t(m.verts[v].node)] = s.batches;
  };
  for (size_t f = 0; f < m.faces.size(); ++f) {
    const Tri& now = m.faces[f].verts;
    const bool known = f < s.facesAtBegin.size();
    if (known && now == s.facesAtBegin[f] && !(f < s.deadFace.size() && s.deadFace[f])) continue;
    mark(now);
    if (known) mark(s.facesAtBegin[f]);
  }
}

}  // namespace

void finishBatch(RemeshState& s) {
  Mesh& m = s.mesh;
  recordChanges(s);
  std::vector<char> keepFace(m.faces.size(), 1);
  for (size_t f = 0; f < s.deadFace.size(); ++f) keepFace[f] = !s.deadFace[f];
  s.faceMap = compactVector(m.faces, keepFace);
  s.faceMap.resize(std::min(s.faceMap.size(), s.facesAtBegin.size()));

  std::vector<char> keepVert(m.verts.size(), 0);
  for (const Face& f : m.faces)
    for (int v : f.verts) keepVert[v] = 1;
  compactVector(s.sizing, keepVert);
  std::vector<int> vertMap = compactVector(m.verts, keepVert);
  for (Face& f : m.faces)
    for (int& v : f.verts) v = vertMap[v];

  std::vector<char> keepNode(m.nodes.size(), 0);
  for (const Vert& v : m.verts) keepNode[v.node] = 1;
  compactVector(s.protectedNode, keepNode);
  compactVector(s.originalNode, keepNode);
  compactVector(s.changedIn, keepNode);
  compactVector(s.collapsesRefutedAt, keepNode);
  compactVector(s.flipCandidateEnd, keepNode);
  std::vector<int> nodeMap = compactVector(m.nodes, keepNode);
  for (Vert& v : m.verts) v.node = nodeMap[v.node];

  m.buildAdjacency();
  // Only faces with a changed node, and the changed nodes' normals, can differ from before the batch (a node's
  // normal sums its faces, each of which has all its nodes marked when it changed).
  for (size_t f = 0; f < m.faces.size(); ++f) {
    const Tri n = m.faceNodes(int(f));
    if (s.changedSince(n[0], s.batches) || s.changedSince(n[1], s.batches) || s.changedSince(n[2], s.batches))
      m.updateFaceGeometry(int(f));
  }
  for (size_t n = 0; n < m.nodes.size(); ++n)
    if (s.changedSince(int(n), s.batches)) m.updateNodeNormal(int(n));
  s.deadFace.assign(m.faces.size(), 0);
  ++s.batches;
}

EdgeSide edgeSide(const Mesh& mesh, int edge, int side) {
  const Edge& e = mesh.edges[edge];
  EdgeSide out;
  out.face = e.faces[side];
  if (out.face < 0) return out;
  const Face& f = mesh.faces[out.face];
  for (int c = 0; c < 3; ++c) {
    int a = mesh.nodeOf(out.face, c), b = mesh.nodeOf(out.face, (c + 1) % 3);
    if ((a == e.nodes[0] && b == e.nodes[1]) || (a == e.nodes[1] && b == e.nodes[0])) {
      out.p = f.verts[c];
      out.q = f.verts[(c + 1) % 3];
      out.o = f.verts[(c + 2) % 3];
      return out;
    }
  }
  out.face = -1;  // unreachable on a consistent mesh
  return out;
}

double meshEdgeSizeSquared(const RemeshState& s, int edge) {
  double worst = 0.0;
  for (int side = 0; side < 2; ++side) {
    EdgeSide es = edgeSide(s.mesh, edge, side);
    if (es.face < 0) continue;
    Vec2 du = s.mesh.verts[es.q].u - s.mesh.verts[es.p].u;
    worst = std::max(worst, edgeSizeSquared(du, s.sizing[es.p], s.sizing[es.q]));
  }
  return worst;
}

double signedArea(const Vec2& a, const Vec2& b, const Vec2& c) {
  Vec2 x = b - a, y = c - a;
  return 0.5 * (x.x() * y.y() - x.y() * y.x());
}

double metricAspect(const Vec2& a, const Vec2& b, const Vec2& c, const Mat2& M) {
  double det = M.determinant();
  if (!(det > 0.0)) return 0.0;
  double area = signedArea(a, b, c) * std::sqrt(det);
  auto len = [&M](const Vec2& d) { return std::sqrt(std::max(0.0, d.dot(M * d))); };
  double perimeter = len(b - a) + len(c - b) + len(a - c);
  if (!(perimeter > 0.0)) return 0.0;
  return 12.0 * std::sqrt(3.0) * area / (perimeter * perimeter);
}

bool thinInMaterial(const Mesh& mesh, const Tri& verts, double aspectMin) {
  return metricAspect(mesh.verts[verts[0]].u, mesh.verts[verts[1]].u, mesh.verts[verts[2]].u, Mat2::Identity()) <
         aspectMin;
}

std::vector<int> oneRing(const Mesh& mesh, int node) {
  std::vector<int> ring;
  for (int v : mesh.nodes[node].verts)
    for (int f : mesh.verts[v].faces)
      for (int n : mesh.faceNodes(f)) ring.push_back(n);
  if (ring.empty()) ring.push_back(node);
  std::sort(ring.begin(), ring.end());
  ring.erase(std::unique(ring.begin(), ring.end()), ring.end());
  return ring;
}

void lockNodes(RemeshState& s, const std::vector<int>& nodes) {
  for (int n : nodes) s.lockedNode[n] = 1;
}

}  // namespace adacloth
