#include "dynamics/direct_solve.h"

#include <omp.h>

#include <Eigen/CholmodSupport>
#include <stdexcept>

#include "dynamics/free_node_system.h"

namespace adacloth {

// CHOLMOD chooses per matrix between its simplicial LDL^T (small systems) and its supernodal LL^T, which runs on
// dense BLAS blocks and is 2-3x faster from ~10k nodes on (tools/install-deps.sh installs Debian's single-threaded
// OpenBLAS for it; results do not depend on adacloth's thread count). The upper triangle is handed over because the
// supernodal factorization wants A(p,p) as upper: from the lower one CHOLMOD transposes twice per step, not once.
struct DirectSolver::Impl {
  Eigen::CholmodDecomposition<Eigen::SparseMatrix<double>, Eigen::Upper> factor;
  std::vector<int> outer, inner;  // the pattern the current analysis is for
  FreeNodeSystem system;          // this step's system; its storage is reused by the next
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

// Runs CHOLMOD's OpenMP loops serially while alive. Debian's CHOLMOD asks for 4 threads in its supernodal loops
// (clearing and copying supernodes, whatever omp_set_num_threads says); on a 2-core machine the team's wake-ups
// cost more than the loops (docs/benchmarks.md, "Implicit step solvers": one thread, 1k nodes 2.5x, 10k nodes 1.7x
// faster). Its BLAS is single-threaded anyway. max-active-levels 0 makes every parallel region inactive; it is a
// global setting of the OpenMP runtime, so the previous value is put back at once, and it is left alone when called
// inside a parallel region (where CHOLMOD's regions would be nested, hence inactive, already).
class SerialOpenMP {
 public:
  SerialOpenMP() : levels_(omp_get_max_active_levels()), active_(!omp_in_parallel()) {
    if (active_) omp_set_max_active_levels(0);
  }
  ~SerialOpenMP() {
    if (active_) omp_set_max_active_levels(levels_);
  }
  SerialOpenMP(const SerialOpenMP&) = delete;
  SerialOpenMP& operator=(const SerialOpenMP&) = delete;

 private:
  int levels_;
  bool active_;
};

}  // namespace

std::vector<Vec3> DirectSolver::solve(const ImplicitSystem& sys, const DynamicsState& state) {
  Impl& m = *impl_;
  FreeNodeSystem& free = m.system;
  assembleFreeNodeSystemInto(free, sys, state);
  if (free.freeNodes == 0) return scatterFreeSolution(sys, free.slot, Eigen::VectorXd());
  const SerialOpenMP serial;
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
