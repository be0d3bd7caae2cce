// The triangle membrane (dynamics/membrane.h): its force is the gradient of its energy, its blocks are its Hessian
// where the stress is tensile, it stores the moduli's energy on any mesh where springs do not, and the solves take
// it as they take springs.
#include <omp.h>

#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include "assets/held_sheet.h"
#include "dynamics/block_pcg.h"
#include "dynamics/direct_solve.h"
#include "dynamics/dynamics_state.h"
#include "dynamics/energy.h"
#include "dynamics/face_term_checks.h"
#include "dynamics/membrane.h"
#include "dynamics/solve_fixtures.h"
#include "dynamics/step.h"
#include "dynamics/handles.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

MaterialParams knit() {
  MaterialParams m;
  m.stretch = 300;
  m.shear = 150;
  return m;
}

// A stretch of 1.2 along a direction between the edges, a shear and a turn out of the plane.
Mat3 stretchShearTurn() {
  const Vec3 d = Vec3(1, 2, 0).normalized();
  Mat3 F = Mat3::Identity() + 0.2 * d * d.transpose();
  F(1, 0) += 0.1;
  return Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized()).toRotationMatrix() * F;
}

}  // namespace

TEST_CASE("the membrane's force is minus the gradient of its energy", "[dynamics]") {
  Mesh mesh = test::deformedTriangle(stretchShearTurn());
  const MembraneModuli moduli = membraneModuli(knit());
  test::checkForceIsMinusEnergyGradient(mesh, [&](const Mesh& m) { return membraneTerm(m, 0, moduli); });
}

TEST_CASE("under tension the membrane's blocks are its Hessian, symmetric and positive semidefinite",
          "[dynamics]") {
  Mesh mesh = test::deformedTriangle(stretchShearTurn());
  const MembraneModuli moduli = membraneModuli(knit());
  const FaceTerm term = membraneTerm(mesh, 0, moduli);
  const Eigen::Matrix<double, 9, 9> H = test::checkedSymmetricPsdHessian(term);
  // Column by column: the change of minus the force under a small move of one coordinate.
  const double eps = 1e-6;
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c) {
      const double x = test::faceCorner(mesh, k)[c];
      test::faceCorner(mesh, k)[c] = x + eps;
      const FaceTerm up = membraneTerm(mesh, 0, moduli);
      test::faceCorner(mesh, k)[c] = x - eps;
      const FaceTerm down = membraneTerm(mesh, 0, moduli);
      test::faceCorner(mesh, k)[c] = x;
      for (int j = 0; j < 3; ++j)
        for (int r = 0; r < 3; ++r) {
          const double fd = -(up.force[j][r] - down.force[j][r]) / (2 * eps);
          CHECK(fd == Approx(H(3 * j + r, 3 * k + c)).margin(1e-6 * H.norm()));
        }
    }
}

TEST_CASE("under compression the membrane's blocks leave out the geometric term and stay positive semidefinite",
          "[dynamics]") {
  Mat3 squeeze = Mat3::Identity();
  squeeze(0, 0) = 0.85;
  squeeze(1, 1) = 0.9;
  Mesh mesh = test::deformedTriangle(squeeze);
  const FaceTerm term = membraneTerm(mesh, 0, membraneModuli(knit()));
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>> eig(test::hessianOfBlocks(term));
  CHECK(eig.eigenvalues().minCoeff() >= -1e-9 * eig.eigenvalues().maxCoeff());
  // The out-of-plane move of one corner costs nothing to first order: no negative stiffness across the plane.
  Eigen::Matrix<double, 9, 1> lift = Eigen::Matrix<double, 9, 1>::Zero();
  lift(2) = 1;
  CHECK(lift.dot(test::hessianOfBlocks(term) * lift) >= 0);
}

TEST_CASE("a uniform strain stores the moduli's energy on an irregular mesh, where springs do not", "[dynamics]") {
  // A 0.4 x 0.3 m sheet triangulated irregularly: a regular grid with every interior node moved by up to 40 % of
  // a cell in material space, then a shear with a compression along x (G00 = -0.02, G01 = 0.03, G11 = 0).
  Mesh mesh = makeGrid(0.4, 0.3, 8, 6);
  unsigned seed = 7;
  auto jitter = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return ((seed >> 8) % 1000) / 1000.0 - 0.5;
  };
  for (Vert& v : mesh.verts)
    if (v.u.x() > 1e-9 && v.u.x() < 0.4 - 1e-9 && v.u.y() > 1e-9 && v.u.y() < 0.3 - 1e-9)
      v.u += 0.8 * 0.05 * Vec2(jitter(), jitter());
  Mat2 G;
  G << -0.02, 0.03, 0.03, 0;
  // F = R sqrt(I + 2 G) with R = I: the symmetric square root.
  Eigen::SelfAdjointEigenSolver<Mat2> eig(Mat2::Identity() + 2 * G);
  const Mat2 F = eig.eigenvectors() * eig.eigenvalues().cwiseSqrt().asDiagonal() * eig.eigenvectors().transpose();
  for (Vert& v : mesh.verts) {
    const Vec2 x = F * v.u;
    mesh.nodes[v.node].x = Vec3(x.x(), x.y(), 0);
  }
  mesh.updateGeometry();
  MaterialParams material = knit();
  const MembraneModuli m = membraneModuli(material);
  const double area = 0.4 * 0.3;
  const double expected = 0.5 * area *
                          (m.c11 * G(0, 0) * G(0, 0) + 2 * m.c12 * G(0, 0) * G(1, 1) + m.c22 * G(1, 1) * G(1, 1) +
                           4 * m.c66 * G(0, 1) * G(0, 1));
  material.membrane = MaterialParams::Membrane::Triangles;
  DynamicsState triangles;
  rebuildDynamics(triangles, mesh, material);
  CHECK(elasticEnergy(mesh, triangles) == Approx(expected).epsilon(1e-9));
  // The spring model on the same mesh: off by more than 10 % (it is exact only on a regular grid).
  material.membrane = MaterialParams::Membrane::Springs;
  DynamicsState springs;
  rebuildDynamics(springs, mesh, material);
  CHECK(std::abs(elasticEnergy(mesh, springs) / expected - 1) > 0.1);
}

TEST_CASE("a moving sheet of triangles is solved by pcg to the direct solution",
          "[dynamics]") {
  MaterialParams material = knit();
  material.membrane = MaterialParams::Membrane::Triangles;
  assets::HeldSheet s = assets::makeHeldSheet(12, material);
  StepSettings settings;
  settings.solver = StepSolver::Direct;
  for (int k = 0; k < 6; ++k) stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96);
  REQUIRE(test::maxNorm([&] {
            std::vector<Vec3> v;
            for (const Node& n : s.mesh.nodes) v.push_back(n.v);
            return v;
          }()) > 0.1);  // moving and bent
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  DirectSolver direct;
  const std::vector<Vec3> exact = direct.solve(sys, s.state);
  CHECK(relativeResidual(sys, s.state, exact) < 1e-10);
  PcgWorkspace work;
  PcgSettings pcg;
  pcg.tolerance = 1e-10;
  SolveReport report;
  const std::vector<Vec3> dv = solveBlockPcg(sys, s.state, std::vector<Vec3>(exact.size(), Vec3::Zero()), pcg, work,
                                             &report);
  CHECK(report.residual <= 1e-10);
  CHECK(test::maxDifference(dv, exact) < 1e-7 * test::maxNorm(exact));
}

namespace {

// A soft knit sheet (1 x 1 m, gray-interlock-like) on a grid of 8 x 32 cells (thin triangles, as the remesher makes
// along folds), held at two corners, after 0.5 s of hanging from horizontal: the share of its material area whose
// smaller principal stretch is below 0.97.
double compressedShareAfterHanging(MaterialParams::Membrane membrane) {
  MaterialParams material;
  material.density = 0.374;
  material.stretch = 65;
  material.shear = 147;
  material.bending = 2e-5;
  material.membrane = membrane;
  Mesh mesh = makeGrid(1, 1, 8, 32);
  for (Node& n : mesh.nodes) n.x = Vec3(n.x.x(), 0, -n.x.y());
  DynamicsState state;
  HandleSpec corners;
  corners.select = HandleSpec::Select::Points;
  corners.points = {Vec3(0, 0, -1), Vec3(1, 0, -1)};
  state.handles = resolveHandles({corners}, mesh, "test");
  rebuildDynamics(state, mesh, material);
  StepSettings settings;
  for (int k = 0; k < 48; ++k) stepCloth(mesh, state, material, settings, 1.0 / 96);
  double compressed = 0, total = 0;
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Tri n = mesh.faceNodes(f);
    Eigen::Matrix<double, 3, 2> Ds;
    Ds << mesh.nodes[n[1]].x - mesh.nodes[n[0]].x, mesh.nodes[n[2]].x - mesh.nodes[n[0]].x;
    const Eigen::Matrix<double, 3, 2> F = Ds * mesh.faces[f].DmInv;
    const double smaller = std::sqrt(Eigen::SelfAdjointEigenSolver<Mat2>(F.transpose() * F).eigenvalues()[0]);
    const double area = std::abs(mesh.faces[f].materialArea);
    total += area;
    if (smaller < 0.97) compressed += area;
  }
  return compressed / total;
}

}  // namespace

TEST_CASE("a soft sheet hanging on an irregular mesh folds with triangles where springs keep it compressed",
          "[dynamics]") {
  const double springs = compressedShareAfterHanging(MaterialParams::Membrane::Springs);
  const double triangles = compressedShareAfterHanging(MaterialParams::Membrane::Triangles);
  INFO("compressed share: springs " << springs << ", triangles " << triangles);
  // Measured: springs 0.50, triangles 0.03 (on a square 16 x 16 grid the two are alike: 0.05 and 0.04).
  CHECK(triangles < 0.1);
  CHECK(springs > 5 * triangles);
}

TEST_CASE("a sheet of triangles gives the same bytes at 1 and 2 threads", "[dynamics]") {
  std::vector<std::vector<Vec3>> results;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    MaterialParams material = knit();
    material.membrane = MaterialParams::Membrane::Triangles;
    assets::HeldSheet s = assets::makeHeldSheet(48, material);
    StepSettings settings;
    for (int k = 0; k < 4; ++k) stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96);
    results.push_back(test::positionsOf(s.mesh));
  }
  omp_set_num_threads(1);
  test::requireSameBytes(results);
}
