#include "sizing/sizing_terms.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "sizing/tensor.h"

namespace adacloth {

Mat32 faceGradient(const Mesh& mesh, int face, const std::array<Vec3, 3>& values) {
  Mat32 D;
  D.col(0) = values[1] - values[0];
  D.col(1) = values[2] - values[0];
  return D * mesh.faces[face].DmInv;
}

namespace {

std::array<Vec3, 3> nodeValues(const Mesh& mesh, int face, Vec3 Node::*field) {
  Tri n = mesh.faceNodes(face);
  return {mesh.nodes[n[0]].*field, mesh.nodes[n[1]].*field, mesh.nodes[n[2]].*field};
}

Mat2 curvatureMetric(const Mesh& mesh, int face) {
  Mat32 dn = faceGradient(mesh, face, nodeValues(mesh, face, &Node::normal));
  return dn.transpose() * dn;
}

// adj(A) for a symmetric 2x2 A: [[a11, -a01], [-a01, a00]].
Mat2 adjugate(const Mat2& A) {
  Mat2 B;
  B << A(1, 1), -A(0, 1), -A(1, 0), A(0, 0);
  return B;
}

// Square root of the positive part of a symmetric matrix.
Mat2 sqrtPositive(const Mat2& A) {
  Eigen::SelfAdjointEigenSolver<Mat2> eig;
  eig.computeDirect(A);
  Vec2 l = eig.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  return eig.eigenvectors() * l.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace

Mat2 curvatureSizing(const Mesh& mesh, int face, double refineAngle) {
  return curvatureMetric(mesh, face) / (refineAngle * refineAngle);
}

Mat2 velocitySizing(const Mesh& mesh, int face, double refineVelocity) {
  Mat32 dv = faceGradient(mesh, face, nodeValues(mesh, face, &Node::v));
  return dv.transpose() * dv / (refineVelocity * refineVelocity);
}

Mat2 compressionSizing(const Mesh& mesh, int face, double refineCompression) {
  Mat32 F = faceGradient(mesh, face, nodeValues(mesh, face, &Node::x));
  // G = FᵀF − I, twice the Green strain, as ARCSim's sizing takes it: `refine_compression` then means what it means
  // in ARCSim's shots. With half of it a converted shot refined compressed cloth √2 coarser, and bending excused
  // twice the compression.
  Mat2 G = F.transpose() * F - Mat2::Identity();
  Mat2 K = curvatureMetric(mesh, face);
  const double c2 = refineCompression * refineCompression;
  Mat2 D = G.transpose() * G - 4.0 * c2 * adjugate(K);
  return positivePart(-G + sqrtPositive(D)) / (2.0 * c2);
}

Mat2 obstacleSizing(const Mesh& mesh, int face, const std::vector<std::optional<ProximitySample>>& samples) {
  Tri n = mesh.faceNodes(face);
  Mat2 M = Mat2::Zero();
  for (int k = 0; k < 3; ++k) {
    const auto& s = samples[n[k]];
    if (!s) continue;
    // h(x) = d_k + g . (x - x_k): distance to the obstacle's tangent plane as seen from node k.
    const Vec3& xk = mesh.nodes[n[k]].x;
    std::array<Vec3, 3> h;
    for (int j = 0; j < 3; ++j) h[j] = Vec3(s->distance + s->gradient.dot(mesh.nodes[n[j]].x - xk), 0.0, 0.0);
    double hk = std::max(std::abs(s->distance), 1e-9);  // a node on the surface would give infinity
    Vec2 dh = faceGradient(mesh, face, h).row(0).transpose();
    M += dh * dh.transpose() / (hk * hk);
  }
  return M / 3.0;
}

}  // namespace adacloth
