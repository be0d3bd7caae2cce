#pragma once
// What the tests of a face term in pair form share (dynamics/face_stiffening.h, dynamics/membrane.h): the 9x9
// Hessian its edge blocks stand for, and the check that its force is minus the gradient of its energy.
#include <functional>

#include <Eigen/Eigenvalues>

#include <catch2/catch.hpp>

#include "dynamics/face_stiffening.h"
#include "mesh/generators.h"
#include "mesh/mesh.h"

namespace adacloth::test {

// -J off the diagonal, the sum of a corner's two blocks on it.
inline Eigen::Matrix<double, 9, 9> hessianOfBlocks(const FaceTerm& term) {
  Eigen::Matrix<double, 9, 9> H = Eigen::Matrix<double, 9, 9>::Zero();
  for (int k = 0; k < 3; ++k) {
    const int i = k, j = (k + 1) % 3;
    H.block<3, 3>(3 * i, 3 * j) -= term.edgeJ[k];
    H.block<3, 3>(3 * j, 3 * i) -= term.edgeJ[k];
    H.block<3, 3>(3 * i, 3 * i) += term.edgeJ[k];
    H.block<3, 3>(3 * j, 3 * j) += term.edgeJ[k];
  }
  return H;
}

inline Vec3& faceCorner(Mesh& mesh, int k) { return mesh.nodes[mesh.verts[mesh.faces[0].verts[k]].node].x; }

// One triangle, material (0,0), (0.1,0), (0.02,0.08) m, its corners placed at F3 (u, v, 0).
inline Mesh deformedTriangle(const Mat3& F3) {
  Mesh mesh = makeGrid(0.1, 0.1, 1, 1);
  mesh.verts[mesh.faces[0].verts[0]].u = Vec2(0, 0);
  mesh.verts[mesh.faces[0].verts[1]].u = Vec2(0.1, 0);
  mesh.verts[mesh.faces[0].verts[2]].u = Vec2(0.02, 0.08);
  for (int k = 0; k < 3; ++k) {
    const Vec2 u = mesh.verts[mesh.faces[0].verts[k]].u;
    faceCorner(mesh, k) = F3 * Vec3(u.x(), u.y(), 0);
  }
  mesh.updateGeometry();  // the face's material inverse and area
  return mesh;
}

// The Hessian the term's blocks stand for, after checking that each block is symmetric and their sum positive
// semidefinite.
inline Eigen::Matrix<double, 9, 9> checkedSymmetricPsdHessian(const FaceTerm& term) {
  const Eigen::Matrix<double, 9, 9> H = hessianOfBlocks(term);
  for (int k = 0; k < 3; ++k)
    CHECK((term.edgeJ[k] - term.edgeJ[k].transpose()).norm() <= 1e-12 * term.edgeJ[k].norm());
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>> eig(H);
  CHECK(eig.eigenvalues().minCoeff() >= -1e-9 * eig.eigenvalues().maxCoeff());
  return H;
}

// Central differences of face 0's term's energy against its force, coordinate by coordinate.
inline void checkForceIsMinusEnergyGradient(Mesh& mesh, const std::function<FaceTerm(const Mesh&)>& termOf) {
  const FaceTerm term = termOf(mesh);
  REQUIRE(term.energy > 0);
  const double eps = 1e-7;
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c) {
      const double x = faceCorner(mesh, k)[c];
      faceCorner(mesh, k)[c] = x + eps;
      const double up = termOf(mesh).energy;
      faceCorner(mesh, k)[c] = x - eps;
      const double down = termOf(mesh).energy;
      faceCorner(mesh, k)[c] = x;
      CHECK(-(up - down) / (2 * eps) == Approx(term.force[k][c]).epsilon(1e-5).margin(1e-6 * term.force[k].norm()));
    }
}

}  // namespace adacloth::test
