#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "upsample/eigenbasis.h"
#include "upsample/tracking.h"

using namespace adacloth;

TEST_CASE("cotangent stiffness is symmetric with constant null space", "[upsample]") {
  const Mesh mesh = makeGrid(1.0, 0.5, 4, 3);
  const SparseMatrixD K = cotangentStiffness(mesh);
  const Eigen::MatrixXd dense = K;
  CHECK((dense - dense.transpose()).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((dense * Eigen::VectorXd::Ones(dense.cols())).cwiseAbs().maxCoeff() < 1e-12);
  // A linear function has zero Laplacian at interior nodes (cotangent weights reproduce linear functions).
  Eigen::VectorXd f(mesh.nodes.size());
  for (size_t i = 0; i < mesh.nodes.size(); ++i) f[i] = 2 * mesh.nodes[i].x.x() - mesh.nodes[i].x.y();
  const Eigen::VectorXd lf = dense * f;
  for (size_t i = 0; i < mesh.nodes.size(); ++i)
    if (!mesh.nodes[i].boundary) CHECK(std::abs(lf[i]) < 1e-12);
  CHECK(lumpedArea(mesh).sum() == Approx(0.5));
}

TEST_CASE("harmonics are area-orthonormal eigenvectors, sparse and dense solvers agree", "[upsample]") {
  const Mesh mesh = makeGrid(1.0, 1.0, 24, 20);  // 525 nodes: above the dense limit, so Spectra runs
  const Eigenbasis b = lowestHarmonics(mesh, 12);
  const Eigen::MatrixXd gram = b.Q.transpose() * b.area.asDiagonal() * b.Q;
  CHECK((gram - Eigen::MatrixXd::Identity(12, 12)).cwiseAbs().maxCoeff() < 1e-8);
  const SparseMatrixD K = cotangentStiffness(mesh);
  for (int k = 0; k < 12; ++k) {
    const Eigen::VectorXd r = K * b.Q.col(k) - b.lambda[k] * b.area.cwiseProduct(b.Q.col(k));
    CHECK(r.norm() < 1e-6 * std::max(1.0, b.lambda[k]));
    if (k > 0) CHECK(b.lambda[k] >= b.lambda[k - 1] - 1e-9);
  }
  CHECK(b.lambda[0] == 0.0);
  CHECK(b.lambda[1] == Approx(M_PI * M_PI).epsilon(0.02));  // first Neumann mode of the unit square: cos(pi x)
  const Mesh small = makeGrid(1.0, 1.0, 6, 6);
  const Eigenbasis d = lowestHarmonics(small, 49);  // the whole spectrum, dense
  CHECK((d.Q.transpose() * d.area.asDiagonal() * d.Q - Eigen::MatrixXd::Identity(49, 49)).cwiseAbs().maxCoeff() < 1e-9);
}

TEST_CASE("tracking projection enforces the constraint and leaves high frequencies alone", "[upsample]") {
  const Mesh coarse = makeGrid(1.0, 1.0, 3, 3);
  const Subdivision s = subdivide(coarse, 2);
  const Eigenbasis b = lowestHarmonics(s.fine, 10);
  const TrackingConstraint c = makeTracking(b, 10, s.midpoint);
  Eigen::MatrixX3d pc = nodePositions(coarse) + 0.1 * Eigen::MatrixX3d::Random(coarse.nodes.size(), 3);
  Eigen::MatrixX3d pf = nodePositions(s.fine) + 0.1 * Eigen::MatrixX3d::Random(s.fine.nodes.size(), 3);
  CHECK(trackingViolation(c, pc, pf) > 1e-3);
  const Eigen::MatrixX3d before = pf;
  projectOntoTracking(c, pc, pf);
  CHECK(trackingViolation(c, pc, pf) < 1e-6);
  // The change lies in the span of the test functions: what is A-orthogonal to them is untouched.
  const Eigen::MatrixX3d change = pf - before;
  const Eigen::MatrixX3d inSpan = c.T * (c.T.transpose() * (c.area.asDiagonal() * change));
  CHECK((change - inSpan).cwiseAbs().maxCoeff() < 1e-10);
  // Projecting twice changes nothing more.
  const Eigen::MatrixX3d once = pf;
  projectOntoTracking(c, pc, pf);
  CHECK((pf - once).cwiseAbs().maxCoeff() < 1e-12);
}
