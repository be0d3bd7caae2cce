#include "dynamics/dynamics_state.h"

#include <algorithm>
#include <unordered_map>

namespace adacloth {
namespace {

// The corner of face f that is not on edge e (its node).
int oppositeNode(const Mesh& mesh, int f, int e) {
  for (int c = 0; c < 3; ++c)
    if (mesh.faces[f].edges[c] == e) return mesh.nodeOf(f, (c + 2) % 3);
  return -1;
}

// Material-space geometry of the corner opposite edge e in face f: fraction along the edge from edge node a
// (t) and distance from the edge line (h, m), measured in that face's own panel so seams unfold correctly.
void oppositeCorner(const Mesh& mesh, int f, int e, int a, double& t, double& h) {
  const Face& face = mesh.faces[f];
  int c = 0;
  while (face.edges[c] != e) ++c;
  Vec2 p0 = mesh.verts[face.verts[c]].u, p1 = mesh.verts[face.verts[(c + 1) % 3]].u;
  Vec2 q = mesh.verts[face.verts[(c + 2) % 3]].u;
  if (mesh.verts[face.verts[c]].node != a) std::swap(p0, p1);
  Vec2 d = p1 - p0;
  double len2 = d.squaredNorm();
  t = (q - p0).dot(d) / len2;
  h = std::abs(d.x() * (q - p0).y() - d.y() * (q - p0).x()) / std::sqrt(len2);
}

// Stretch pairs: one per mesh edge, rest length and direction from the first face's material coordinates, area from
// both faces.
void addStretchPairs(DynamicsState& state, const Mesh& mesh, const MaterialParams& material) {
  const int ne = int(mesh.edges.size());
  state.pairs.assign(ne, SpringPair{});
  std::vector<double> area(ne, 0.0);
  std::vector<Vec2> dir(ne, Vec2::Zero());
  for (size_t f = 0; f < mesh.faces.size(); ++f) {
    const Face& face = mesh.faces[f];
    for (int c = 0; c < 3; ++c) {
      int e = face.edges[c];
      area[e] += std::abs(face.materialArea);
      if (mesh.edges[e].faces[0] == int(f))
        dir[e] = mesh.verts[face.verts[(c + 1) % 3]].u - mesh.verts[face.verts[c]].u;
    }
  }
#pragma omp parallel for schedule(static)
  for (int e = 0; e < ne; ++e) {
    SpringPair& p = state.pairs[e];
    p.a = mesh.edges[e].nodes[0];
    p.b = mesh.edges[e].nodes[1];
    p.restLength = dir[e].norm();
    const bool springs = material.membrane == MaterialParams::Membrane::Springs;
    p.stretchK = springs && p.restLength > 0
                     ? edgeStretchStiffness(material, dir[e] / p.restLength, area[e], p.restLength)
                     : 0.0;  // with triangles the faces carry stretch and shear (dynamics/membrane.h)
    p.isEdge = true;
  }
}

// The pair index of (a, b): a mesh edge through a's edge list, else a hinge diagonal (created on first use).
int pairIndex(DynamicsState& state, const Mesh& mesh, int a, int b, std::unordered_map<long long, int>& diagonals) {
  for (int e : mesh.nodes[a].edges) {
    const Edge& edge = mesh.edges[e];
    if ((edge.nodes[0] == a && edge.nodes[1] == b) || (edge.nodes[0] == b && edge.nodes[1] == a)) return e;
  }
  long long key = (long long)std::min(a, b) * (long long)mesh.nodes.size() + std::max(a, b);
  auto it = diagonals.find(key);
  if (it != diagonals.end()) return it->second;
  SpringPair p;
  p.a = std::min(a, b);
  p.b = std::max(a, b);
  state.pairs.push_back(p);
  diagonals[key] = int(state.pairs.size()) - 1;
  return int(state.pairs.size()) - 1;
}

// Quadratic bending (isometric, flat rest state): per interior edge with nodes (a, b) and opposite nodes (c, d),
// the bend vector s = sum_k K_k x_k vanishes on any flat placement of the hinge's rest shape and equals the
// dihedral angle for a small fold (K_c = 1/h_c, K_d = 1/h_d, K_a and K_b from sum K = 0 and sum K u = 0). Energy
// 0.5 k |s|^2 with k = bending * |e|^2 / (A_1 + A_2), so a uniform bend of curvature kappa costs about
// 0.5 bending kappa^2 per unit area at any resolution. Its Hessian is constant, -k K K^T (x) I: pair couplings.
void addBendingPairs(DynamicsState& state, const Mesh& mesh, const MaterialParams& material) {
  if (material.bending <= 0) return;
  std::unordered_map<long long, int> diagonals;
  for (size_t e = 0; e < mesh.edges.size(); ++e) {
    const Edge& edge = mesh.edges[e];
    if (edge.isBoundary()) continue;
    int a = edge.nodes[0], b = edge.nodes[1];
    int f0 = edge.faces[0], f1 = edge.faces[1];
    int c = oppositeNode(mesh, f0, int(e)), d = oppositeNode(mesh, f1, int(e));
    if (c < 0 || d < 0 || c == d) continue;
    double tc, hc, td, hd;
    oppositeCorner(mesh, f0, int(e), a, tc, hc);
    oppositeCorner(mesh, f1, int(e), a, td, hd);
    if (hc <= 0 || hd <= 0) continue;
    double len = state.pairs[e].restLength;
    double area = std::abs(mesh.faces[f0].materialArea) + std::abs(mesh.faces[f1].materialArea);
    double k = material.bending * len * len / area;
    const int node[4] = {a, b, c, d};
    const double K[4] = {-((1 - tc) / hc + (1 - td) / hd), -(tc / hc + td / hd), 1 / hc, 1 / hd};
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        int p = pairIndex(state, mesh, node[i], node[j], diagonals);
        state.pairs[p].bendK += -k * K[i] * K[j];
      }
  }
}

void buildIncidence(DynamicsState& state, size_t nodeCount) {
  state.incidenceStart.assign(nodeCount + 1, 0);
  for (const SpringPair& p : state.pairs) ++state.incidenceStart[p.a + 1], ++state.incidenceStart[p.b + 1];
  for (size_t i = 0; i < nodeCount; ++i) state.incidenceStart[i + 1] += state.incidenceStart[i];
  state.incidencePair.assign(state.incidenceStart.back(), -1);
  state.incidenceOther.assign(state.incidenceStart.back(), -1);
  std::vector<int> fill(state.incidenceStart.begin(), state.incidenceStart.end() - 1);
  for (size_t p = 0; p < state.pairs.size(); ++p) {
    const SpringPair& s = state.pairs[p];
    state.incidencePair[fill[s.a]] = int(p), state.incidenceOther[fill[s.a]++] = s.b;
    state.incidencePair[fill[s.b]] = int(p), state.incidenceOther[fill[s.b]++] = s.a;
  }
  state.incidenceDiagonal.resize(nodeCount);
  for (size_t i = 0; i < nodeCount; ++i) {
    int k = state.incidenceStart[i];
    while (k < state.incidenceStart[i + 1] && state.pairs[state.incidencePair[k]].isEdge) ++k;
    state.incidenceDiagonal[i] = k;
  }
}

}  // namespace

double edgeStretchStiffness(const MaterialParams& material, const Vec2& dir, double adjacentArea, double length) {
  double s2 = 2 * dir.x() * dir.y();  // sin(2 angle to the warp axis)
  double w = s2 * s2;
  return ((1 - w) * material.stretch + w * material.shear) * adjacentArea / (length * length);
}

void rebuildDynamics(DynamicsState& state, Mesh& mesh, const MaterialParams& material,
                     const StrainLimitParams& limit) {
  mesh.computeMasses(material.density);
  state.faceStiffening = FaceStiffening();
  if (limit.enabled && limit.stiffening > 0)
    state.faceStiffening = {limit.stiffening * std::max(material.stretch, material.shear),
                            1 + limit.onset * (limit.max - 1), limit.max};
  state.triangleMembrane = material.membrane == MaterialParams::Membrane::Triangles;
  state.membrane = membraneModuli(material);
  state.pairs.clear();
  addStretchPairs(state, mesh, material);
  addBendingPairs(state, mesh, material);
  buildIncidence(state, mesh.nodes.size());
}

}  // namespace adacloth
