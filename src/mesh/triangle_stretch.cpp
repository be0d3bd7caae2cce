#include "mesh/triangle_stretch.h"

#include <cmath>

namespace adacloth {

double largerStretch(const std::array<Vec3, 3>& x, const std::array<Vec2, 3>& u) {
  Eigen::Matrix<double, 3, 2> Ds;
  Ds << x[1] - x[0], x[2] - x[0];
  Mat2 Dm;
  Dm << u[1] - u[0], u[2] - u[0];
  const Eigen::Matrix<double, 3, 2> F = Ds * Dm.inverse();
  // The larger eigenvalue of the symmetric 2x2 F^T F in closed form: its mean plus half its eigenvalues' gap.
  const Mat2 C = F.transpose() * F;
  const double half = 0.5 * (C(0, 0) + C(1, 1)), gap = std::hypot(0.5 * (C(0, 0) - C(1, 1)), C(0, 1));
  return std::sqrt(half + gap);
}

double largerStretch(const Mesh& m, const Tri& v) {
  return largerStretch({m.nodes[m.verts[v[0]].node].x, m.nodes[m.verts[v[1]].node].x, m.nodes[m.verts[v[2]].node].x},
                       {m.verts[v[0]].u, m.verts[v[1]].u, m.verts[v[2]].u});
}

}  // namespace adacloth
