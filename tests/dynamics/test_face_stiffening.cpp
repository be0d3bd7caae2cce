// The strain limit's face term in the implicit solve (dynamics/face_stiffening.h): its force is the gradient of its
// energy, its blocks are the Hessian with the stretch direction held, and it holds a soft sheet near its limit.
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "assets/held_sheet.h"
#include "dynamics/energy.h"
#include "dynamics/face_stiffening.h"
#include "dynamics/face_term_checks.h"
#include "dynamics/step.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

// One triangle (face_term_checks.h) deformed by a stretch of 1.3 along a direction between its edges, a shear and a
// turn out of the plane.
Mesh stretchedTriangle() {
  const Vec3 d = Vec3(1, 2, 0).normalized();
  Mat3 F = Mat3::Identity() + 0.3 * d * d.transpose();
  F(1, 0) += 0.1;
  return test::deformedTriangle(Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized()).toRotationMatrix() * F);
}

using test::faceCorner;

const FaceStiffening kLimit{60000, 1.025};  // N/m, onset 1.025

}  // namespace

TEST_CASE("the face term's force is minus the gradient of its energy", "[dynamics]") {
  Mesh mesh = stretchedTriangle();
  test::checkForceIsMinusEnergyGradient(mesh, [](const Mesh& m) { return faceStiffeningTerm(m, 0, kLimit); });
}

TEST_CASE("the face term's blocks are its Hessian with the stretch direction held, positive semidefinite",
          "[dynamics]") {
  Mesh mesh = stretchedTriangle();
  const FaceTerm term = faceStiffeningTerm(mesh, 0, kLimit);
  const Eigen::Matrix<double, 9, 9> H = test::checkedSymmetricPsdHessian(term);
  // The same energy with the material direction v of largest stretch frozen: E = 0.5 k A (|F v| - s0)^2. Its
  // Hessian by finite differences of its gradient (itself by differences) equals H.
  const Face& face = mesh.faces[0];
  Mat2 Dm;
  Dm << mesh.verts[face.verts[1]].u - mesh.verts[face.verts[0]].u,
      mesh.verts[face.verts[2]].u - mesh.verts[face.verts[0]].u;
  auto deformation = [&](const Mesh& m) {
    Eigen::Matrix<double, 3, 2> Ds;
    Ds << m.nodes[m.verts[face.verts[1]].node].x - m.nodes[m.verts[face.verts[0]].node].x,
        m.nodes[m.verts[face.verts[2]].node].x - m.nodes[m.verts[face.verts[0]].node].x;
    return Eigen::Matrix<double, 3, 2>(Ds * Dm.inverse());
  };
  const Vec2 v = Eigen::JacobiSVD<Eigen::Matrix<double, 3, 2>>(deformation(mesh), Eigen::ComputeFullV).matrixV().col(0);
  const double area = 0.5 * std::abs(Dm.determinant());
  auto frozenEnergy = [&](const Mesh& m) {
    const double s = (deformation(m) * v).norm();
    return s > kLimit.onsetStretch ? 0.5 * kLimit.modulus * area * (s - kLimit.onsetStretch) * (s - kLimit.onsetStretch)
                                   : 0.0;
  };
  const double eps = 1e-5;
  auto gradient = [&](Mesh& m) {
    Eigen::Matrix<double, 9, 1> g;
    for (int q = 0; q < 9; ++q) {
      const double x = faceCorner(m, q / 3)[q % 3];
      faceCorner(m, q / 3)[q % 3] = x + eps;
      const double up = frozenEnergy(m);
      faceCorner(m, q / 3)[q % 3] = x - eps;
      const double down = frozenEnergy(m);
      faceCorner(m, q / 3)[q % 3] = x;
      g[q] = (up - down) / (2 * eps);
    }
    return g;
  };
  Eigen::Matrix<double, 9, 9> numeric;
  for (int q = 0; q < 9; ++q) {
    const double x = faceCorner(mesh, q / 3)[q % 3];
    faceCorner(mesh, q / 3)[q % 3] = x + eps;
    const Eigen::Matrix<double, 9, 1> up = gradient(mesh);
    faceCorner(mesh, q / 3)[q % 3] = x - eps;
    const Eigen::Matrix<double, 9, 1> down = gradient(mesh);
    faceCorner(mesh, q / 3)[q % 3] = x;
    numeric.col(q) = (up - down) / (2 * eps);
  }
  INFO("H\n" << H << "\nnumeric\n" << numeric);
  CHECK((numeric - H).norm() <= 1e-4 * H.norm());
}

TEST_CASE("the face term is off below its onset and without stiffening", "[dynamics]") {
  Mesh mesh = stretchedTriangle();
  CHECK(faceStiffeningTerm(mesh, 0, FaceStiffening{60000, 1.5}).energy == 0);
  CHECK(faceStiffeningTerm(mesh, 0, FaceStiffening{0, 1.025}).energy == 0);
  CHECK(faceStiffeningTerm(mesh, 0, FaceStiffening{0, 1.025}).force[1] == Vec3::Zero());
}

TEST_CASE("the face term holds a soft sheet hanging from two corners near its limit in the solve alone",
          "[dynamics]") {
  // No position passes: the solve alone. A soft sheet (stretch 20 N/m) stretches ~1.5x under its own weight at its
  // held corners; with a limit of 1.1 (onset 1.05) a stiffening of 30 keeps its faces within 1.1.
  MaterialParams soft;
  soft.stretch = 20;
  soft.shear = 2;
  StrainLimitParams limit;
  limit.enabled = true;
  limit.max = 1.1;
  limit.stiffening = 30;
  auto hang = [&](bool stiffening) {
    assets::HeldSheet sheet = assets::makeHeldSheet(12, soft);
    if (stiffening) rebuildDynamics(sheet.state, sheet.mesh, sheet.material, limit);
    for (int k = 0; k < 96; ++k) stepCloth(sheet.mesh, sheet.state, sheet.material, StepSettings(), 1.0 / 96);
    double worst = 1;
    for (int f = 0; f < int(sheet.mesh.faces.size()); ++f) {
      const double e = faceStiffeningTerm(sheet.mesh, f, FaceStiffening{1, 0}).energy;
      worst = std::max(worst, std::sqrt(2 * e / std::abs(sheet.mesh.faces[f].materialArea)));
    }
    return worst;
  };
  const double without = hang(false), with = hang(true);
  INFO("largest principal stretch without " << without << ", with " << with);
  CHECK(without > 1.3);
  CHECK(with < 1.1);
  assets::HeldSheet check = assets::makeHeldSheet(4, soft);
  rebuildDynamics(check.state, check.mesh, check.material, limit);
  CHECK(check.state.faceStiffening.modulus == Approx(30 * 20));
  CHECK(check.state.faceStiffening.onsetStretch == Approx(1.05));
}

TEST_CASE("largerPrincipalStretch is the face's larger singular value of its deformation", "[dynamics]") {
  Mesh mesh = stretchedTriangle();
  Eigen::Matrix<double, 3, 2> Ds;
  Ds << faceCorner(mesh, 1) - faceCorner(mesh, 0), faceCorner(mesh, 2) - faceCorner(mesh, 0);
  const Eigen::JacobiSVD<Eigen::Matrix<double, 3, 2>> svd(Ds * mesh.faces[0].DmInv);
  CHECK(largerPrincipalStretch(mesh, 0) == Approx(svd.singularValues()(0)).epsilon(1e-12));
}
