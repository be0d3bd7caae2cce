// validate(): every invariant of the data model, checked from the source of truth (faces and vert->node) against
// what is stored. Meant to run after every mutation in tests; cheap enough (O(n log n)) to run in debug shots too.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "mesh/mesh.h"

namespace adacloth {
namespace {

using Problems = std::vector<std::string>;

template <typename... Args>
void report(Problems& out, Args&&... parts) {
  std::ostringstream s;
  (s << ... << parts);
  out.push_back(s.str());
}

bool indicesInRange(const Mesh& m, Problems& out) {
  size_t before = out.size();
  for (size_t v = 0; v < m.verts.size(); ++v)
    if (m.verts[v].node < 0 || m.verts[v].node >= int(m.nodes.size())) report(out, "vert ", v, ": node out of range");
  for (size_t f = 0; f < m.faces.size(); ++f)
    for (int v : m.faces[f].verts)
      if (v < 0 || v >= int(m.verts.size())) report(out, "face ", f, ": vert ", v, " out of range");
  for (size_t e = 0; e < m.edges.size(); ++e) {
    for (int n : m.edges[e].nodes)
      if (n < 0 || n >= int(m.nodes.size())) report(out, "edge ", e, ": node out of range");
    for (int f : m.edges[e].faces)
      if (f < -1 || f >= int(m.faces.size())) report(out, "edge ", e, ": face out of range");
    if (m.edges[e].faces[0] < 0) report(out, "edge ", e, ": has no face");
  }
  for (size_t f = 0; f < m.faces.size(); ++f)
    for (int e : m.faces[f].edges)
      if (e < 0 || e >= int(m.edges.size())) report(out, "face ", f, ": edge ", e, " out of range");
  return out.size() == before;
}

void checkVertsAndNodes(const Mesh& m, Problems& out) {
  std::vector<std::vector<int>> vertsOfNode(m.nodes.size());
  for (int v = 0; v < int(m.verts.size()); ++v) vertsOfNode[m.verts[v].node].push_back(v);
  for (size_t n = 0; n < m.nodes.size(); ++n) {
    const Node& node = m.nodes[n];
    std::vector<int> stored = node.verts;
    std::sort(stored.begin(), stored.end());
    if (stored != vertsOfNode[n]) report(out, "node ", n, ": vert list does not match vert->node");
    if (vertsOfNode[n].empty()) report(out, "node ", n, ": has no vert (orphan)");
    if (node.seam != (vertsOfNode[n].size() > 1)) report(out, "node ", n, ": seam flag is wrong");
    if (!node.x.allFinite() || !node.v.allFinite()) report(out, "node ", n, ": position or velocity is not finite");
  }
  std::vector<std::vector<int>> facesOfVert(m.verts.size());
  for (int f = 0; f < int(m.faces.size()); ++f)
    for (int v : m.faces[f].verts) facesOfVert[v].push_back(f);
  for (size_t v = 0; v < m.verts.size(); ++v) {
    std::vector<int> stored = m.verts[v].faces;
    std::sort(stored.begin(), stored.end());
    if (stored != facesOfVert[v]) report(out, "vert ", v, ": face list does not match the faces");
    if (facesOfVert[v].empty()) report(out, "vert ", v, ": belongs to no face (orphan)");
    if (!m.verts[v].u.allFinite()) report(out, "vert ", v, ": material coordinates are not finite");
  }
}

void checkFaces(const Mesh& m, Problems& out) {
  for (int f = 0; f < int(m.faces.size()); ++f) {
    const Face& face = m.faces[f];
    Tri n = m.faceNodes(f);
    if (n[0] == n[1] || n[1] == n[2] || n[0] == n[2]) report(out, "face ", f, ": uses a node twice");
    const Vec2& u0 = m.verts[face.verts[0]].u;
    Vec2 a = m.verts[face.verts[1]].u - u0, b = m.verts[face.verts[2]].u - u0;
    double area = 0.5 * (a.x() * b.y() - a.y() * b.x());
    if (!(area > 0.0)) report(out, "face ", f, ": material-space area ", area, " is not positive");
    double scale = std::max({a.squaredNorm(), b.squaredNorm(), 1e-300});
    if (std::abs(area - face.materialArea) > 1e-9 * scale)
      report(out, "face ", f, ": stored material area is stale (run updateGeometry)");
  }
}

// Edges: exactly one per node pair used by a face, faces on both sides pointing back, opposite orientation.
void checkEdges(const Mesh& m, Problems& out) {
  std::map<std::pair<int, int>, int> edgeOfPair;
  for (int e = 0; e < int(m.edges.size()); ++e) {
    auto [a, b] = m.edges[e].nodes;
    if (a == b) report(out, "edge ", e, ": joins a node to itself");
    if (!edgeOfPair.emplace(std::minmax(a, b), e).second) report(out, "edge ", e, ": duplicates another edge");
  }
  std::vector<int> faceCount(m.edges.size(), 0);
  for (int f = 0; f < int(m.faces.size()); ++f) {
    Tri n = m.faceNodes(f);
    for (int c = 0; c < 3; ++c) {
      int a = n[c], b = n[(c + 1) % 3], e = m.faces[f].edges[c];
      auto it = edgeOfPair.find(std::minmax(a, b));
      if (it == edgeOfPair.end() || it->second != e) {
        report(out, "face ", f, ": corner ", c, " is not linked to the edge of its nodes");
        continue;
      }
      ++faceCount[e];
      const Edge& edge = m.edges[e];
      int side = edge.faces[0] == f ? 0 : edge.faces[1] == f ? 1 : -1;
      if (side < 0) {
        report(out, "edge ", e, ": does not list face ", f);
        continue;
      }
      // The first face traverses the edge as stored, the second one against it.
      bool forward = edge.nodes[0] == a;
      if (forward != (side == 0)) report(out, "edge ", e, ": faces are not consistently oriented");
    }
  }
  for (size_t e = 0; e < m.edges.size(); ++e) {
    int expected = m.edges[e].isBoundary() ? 1 : 2;
    if (faceCount[e] != expected) report(out, "edge ", e, ": has ", faceCount[e], " faces, lists ", expected);
  }
  for (size_t n = 0; n < m.nodes.size(); ++n) {
    bool boundary = false;
    for (int e : m.nodes[n].edges) {
      if (m.edges[e].nodes[0] != int(n) && m.edges[e].nodes[1] != int(n))
        report(out, "node ", n, ": lists edge ", e, " which does not touch it");
      boundary |= m.edges[e].isBoundary();
    }
    if (boundary != m.nodes[n].boundary) report(out, "node ", n, ": boundary flag is wrong");
  }
  std::vector<int> edgesPerNode(m.nodes.size(), 0);
  for (const Edge& e : m.edges)
    for (int n : e.nodes) ++edgesPerNode[n];
  for (size_t n = 0; n < m.nodes.size(); ++n)
    if (edgesPerNode[n] != int(m.nodes[n].edges.size())) report(out, "node ", n, ": edge list is incomplete");
}

// In material space the faces around a vert must form one fan (no bow-tie): connected through edges at the vert.
void checkFans(const Mesh& m, Problems& out) {
  for (int v = 0; v < int(m.verts.size()); ++v) {
    const std::vector<int>& fs = m.verts[v].faces;
    if (fs.size() < 2) continue;
    std::set<int> reached = {fs[0]};
    std::vector<int> stack = {fs[0]};
    while (!stack.empty()) {
      int f = stack.back();
      stack.pop_back();
      for (int e : m.faces[f].edges) {
        const Edge& edge = m.edges[e];
        if (edge.isBoundary() || m.isSeam(e)) continue;
        int other = edge.faces[0] == f ? edge.faces[1] : edge.faces[0];
        if (std::find(fs.begin(), fs.end(), other) != fs.end() && reached.insert(other).second) stack.push_back(other);
      }
    }
    if (reached.size() != fs.size()) report(out, "vert ", v, ": its faces do not form a single fan (non-manifold)");
  }
}

}  // namespace

std::vector<std::string> validate(const Mesh& mesh) {
  Problems out;
  if (!indicesInRange(mesh, out)) return out;
  checkVertsAndNodes(mesh, out);
  checkFaces(mesh, out);
  checkEdges(mesh, out);
  if (out.empty()) checkFans(mesh, out);
  return out;
}

}  // namespace adacloth
