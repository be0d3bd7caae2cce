#include "view/screen_clamp.h"

#include <algorithm>

namespace adacloth {

Mat2 faceScreenJacobian(const Mesh& mesh, int f, const Camera& camera) {
  const Tri n = mesh.faceNodes(f);
  const Vec3 &x0 = mesh.nodes[n[0]].x, &x1 = mesh.nodes[n[1]].x, &x2 = mesh.nodes[n[2]].x;
  Mat32 Ds;
  Ds.col(0) = x1 - x0;
  Ds.col(1) = x2 - x0;
  const Mat32 dxdu = Ds * mesh.faces[f].DmInv;  // world metres per material metre
  return camera.screenJacobian((x0 + x1 + x2) / 3.0) * dxdu;
}

Mat2 clampScreenSpace(const Mat2& M, const Mat2& S, double minScreenLength) {
  const Mat2 C = S.transpose() * S / (minScreenLength * minScreenLength);
  Mat2 T = M + C;
  // M and C both vanish along some direction only for a face seen edge-on with no sizing demand across it: nudge T so
  // the solver sees a definite matrix (M' is zero along that direction either way).
  const double scale = std::max(T.trace(), 1e-300);
  T += 1e-12 * scale * Mat2::Identity();
  Eigen::GeneralizedSelfAdjointEigenSolver<Mat2> solver(M, T);
  const Vec2 mu = solver.eigenvalues().cwiseMax(0.0).cwiseMin(1.0);
  // No direction of M asks for more than the clamp: M stays bit for bit (visible faces keep their tensors).
  if (mu.maxCoeff() <= 0.5) return M;
  const Vec2 kept = mu.cwiseMin(Vec2::Ones() - mu);
  const Mat2 TV = T * solver.eigenvectors();
  Mat2 out = TV * kept.asDiagonal() * TV.transpose();
  return 0.5 * (out + out.transpose());
}

}  // namespace adacloth
