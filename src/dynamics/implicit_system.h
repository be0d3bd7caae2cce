#pragma once
// The linearized backward-Euler system of one step (docs/design.md §5, Kang and Cho eq. 9-16), in per-node 3x3 blocks:
//   W_i dv_i - c sum_j J_ij dv_j = h f~_i        for every free node i,
//   dv_i = prescribed                            for every node held by a handle,
// with J_ij = stretchK n n^T + bendK I (Kang-Cho's approximate spring Jacobian, plus the constant bending Hessian),
// W_i = M_i + c sum_j J_ij, f~_i = f_i + (h + beta) sum_j J_ij (v_j - v_i), c = h (h + beta), beta the material's
// stiffness-proportional damping. For beta = 0 this is exactly the paper's W_i and f~_i. A cloth whose strain limit
// has `stiffening`, or whose membrane is "triangles", adds its face terms (dynamics/face_stiffening.h,
// dynamics/membrane.h) to the blocks of the faces' edges and to f.
#include <vector>

#include "dynamics/dynamics_state.h"

namespace adacloth {

struct ImplicitSystem {
  double h = 0;                  // s, time step
  double c = 0;                  // s^2, coefficient of the off-diagonal blocks
  std::vector<Mat3> pairJ;       // J of each pair (N/m)
  std::vector<Mat3> Winv;        // inverse diagonal blocks (1/kg)
  std::vector<Mat3> W;           // diagonal blocks (kg)
  std::vector<Vec3> rhs;         // h f~_i (N s)
  std::vector<char> fixed;       // 1: dv prescribed
  std::vector<Vec3> fixedDv;     // m/s, prescribed dv of fixed nodes
  std::vector<char> touching;    // 1: the node has an obstacle contact this step (no face terms there); may be empty
  std::vector<Vec3> pairForce;   // N, internal force of each pair on its node a (scratch)
  std::vector<FaceTerm> faceTerms;  // the face terms (triangle membrane, strain limit), if any (scratch)
  std::vector<char> faceStiffened;            // 1: the face's terms include the strain limit's (scratch)
};

// The pair at node incidence k is a hinge diagonal (k >= state.incidenceDiagonal of its node); its J = s I: s.
// A product with s I is three multiplications where the block takes fifteen operations, and it gives the block
// product's bits (the block's off-diagonal terms are zeros, which leave a nonzero sum unchanged). Half of a node's
// couplings are diagonals, so the products over a node's pairs take them in a loop of their own.
inline double diagonalScale(const ImplicitSystem& sys, const DynamicsState& state, int k) {
  return sys.pairJ[state.incidencePair[k]](0, 0);
}

// sum_j J_ij y_j over node i's pairs, in incidence order (the same sum, to the bit, wherever it is needed).
inline Vec3 offDiagonalProduct(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& y,
                               int i) {
  Vec3 sum = Vec3::Zero();
  for (int k = state.incidenceStart[i]; k < state.incidenceDiagonal[i]; ++k)
    sum += sys.pairJ[state.incidencePair[k]] * y[state.incidenceOther[k]];
  for (int k = state.incidenceDiagonal[i]; k < state.incidenceStart[i + 1]; ++k)
    sum += diagonalScale(sys, state, k) * y[state.incidenceOther[k]];
  return sum;
}

// Assembles the system at the mesh's current x, v. `external` are forces not in the Jacobian (gravity, wind; N);
// `fixedDv` is used where `fixed` is 1.
ImplicitSystem assembleSystem(const Mesh& mesh, const DynamicsState& state, const MaterialParams& material,
                              const std::vector<Vec3>& external, std::vector<char> fixed, std::vector<Vec3> fixedDv,
                              double h);
// The same into an existing system, reusing its storage (a step then allocates nothing when the size is unchanged:
// fresh buffers of 100+ MB per step would cost more in page faults than the step itself at 200k nodes).
// `sys.fixed` and `sys.fixedDv` must already be set.
void assembleSystemInto(ImplicitSystem& sys, const Mesh& mesh, const DynamicsState& state,
                        const MaterialParams& material, const std::vector<Vec3>& external, double h);

// Kang-Cho: `iterations` Jacobi updates dv_i = p_i + c W_i^-1 sum_j J_ij dv_j with p_i = W_i^-1 h f~_i, starting
// from dv = p (iterations = 1 is the paper's one-iteration update, eq. 16; 0 returns p). O(nodes + pairs) per sweep.
std::vector<Vec3> solveKangCho(const ImplicitSystem& sys, const DynamicsState& state, int iterations);

// The same system solved fully by Eigen's conjugate gradient (reference). `iterationsUsed` and `relativeResidual`
// report what CG reached.
std::vector<Vec3> solveConjugateGradient(const ImplicitSystem& sys, const DynamicsState& state, double tolerance,
                                         int* iterationsUsed = nullptr, double* relativeResidual = nullptr);

// |b - A dv|_W / |b|_W over the free nodes, computed directly from the blocks (to check a solution independently), in
// the norm of the per-node blocks |y|_W = sqrt(sum_i y_i . W_i^-1 y_i) (velocity units weighted by mass; see
// dynamics/block_pcg.cpp for why not the plain norm).
double relativeResidual(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& dv);

}  // namespace adacloth
