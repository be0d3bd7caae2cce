#include "upsample/laplacian.h"

namespace adacloth {

SparseMatrixD cotangentStiffness(const Mesh& mesh) {
  std::vector<Eigen::Triplet<double>> t;
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Tri& v = mesh.faces[f].verts;
    for (int c = 0; c < 3; ++c) {
      // The angle at corner c is opposite the edge joining the other two corners.
      const Vec2 a = mesh.verts[v[(c + 1) % 3]].u - mesh.verts[v[c]].u;
      const Vec2 b = mesh.verts[v[(c + 2) % 3]].u - mesh.verts[v[c]].u;
      const double cross = a.x() * b.y() - a.y() * b.x();
      const double w = 0.5 * a.dot(b) / std::abs(cross);  // half the cotangent
      const int i = mesh.nodeOf(f, (c + 1) % 3), j = mesh.nodeOf(f, (c + 2) % 3);
      t.emplace_back(i, j, -w);
      t.emplace_back(j, i, -w);
      t.emplace_back(i, i, w);
      t.emplace_back(j, j, w);
    }
  }
  const int n = int(mesh.nodes.size());
  SparseMatrixD k(n, n);
  k.setFromTriplets(t.begin(), t.end());
  return k;
}

Eigen::VectorXd lumpedArea(const Mesh& mesh) {
  Eigen::VectorXd area = Eigen::VectorXd::Zero(mesh.nodes.size());
  for (int f = 0; f < int(mesh.faces.size()); ++f)
    for (int c = 0; c < 3; ++c) area[mesh.nodeOf(f, c)] += std::abs(mesh.faces[f].materialArea) / 3.0;
  return area;
}

}  // namespace adacloth
