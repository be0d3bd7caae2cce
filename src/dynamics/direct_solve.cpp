#include "dynamics/direct_solve.h"

#include <Eigen/CholmodSupport>
#include <stdexcept>

#include "dynamics/free_node_system.h"
#include "dynamics/serial_openmp.h"

namespace adacloth {

// CHOLMOD chooses per matrix between its simplicial LDL^T (small systems) and its supernodal LL^T, which runs on
// dense BLAS blocks and is 2-3x faster from ~10k nodes on (tools/install-deps.sh installs Debian's single-threaded
// OpenBLAS for it; results do not depend on adacloth's thread count). Its OpenMP regions run on the calling thread
// (SerialOpenMP): they cost more than their work at these sizes.
//
// The fill-reducing order is chosen per node (on the graph of 3x3 blocks) and the system is assembled in it, so
// CHOLMOD factors the matrix as given (natural ordering, lower triangle): with an ordering of its own it would copy
// the permuted matrix every step (a transpose of 1 MB at 1k nodes, 4-7 % of the step).
struct DirectSolver::Impl {
  Eigen::CholmodDecomposition<Eigen::SparseMatrix<double>, Eigen::Lower> factor;
  std::vector<int> order;         // the free nodes in elimination order (slot -> node)
  std::vector<int> outer, inner;  // the pattern the current analysis is for
  FreeNodeSystem system;          // this step's system; its storage is reused by the next
  int analyses = 0;

  Impl() {
    cholmod_common& c = factor.cholmod();
    c.nmethods = 1;
    c.method[0].ordering = CHOLMOD_NATURAL;
    c.postorder = 0;  // keeps the permutation the identity; `order` comes postordered
  }
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

// A fill-reducing elimination order of the free nodes, from CHOLMOD's analysis (its default choice of AMD or METIS,
// postordered) of the block pattern of `free.A`: one node per 3x3 block, a ninth of the scalar pattern.
std::vector<int> fillReducingNodeOrder(const FreeNodeSystem& free) {
  const int nodes = free.freeNodes;
  const Eigen::SparseMatrix<double>& A = free.A;
  std::vector<int> columnStart(nodes + 1, 0), rows;
  rows.reserve(A.nonZeros() / 9);
  for (int s = 0; s < nodes; ++s) {  // the lower triangle of block column s, read from its first scalar column
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, 3 * s); it; ++it)
      if (it.row() % 3 == 0 && it.row() >= 3 * s) rows.push_back(int(it.row() / 3));
    columnStart[s + 1] = int(rows.size());
  }
  cholmod_common c;
  cholmod_start(&c);
  c.supernodal = CHOLMOD_SIMPLICIAL;  // only the order is wanted
  cholmod_sparse pattern{};
  pattern.nrow = pattern.ncol = size_t(nodes);
  pattern.nzmax = rows.size();
  pattern.p = columnStart.data();
  pattern.i = rows.data();
  pattern.stype = -1;
  pattern.itype = CHOLMOD_INT;
  pattern.xtype = CHOLMOD_PATTERN;
  pattern.dtype = CHOLMOD_DOUBLE;
  pattern.sorted = 1;
  pattern.packed = 1;
  cholmod_factor* symbolic = cholmod_analyze(&pattern, &c);
  if (!symbolic) {
    cholmod_finish(&c);
    throw std::runtime_error("direct solve: CHOLMOD could not order the free nodes");
  }
  const int* perm = static_cast<const int*>(symbolic->Perm);
  std::vector<int> slotOrder(perm, perm + nodes);
  cholmod_free_factor(&symbolic, &c);
  cholmod_finish(&c);
  // slotOrder lists current slots; the caller wants nodes.
  std::vector<int> nodeOfSlot(nodes);
  for (size_t i = 0; i < free.slot.size(); ++i)
    if (free.slot[i] >= 0) nodeOfSlot[free.slot[i]] = int(i);
  for (int& s : slotOrder) s = nodeOfSlot[s];
  return slotOrder;
}

}  // namespace

std::vector<Vec3> DirectSolver::solve(const ImplicitSystem& sys, const DynamicsState& state) {
  Impl& m = *impl_;
  FreeNodeSystem& free = m.system;
  assembleFreeNodeSystemInto(free, sys, state, m.order);
  if (free.freeNodes == 0) return scatterFreeSolution(sys, free.slot, Eigen::VectorXd());
  const SerialOpenMP serial;
  if (!samePattern(free.A, m.outer, m.inner)) {
    // The order is computed from the system in node order, so that it depends on the system alone and not on the
    // solver's past (AMD breaks ties by numbering): a resumed run starts with a fresh solver, and its frames must be
    // the uninterrupted run's.
    assembleFreeNodeSystemInto(free, sys, state);
    m.order = fillReducingNodeOrder(free);
    assembleFreeNodeSystemInto(free, sys, state, m.order);
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
