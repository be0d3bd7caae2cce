#include "dynamics/face_stiffening.h"

#include <cmath>
#include <utility>

namespace adacloth {
namespace {

// Unit eigenvector of the symmetric 2x2 matrix C for its larger eigenvalue `lambda`: the larger of the two
// candidate columns of (C - lambda I)'s adjugate, which is exact whichever entry vanishes.
Vec2 largerEigenvector(const Mat2& C, double lambda) {
  const Vec2 a(lambda - C(1, 1), C(0, 1)), b(C(0, 1), lambda - C(0, 0));
  const Vec2 v = a.squaredNorm() >= b.squaredNorm() ? a : b;
  const double len = v.norm();
  return len > 0 ? Vec2(v / len) : Vec2(1, 0);
}

// The face's deformation gradient (3x2) at the mesh's current positions, from its material inverse as
// Mesh::updateGeometry() keeps it.
Eigen::Matrix<double, 3, 2> deformationOf(const Mesh& mesh, int f) {
  const Tri n = mesh.faceNodes(f);
  Eigen::Matrix<double, 3, 2> Ds;
  Ds << mesh.nodes[n[1]].x - mesh.nodes[n[0]].x, mesh.nodes[n[2]].x - mesh.nodes[n[0]].x;
  return Ds * mesh.faces[f].DmInv;
}

// Half the trace and the half gap of C's eigenvalues: they are half + gap and half - gap.
std::pair<double, double> eigenHalves(const Mat2& C) {
  return {0.5 * (C(0, 0) + C(1, 1)), std::hypot(0.5 * (C(0, 0) - C(1, 1)), C(0, 1))};
}

}  // namespace

double largerPrincipalStretch(const Mesh& mesh, int f) {
  const Eigen::Matrix<double, 3, 2> F = deformationOf(mesh, f);
  const auto [half, gap] = eigenHalves(F.transpose() * F);
  return std::sqrt(half + gap);
}

FaceTerm faceStiffeningTerm(const Mesh& mesh, int f, const FaceStiffening& limit) {
  FaceTerm term;
  // The face's material inverse and area, as Mesh::updateGeometry() keeps them (masses come from the same area).
  const Face& face = mesh.faces[f];
  const double area = std::abs(face.materialArea);
  if (!limit.active() || area < 0.5e-14) return term;
  const Mat2& DmInv = face.DmInv;
  const Eigen::Matrix<double, 3, 2> F = deformationOf(mesh, f);
  const Mat2 C = F.transpose() * F;
  const auto [half, gap] = eigenHalves(C);
  const double s = std::sqrt(half + gap);
  if (s <= limit.onsetStretch) return term;
  const Vec2 v = largerEigenvector(C, half + gap);
  const Vec2 g = DmInv * v;
  const double w[3] = {-(g.x() + g.y()), g.x(), g.y()};
  const Vec3 u = F * v / s;
  const double kA = limit.modulus * area, excess = s - limit.onsetStretch;
  const Mat3 uu = u * u.transpose();
  const Mat3 M = kA * (uu + (1 - limit.onsetStretch / s) * (Mat3::Identity() - uu));
  for (int k = 0; k < 3; ++k) {
    term.force[k] = -kA * excess * w[k] * u;
    // The pair block J_ij enters the system as -c J_ij off the diagonal and +c J_ij on it; the Hessian's
    // off-diagonal block is k A w_i w_j M, so J_ij = -w_i w_j M.
    term.edgeJ[k] = -w[k] * w[(k + 1) % 3] * M;
  }
  term.energy = 0.5 * kA * excess * excess;
  return term;
}

bool hasFaceStiffening(const Mesh& mesh, int f, const std::vector<char>& held, const std::vector<char>& touching) {
  const Tri n = mesh.faceNodes(f);
  if (!touching.empty() && (touching[n[0]] || touching[n[1]] || touching[n[2]])) return false;
  return held[n[0]] + held[n[1]] + held[n[2]] < 2;
}

double faceStiffeningEnergy(const Mesh& mesh, const FaceStiffening& limit, const std::vector<char>& held,
                            const std::vector<char>& touching) {
  double e = 0;
  if (!limit.active()) return e;
  for (int f = 0; f < int(mesh.faces.size()); ++f)
    if (hasFaceStiffening(mesh, f, held, touching)) e += faceStiffeningTerm(mesh, f, limit).energy;
  return e;
}

}  // namespace adacloth
