#pragma once
// The implicit step's linear system restricted to the free nodes, as one sparse matrix: what the sparse solvers (the
// direct Cholesky solve and the CG reference) factor or iterate on. Held nodes are eliminated: their prescribed dv
// is known, so their coupling moves to the right-hand side.
#include <Eigen/Sparse>
#include <vector>

#include "dynamics/implicit_system.h"

namespace adacloth {

struct FreeNodeSystem {
  std::vector<int> slot;  // node -> index among the free nodes, -1 for a held node
  int freeNodes = 0;
  Eigen::SparseMatrix<double> A;  // 3 freeNodes square, symmetric positive definite (both triangles stored)
  Eigen::VectorXd b;              // N s
  // Scratch of the assembly, kept so that a system reused step after step does not allocate its rows again.
  std::vector<int> rowFirst;
  std::vector<std::pair<int, Mat3>> rowEntries;
};

// Builds A and b of `sys` over its free nodes (sys.fixed == 0). Entries are in a fixed order (columns increasing
// within each column), so the sparsity pattern is the same for every step while the pairs and the held nodes do not
// change.
FreeNodeSystem assembleFreeNodeSystem(const ImplicitSystem& sys, const DynamicsState& state);
// The same into an existing system, reusing its storage. `order`, when it lists exactly the free nodes, sets their
// slots: order[s] is the node in slot s (a direct solver's elimination order). Otherwise the free nodes take slots in
// node order.
void assembleFreeNodeSystemInto(FreeNodeSystem& out, const ImplicitSystem& sys, const DynamicsState& state,
                                const std::vector<int>& order = {});

// dv of every node: the solution `x` (3 per free node) for free nodes, the prescribed dv for held ones.
std::vector<Vec3> scatterFreeSolution(const ImplicitSystem& sys, const std::vector<int>& slot,
                                      const Eigen::VectorXd& x);

}  // namespace adacloth
