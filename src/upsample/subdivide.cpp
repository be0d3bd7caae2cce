#include "upsample/subdivide.h"

#include <cmath>
#include <map>

namespace adacloth {
namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;

SparseMatrixD fromTriplets(int rows, int cols, const Triplets& t) {
  SparseMatrixD m(rows, cols);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

// The node of face f that is not on edge e.
int oppositeNode(const Mesh& mesh, int f, const Edge& e) {
  for (int c = 0; c < 3; ++c) {
    const int n = mesh.nodeOf(f, c);
    if (n != e.nodes[0] && n != e.nodes[1]) return n;
  }
  return -1;
}

// Loop's weight of each neighbour of an interior node of valence n (his original rule).
double loopBeta(int n) {
  const double c = 3.0 / 8.0 + 0.25 * std::cos(2.0 * M_PI / n);
  return (5.0 / 8.0 - c * c) / n;
}

// Loop rules for the nodes that already exist: boundary nodes move along their two boundary neighbours only; a
// boundary node with other than two boundary edges (a non-manifold corner) stays put.
void loopEvenRows(const Mesh& mesh, Triplets& t) {
  for (int i = 0; i < int(mesh.nodes.size()); ++i) {
    const Node& node = mesh.nodes[i];
    std::vector<int> ring, boundaryRing;
    for (int e : node.edges) {
      const Edge& edge = mesh.edges[e];
      const int other = edge.nodes[0] == i ? edge.nodes[1] : edge.nodes[0];
      ring.push_back(other);
      if (edge.isBoundary()) boundaryRing.push_back(other);
    }
    if (node.boundary) {
      if (boundaryRing.size() != 2) {
        t.emplace_back(i, i, 1.0);
        continue;
      }
      t.emplace_back(i, i, 0.75);
      for (int j : boundaryRing) t.emplace_back(i, j, 0.125);
      continue;
    }
    if (ring.empty()) {
      t.emplace_back(i, i, 1.0);
      continue;
    }
    const double beta = loopBeta(int(ring.size()));
    t.emplace_back(i, i, 1.0 - beta * ring.size());
    for (int j : ring) t.emplace_back(i, j, beta);
  }
}

// Loop rule for the new node of each edge: 3/8 of each end and 1/8 of each opposite node; 1/2 on a boundary.
void loopOddRows(const Mesh& mesh, Triplets& t) {
  const int base = int(mesh.nodes.size());
  for (int e = 0; e < int(mesh.edges.size()); ++e) {
    const Edge& edge = mesh.edges[e];
    if (edge.isBoundary()) {
      for (int n : edge.nodes) t.emplace_back(base + e, n, 0.5);
      continue;
    }
    for (int n : edge.nodes) t.emplace_back(base + e, n, 0.375);
    for (int f : edge.faces) t.emplace_back(base + e, oppositeNode(mesh, f, edge), 0.125);
  }
}

SparseMatrixD midpointMap(const Mesh& mesh) {
  Triplets t;
  const int base = int(mesh.nodes.size());
  for (int i = 0; i < base; ++i) t.emplace_back(i, i, 1.0);
  for (int e = 0; e < int(mesh.edges.size()); ++e)
    for (int n : mesh.edges[e].nodes) t.emplace_back(base + e, n, 0.5);
  return fromTriplets(base + int(mesh.edges.size()), base, t);
}

// The fine mesh's verts: the coarse verts, then one per distinct material edge (pair of verts) in face order.
struct FineVerts {
  std::vector<Vec2> u;
  std::vector<int> node;
  std::vector<Tri> faces;
};

FineVerts fineTopology(const Mesh& mesh) {
  FineVerts out;
  for (const Vert& v : mesh.verts) {
    out.u.push_back(v.u);
    out.node.push_back(v.node);
  }
  std::map<std::pair<int, int>, int> midVert;
  const int base = int(mesh.nodes.size());
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Face& face = mesh.faces[f];
    int mid[3];
    for (int c = 0; c < 3; ++c) {
      const int a = face.verts[c], b = face.verts[(c + 1) % 3];
      const auto key = std::minmax(a, b);
      auto [it, inserted] = midVert.emplace(key, int(out.u.size()));
      if (inserted) {
        out.u.push_back(0.5 * (mesh.verts[a].u + mesh.verts[b].u));
        out.node.push_back(base + face.edges[c]);
      }
      mid[c] = it->second;
    }
    const Tri& v = face.verts;
    out.faces.push_back({v[0], mid[0], mid[2]});
    out.faces.push_back({mid[0], v[1], mid[1]});
    out.faces.push_back({mid[2], mid[1], v[2]});
    out.faces.push_back({mid[0], mid[1], mid[2]});
  }
  return out;
}

}  // namespace

Eigen::MatrixX3d nodePositions(const Mesh& mesh) {
  Eigen::MatrixX3d x(mesh.nodes.size(), 3);
  for (size_t i = 0; i < mesh.nodes.size(); ++i) x.row(i) = mesh.nodes[i].x.transpose();
  return x;
}

Eigen::MatrixX3d nodeVelocities(const Mesh& mesh) {
  Eigen::MatrixX3d v(mesh.nodes.size(), 3);
  for (size_t i = 0; i < mesh.nodes.size(); ++i) v.row(i) = mesh.nodes[i].v.transpose();
  return v;
}

Subdivision subdivideOnce(const Mesh& coarse) {
  Subdivision s;
  s.midpoint = midpointMap(coarse);
  Triplets loop;
  loopEvenRows(coarse, loop);
  loopOddRows(coarse, loop);
  s.loop = fromTriplets(int(s.midpoint.rows()), int(coarse.nodes.size()), loop);
  const FineVerts topo = fineTopology(coarse);
  const Eigen::MatrixX3d x = s.midpoint * nodePositions(coarse);
  std::vector<Vec3> fineX(x.rows());
  for (Eigen::Index i = 0; i < x.rows(); ++i) fineX[i] = x.row(i).transpose();
  s.fine = makeMesh(topo.u, topo.node, fineX, topo.faces);
  return s;
}

Subdivision subdivide(const Mesh& coarse, int levels) {
  Subdivision s;
  s.fine = coarse;
  s.midpoint = fromTriplets(int(coarse.nodes.size()), int(coarse.nodes.size()), {});
  s.midpoint.setIdentity();
  s.loop = s.midpoint;
  for (int level = 0; level < levels; ++level) {
    Subdivision next = subdivideOnce(s.fine);
    s.midpoint = SparseMatrixD(next.midpoint * s.midpoint);
    s.loop = SparseMatrixD(next.loop * s.loop);
    s.fine = std::move(next.fine);
  }
  return s;
}

}  // namespace adacloth
