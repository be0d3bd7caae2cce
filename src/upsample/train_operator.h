#pragma once
// Learning the linear upsampling operator U with harmonic regularization (seed 000 §3, docs/design.md §7).
//
// With Q the lowest K fine-mesh harmonics (A-orthonormal, A the lumped node area), U = Q Uh and each row n of Uh
// solves   min |Uh_n P_c - (Q^T A P_f)_n|^2 + gamma_n^2 |Uh_n|^2   subject to   Uh_n 1 = (Q^T A 1)_n,
// the partition of unity (rows of U sum to 1), where P_c (M x 3F) and P_f (N x 3F) stack the training frames'
// coordinates. The profile is gamma_n = gamma_1 (1 + b (n-1)/(N-1))^c with b chosen so that gamma_N is reached at
// the fine node count N: truncating the spectrum to K < N keeps the profile and drops the (heavily damped) rest.
#include <vector>

#include "upsample/eigenbasis.h"
#include "upsample/subdivide.h"
#include "upsample/upsample_operator.h"

namespace adacloth {

// A training sequence: matching coarse and fine node positions (m, rows) per frame, and the frame times (s).
struct TrainingSequence {
  std::vector<Eigen::MatrixX3d> coarse, fine;
  std::vector<double> time;
};

struct HarmonicRegularization {
  double gamma1 = 1.0;   // damping of the lowest harmonic
  double gammaN = 1e5;   // damping of harmonic N (the fine node count)
  double exponent = 4.0; // c of the polynomial profile
};

// gamma_n for n = 1..count (the first `count` harmonics of a mesh of `fineNodes` nodes).
Eigen::VectorXd harmonicProfile(const HarmonicRegularization& r, int count, int fineNodes);

// U (fine nodes x coarse nodes) from the harmonics in `basis` (all of its columns are used) and the training data.
//
// With a `prior` P (fine x coarse, rows summing to 1; e.g. the barycentric map B), U = P + Q D and the same problem
// is solved for the correction D against the residual P_f - P P_c, with rows of D summing to 0: the regularization
// then pulls toward P rather than toward 0. This matters when U is truncated to K << N harmonics: P keeps the
// frequencies above the K-th (the kinks of piecewise-linear interpolation), which Q D alone cannot represent, and a
// strongly regularized operator degrades to P instead of to a blurred mean shape.
Eigen::MatrixXd trainOperator(const Eigenbasis& basis, const std::vector<TrainingSequence>& data,
                              const HarmonicRegularization& regularization, const SparseMatrixD* prior = nullptr);

// An operator over the pair (coarse, fine) with the matrix U (fine nodes x coarse nodes, stored in single
// precision): material points per node, the fine mesh's verts and faces. Every row of U is corrected in double
// precision after rounding so that it still sums to 1 (within float resolution).
UpsampleOperator makeUpsampleOperator(const Mesh& coarse, const Mesh& fine, const Eigen::MatrixXd& U);

}  // namespace adacloth
