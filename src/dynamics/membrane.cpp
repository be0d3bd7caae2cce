#include "dynamics/membrane.h"

#include <cmath>

namespace adacloth {
namespace {

// K_jk = sum_bd C_abcd b_j[b] b_k[d] made symmetric (exactly symmetric already when c12 = c66).
Mat2 cornerTensor(const MembraneModuli& m, const Vec2& bj, const Vec2& bk) {
  Mat2 K;
  K(0, 0) = m.c11 * bj[0] * bk[0] + m.c66 * bj[1] * bk[1];
  K(1, 1) = m.c66 * bj[0] * bk[0] + m.c22 * bj[1] * bk[1];
  K(0, 1) = K(1, 0) = 0.5 * (m.c12 + m.c66) * (bj[0] * bk[1] + bj[1] * bk[0]);
  return K;
}

// The positive part of a symmetric 2x2 matrix (its negative eigenvalue set to zero): with eigenvalues l1 >= l2,
// S itself when l2 >= 0, zero when l1 <= 0, else l1 times the projector (S - l2 I) / (l1 - l2).
Mat2 positivePart(const Mat2& S) {
  const double half = 0.5 * (S(0, 0) + S(1, 1)), gap = std::hypot(0.5 * (S(0, 0) - S(1, 1)), S(0, 1));
  const double l1 = half + gap, l2 = half - gap;
  if (l2 >= 0) return S;
  if (l1 <= 0) return Mat2::Zero();
  return l1 / (l1 - l2) * (S - l2 * Mat2::Identity());
}

}  // namespace

MembraneModuli membraneModuli(const MaterialParams& material) {
  MembraneModuli m;
  m.c11 = m.c22 = material.stretch + 0.25 * material.shear;
  m.c12 = m.c66 = 0.25 * material.shear;
  return m;
}

FaceTerm membraneTerm(const Mesh& mesh, int f, const MembraneModuli& moduli) {
  FaceTerm term;
  const Face& face = mesh.faces[f];
  const double area = std::abs(face.materialArea);
  if (area < 0.5e-14) return term;
  const Tri n = mesh.faceNodes(f);
  Eigen::Matrix<double, 3, 2> Ds;
  Ds << mesh.nodes[n[1]].x - mesh.nodes[n[0]].x, mesh.nodes[n[2]].x - mesh.nodes[n[0]].x;
  const Eigen::Matrix<double, 3, 2> F = Ds * face.DmInv;
  const Mat2 G = 0.5 * (F.transpose() * F - Mat2::Identity());
  Mat2 S;
  S(0, 0) = moduli.c11 * G(0, 0) + moduli.c12 * G(1, 1);
  S(1, 1) = moduli.c12 * G(0, 0) + moduli.c22 * G(1, 1);
  S(0, 1) = S(1, 0) = 2 * moduli.c66 * G(0, 1);
  const Mat2 Splus = positivePart(S);
  const Vec2 b[3] = {Vec2(-face.DmInv.row(0).transpose() - face.DmInv.row(1).transpose()),
                     Vec2(face.DmInv.row(0).transpose()), Vec2(face.DmInv.row(1).transpose())};
  for (int j = 0; j < 3; ++j) term.force[j] = -area * (F * (S * b[j]));
  for (int k = 0; k < 3; ++k) {
    const int i = k, j = (k + 1) % 3;
    const Mat2 K = cornerTensor(moduli, b[i], b[j]);
    const Mat3 H = area * (b[i].dot(Splus * b[j]) * Mat3::Identity() + F * K * F.transpose());
    // The pair block J_ij enters the system as -c J_ij off the diagonal (face_stiffening.h): J_ij = -H_ij.
    term.edgeJ[k] = -H;
  }
  term.energy = 0.5 * area *
                (moduli.c11 * G(0, 0) * G(0, 0) + 2 * moduli.c12 * G(0, 0) * G(1, 1) +
                 moduli.c22 * G(1, 1) * G(1, 1) + 4 * moduli.c66 * G(0, 1) * G(0, 1));
  return term;
}

double membraneEnergy(const Mesh& mesh, const MembraneModuli& moduli) {
  double e = 0;
  for (int f = 0; f < int(mesh.faces.size()); ++f) e += membraneTerm(mesh, f, moduli).energy;
  return e;
}

}  // namespace adacloth
