#pragma once
// The lowest mesh harmonics (seed 000 §3-4): the K smallest eigenpairs of K q = lambda A q, with K the cotangent
// stiffness and A the lumped node area, normalized so that Q^T A Q = I. The first is the constant function.
#include "upsample/laplacian.h"

namespace adacloth {

struct Eigenbasis {
  Eigen::MatrixXd Q;       // nodes x K, A-orthonormal columns (1/m)
  Eigen::VectorXd lambda;  // K eigenvalues, ascending (1/m^2)
  Eigen::VectorXd area;    // lumped node area A (m^2)
};

// Spectra shift-invert Lanczos on A^-1/2 K A^-1/2 around a small negative shift (the matrix minus the shift is
// positive definite, so its sparse factorization never meets a zero pivot). The mesh must be connected (one
// constant harmonic), and 1 <= K <= node count; small meshes (or K above half the nodes) use a dense solver.
// Throws std::runtime_error when Spectra does not converge.
Eigenbasis lowestHarmonics(const Mesh& mesh, int K);

}  // namespace adacloth
