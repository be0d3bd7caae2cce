#pragma once
// Meshes and fields shared by the remeshing tests.
#include <string>
#include <vector>

#include "mesh/generators.h"
#include "mesh/mesh.h"
#include "remesh/remesh_state.h"

namespace adacloth::testing {

// Two flat w x h panels sewn along one side: panel A is material [0,w]x[0,h], panel B material [w+1,2w+1]x[0,h];
// in the world they lie side by side (x in [0,2w]) and share the nodes of the seam column.
inline Mesh makeSeamedSheet(double w, double h, int nx, int ny) {
  std::vector<Vec2> u;
  std::vector<int> node;
  std::vector<Vec3> x;
  std::vector<Tri> faces;
  auto nodeIndex = [&](int panel, int i, int j) {
    // Nodes: panel A's columns 0..nx, then panel B's columns 1..nx (its column 0 is A's column nx).
    int column = panel == 0 ? i : (i == 0 ? nx : nx + i);
    return j * (2 * nx + 1) + column;
  };
  for (int j = 0; j <= ny; ++j)
    for (int c = 0; c <= 2 * nx; ++c) x.emplace_back(w * c / nx, h * j / ny, 0.0);
  for (int panel = 0; panel < 2; ++panel) {
    int first = int(u.size());
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        u.emplace_back(panel * (w + 1.0) + w * i / nx, h * j / ny);
        node.push_back(nodeIndex(panel, i, j));
      }
    auto id = [&](int i, int j) { return first + j * (nx + 1) + i; };
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
        faces.push_back({a, b, c});
        faces.push_back({a, c, d});
      }
  }
  return makeMesh(u, node, x, faces);
}

// A remesher state over `mesh` with isotropic sizing `size` (m) at every vert, no node protected, and every node
// its own original.
inline RemeshState uniformSizingState(Mesh& mesh, double size) {
  RemeshState s(mesh);
  s.sizing.assign(mesh.verts.size(), Mat2::Identity() / (size * size));
  s.protectedNode.assign(mesh.nodes.size(), 0);
  s.originalNode.resize(mesh.nodes.size());
  for (size_t i = 0; i < mesh.nodes.size(); ++i) s.originalNode[i] = int(i);
  return s;
}

// Joins validate()'s problems into one message (empty when valid).
inline std::string problems(const Mesh& mesh) {
  std::string out;
  for (const std::string& p : validate(mesh)) out += p + "\n";
  return out;
}

// The edge between nodes n0 and n1 (-1 when there is none).
inline int edgeBetween(const Mesh& m, int n0, int n1) {
  for (int e = 0; e < int(m.edges.size()); ++e) {
    const auto& n = m.edges[e].nodes;
    if ((n[0] == n0 && n[1] == n1) || (n[0] == n1 && n[1] == n0)) return e;
  }
  return -1;
}

inline double minMaterialArea(const Mesh& mesh) {
  double lo = 1e300;
  for (const Face& f : mesh.faces) lo = std::min(lo, f.materialArea);
  return lo;
}

}  // namespace adacloth::testing
