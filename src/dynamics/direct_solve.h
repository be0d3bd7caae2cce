#pragma once
// The exact solve of the implicit step: a sparse Cholesky factorization (CHOLMOD, from SuiteSparse; LDL^T or LL^T)
// of the system
// over the free nodes. The symbolic analysis (fill-reducing ordering and elimination tree) depends only on the
// sparsity pattern, so it is computed once and reused for every step until the pattern changes (a remesh, a node
// taken or released by a handle); only the numeric factorization is redone each step.
#include <memory>
#include <vector>

#include "dynamics/implicit_system.h"

namespace adacloth {

class DirectSolver {
 public:
  DirectSolver();
  ~DirectSolver();
  DirectSolver(DirectSolver&&) noexcept;
  DirectSolver& operator=(DirectSolver&&) noexcept;

  // dv of every node (held nodes: their prescribed dv). Throws std::runtime_error when the matrix is not positive
  // definite (it always is for a valid mesh with positive masses).
  std::vector<Vec3> solve(const ImplicitSystem& sys, const DynamicsState& state);

  // Symbolic analyses done so far (one per distinct sparsity pattern met; for tests and benchmarks).
  int analyses() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace adacloth
