#include "dynamics/direct_solve.h"

#include <Eigen/CholmodSupport>
#include <stdexcept>

#include "dynamics/free_node_system.h"

namespace adacloth {

// CHOLMOD chooses per matrix between its simplicial LDL^T (small systems) and its supernodal LL^T, which runs on
// dense BLAS blocks and is 2-3x faster from ~10k nodes on (tools/install-deps.sh installs Debian's single-threaded
// OpenBLAS for it; results do not depend on adacloth's thread count).
struct DirectSolver::Impl {
  Eigen::CholmodDecomposition<Eigen::SparseMatrix<double>, Eigen::Lower> factor;
  std::vector<int> outer, inner;  // the pattern the current analysis is for
  int analyses = 0;
};

DirectSolver::DirectSolver() : impl_(std::make_unique<Impl>()) {}
DirectSolver::~DirectSolver() = default;
DirectSolver::DirectSolver(DirectSolver&&) noexcept = default;
DirectSolver& DirectSolver::operator=(DirectSolver&&) noexcept = default;

int DirectSolver::analyses() const { return impl_->analyses; }

namespace {

bool samePattern(const Eigen::SparseMatrix<double>& A, const std::vector<int>& outer, const std::vector<int>& inner) {
  if (size_t(A.outerSize()) + 1 != outer.size() || size_t(A.nonZeros()) != inner.size()) return false;
  return std::equal(outer.begin(), outer.end(), A.outerIndexPtr()) &&
         std::equal(inner.begin(), inner.end(), A.innerIndexPtr());
}

}  // namespace

std::vector<Vec3> DirectSolver::solve(const ImplicitSystem& sys, const DynamicsState& state) {
  FreeNodeSystem free = assembleFreeNodeSystem(sys, state);
  if (free.freeNodes == 0) return scatterFreeSolution(sys, free.slot, Eigen::VectorXd());
  Impl& m = *impl_;
  if (!samePattern(free.A, m.outer, m.inner)) {
    m.factor.analyzePattern(free.A);
    m.outer.assign(free.A.outerIndexPtr(), free.A.outerIndexPtr() + free.A.outerSize() + 1);
    m.inner.assign(free.A.innerIndexPtr(), free.A.innerIndexPtr() + free.A.nonZeros());
    ++m.analyses;
  }
  m.factor.factorize(free.A);
  if (m.factor.info() != Eigen::Success)
    throw std::runtime_error("direct solve: the step's matrix is not positive definite");
  Eigen::VectorXd x = m.factor.solve(free.b);
  return scatterFreeSolution(sys, free.slot, x);
}

}  // namespace adacloth
