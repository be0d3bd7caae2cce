#include "dynamics/multigrid.h"

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <cmath>

#include "dynamics/free_node_system.h"

namespace adacloth {
namespace {

using RowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;

constexpr int kCoarsestNodes = 100;     // solved directly at or below this many nodes
constexpr int kMaxLevels = 12;
constexpr double kStrength = 0.08;      // j is a strong neighbour of i if |A_ij| >= this x sqrt(|A_ii| |A_jj|)
constexpr double kMinCoarsening = 0.8;  // stop when a level keeps more than this fraction of its nodes

// The block-diagonal inverse of A's diagonal blocks of size bs (bs scalar rows per node).
RowMatrix inverseBlockDiagonal(const RowMatrix& A, int bs) {
  const int n = int(A.rows() / bs);
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(size_t(n) * bs * bs);
  Eigen::MatrixXd d(bs, bs);
  for (int i = 0; i < n; ++i) {
    d.setZero();
    for (int r = 0; r < bs; ++r)
      for (RowMatrix::InnerIterator it(A, bs * i + r); it; ++it)
        if (it.col() / bs == i) d(r, it.col() % bs) = it.value();
    const Eigen::MatrixXd inv = d.inverse();
    for (int r = 0; r < bs; ++r)
      for (int c = 0; c < bs; ++c) t.emplace_back(bs * i + r, bs * i + c, inv(r, c));
  }
  RowMatrix D(A.rows(), A.cols());
  D.setFromTriplets(t.begin(), t.end());
  return D;
}

// Block neighbours of every block row (in column order) with the Frobenius norm of the block, and the norms of the
// diagonal blocks.
struct BlockGraph {
  std::vector<std::vector<std::pair<int, double>>> neighbours;
  std::vector<double> diagonal;
};

BlockGraph blockGraph(const RowMatrix& A, int bs) {
  const int n = int(A.rows() / bs);
  BlockGraph g;
  g.neighbours.resize(n);
  g.diagonal.assign(n, 0.0);
  std::vector<double> norm2(n, 0.0);
  std::vector<int> touched;
  for (int i = 0; i < n; ++i) {
    touched.clear();
    for (int r = 0; r < bs; ++r)
      for (RowMatrix::InnerIterator it(A, bs * i + r); it; ++it) {
        const int j = int(it.col() / bs);
        if (norm2[j] == 0.0) touched.push_back(j);
        norm2[j] += it.value() * it.value() + 1e-300;
      }
    std::sort(touched.begin(), touched.end());
    for (int j : touched) {
      if (j == i) g.diagonal[i] = std::sqrt(norm2[j]);
      else g.neighbours[i].emplace_back(j, std::sqrt(norm2[j]));
      norm2[j] = 0.0;
    }
  }
  return g;
}

// Greedy aggregation (Vanek, Mandel and Brezina 1996) in node order over the strong connections
// (|A_ij| >= kStrength sqrt(|A_ii| |A_jj|)): a node whose strong neighbours are all free starts an aggregate with
// them; the rest join the aggregate of a strong neighbour, else of any neighbour; a node with none stands alone.
// Returns the aggregate of each node and sets `count`.
std::vector<int> aggregate(const BlockGraph& g, int& count) {
  const int n = int(g.diagonal.size());
  std::vector<std::vector<int>> strong(n);
  for (int i = 0; i < n; ++i)
    for (auto [j, norm] : g.neighbours[i])
      if (norm >= kStrength * std::sqrt(g.diagonal[i] * g.diagonal[j])) strong[i].push_back(j);
  std::vector<int> agg(n, -1);
  count = 0;
  for (int i = 0; i < n; ++i) {
    if (agg[i] >= 0 || strong[i].empty()) continue;
    bool allFree = true;
    for (int j : strong[i]) allFree = allFree && agg[j] < 0;
    if (!allFree) continue;
    agg[i] = count;
    for (int j : strong[i]) agg[j] = count;
    ++count;
  }
  const std::vector<int> firstPass = agg;
  for (int i = 0; i < n; ++i) {
    if (agg[i] >= 0) continue;
    for (int j : strong[i])
      if (firstPass[j] >= 0) {
        agg[i] = firstPass[j];
        break;
      }
    if (agg[i] >= 0) continue;
    for (auto [j, norm] : g.neighbours[i])
      if (agg[j] >= 0) {
        agg[i] = agg[j];
        break;
      }
    if (agg[i] < 0) agg[i] = count++;
  }
  return agg;
}

// The tentative prolongator: each aggregate moves rigidly in translation, P0(3i + r, 3 agg(i) + r) = 1. (Adding
// the three rotations per aggregate, as for elasticity, was measured: it made the V-cycle 2.5x dearer and saved
// almost no iterations on cloth, whose soft modes are bending, not rigid, motions.)
RowMatrix tentativeProlongator(const std::vector<int>& agg, int aggregates) {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(3 * agg.size());
  for (size_t i = 0; i < agg.size(); ++i)
    for (int r = 0; r < 3; ++r) t.emplace_back(int(3 * i) + r, 3 * agg[i] + r, 1.0);
  RowMatrix P(3 * agg.size(), 3 * aggregates);
  P.setFromTriplets(t.begin(), t.end());
  return P;
}

// Largest eigenvalue of D^-1 A by power iteration from a fixed start (deterministic), with 10 % margin.
double spectralRadius(const RowMatrix& DinvMatrix, const RowMatrix& A) {
  Vector v(A.rows());
  for (int i = 0; i < v.size(); ++i) v[i] = 1.0 + 0.5 * std::sin(1.7 * i);
  double lambda = 1.0;
  for (int k = 0; k < 15; ++k) {
    Vector w = DinvMatrix * (A * v);
    lambda = w.norm() / v.norm();
    v = w / w.norm();
  }
  return 1.1 * lambda;
}

}  // namespace

struct Multigrid::Impl {
  struct Level {                 // a coarse level (the fine level is the system itself, applied matrix-free)
    RowMatrix A;
    RowMatrix Dinv;              // inverse of A's block diagonal
    double omega = 0;            // damping of the block-Jacobi smoother
    RowMatrix P, Pt;             // to the next coarser level (empty on the last)
  };
  // What the hierarchy was built for.
  std::vector<char> fixed;
  std::vector<int> pairNodes;
  std::vector<int> slot;
  int freeNodes = 0;
  double omega0 = 0;             // fine smoother damping
  RowMatrix P0, P0t;             // fine (free nodes) -> first coarse level
  std::vector<Level> coarse;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> coarsest;
  bool built = false;

  Vector cycle(size_t l, const Vector& b) const;
};

Multigrid::Multigrid() : impl_(std::make_unique<Impl>()) {}
Multigrid::~Multigrid() = default;
Multigrid::Multigrid(Multigrid&&) noexcept = default;
Multigrid& Multigrid::operator=(Multigrid&&) noexcept = default;

namespace {

std::vector<int> pairNodesOf(const DynamicsState& state) {
  std::vector<int> nodes;
  nodes.reserve(2 * state.pairs.size());
  for (const SpringPair& p : state.pairs) nodes.push_back(p.a), nodes.push_back(p.b);
  return nodes;
}

}  // namespace

bool Multigrid::fits(const ImplicitSystem& sys, const DynamicsState& state) const {
  const Impl& m = *impl_;
  if (!m.built || m.fixed != sys.fixed || m.pairNodes.size() != 2 * state.pairs.size()) return false;
  for (size_t p = 0; p < state.pairs.size(); ++p)
    if (m.pairNodes[2 * p] != state.pairs[p].a || m.pairNodes[2 * p + 1] != state.pairs[p].b) return false;
  return true;
}

void Multigrid::build(const ImplicitSystem& sys, const DynamicsState& state) {
  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  FreeNodeSystem free = assembleFreeNodeSystem(sys, state);
  m.slot = free.slot;
  m.freeNodes = free.freeNodes;
  m.fixed = sys.fixed;
  m.pairNodes = pairNodesOf(state);
  m.built = true;
  RowMatrix A = free.A;
  for (int level = 0; level < kMaxLevels; ++level) {
    const int n = int(A.rows() / 3);
    RowMatrix Dinv = inverseBlockDiagonal(A, 3);
    const double omega = 4.0 / (3.0 * spectralRadius(Dinv, A));
    int aggregates = 0;
    const std::vector<int> agg = n > kCoarsestNodes ? aggregate(blockGraph(A, 3), aggregates) : std::vector<int>();
    const bool last = n <= kCoarsestNodes || aggregates > kMinCoarsening * n || level + 1 == kMaxLevels;
    // P = (I - omega D^-1 A) P0: one damped Jacobi step smooths the piecewise-constant coarse motion.
    RowMatrix P, Pt;
    if (!last) {
      P = tentativeProlongator(agg, aggregates);
      P = P - omega * RowMatrix(Dinv * RowMatrix(A * P));
      Pt = P.transpose();
    }
    RowMatrix coarseA = last ? RowMatrix() : RowMatrix(Pt * RowMatrix(A * P));
    if (level == 0) {
      m.omega0 = omega;
      m.P0 = std::move(P);
      m.P0t = std::move(Pt);
    } else {
      m.coarse.push_back({std::move(A), std::move(Dinv), omega, std::move(P), std::move(Pt)});
    }
    if (last) break;
    A = std::move(coarseA);
  }
  if (!m.coarse.empty()) m.coarsest.compute(Eigen::SparseMatrix<double>(m.coarse.back().A));
}

Vector Multigrid::Impl::cycle(size_t l, const Vector& b) const {
  const Level& level = coarse[l];
  if (l + 1 == coarse.size()) return coarsest.solve(b);
  auto smooth = [&](const Vector& residual, Vector& x) { x += level.omega * (level.Dinv * residual); };
  Vector x = Vector::Zero(b.size());
  smooth(b, x);
  const Vector correction = level.P * cycle(l + 1, Vector(level.Pt * (b - level.A * x)));
  x += correction;
  smooth(Vector(b - level.A * x), x);
  return x;
}

namespace {

// out_i = r_i - (A x)_i for free nodes (the current system, matrix-free), zero on held nodes.
void residualOf(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& r,
                const std::vector<Vec3>& x, std::vector<Vec3>& out) {
  const int n = int(r.size());
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    if (sys.fixed[i]) {
      out[i] = Vec3::Zero();
      continue;
    }
    out[i] = r[i] - (sys.W[i] * x[i] - sys.c * offDiagonalProduct(sys, state, x, i));
  }
}

}  // namespace

void Multigrid::apply(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& r,
                      std::vector<Vec3>& z) const {
  const Impl& m = *impl_;
  const int n = int(r.size());
  z.resize(n);
  // Pre-smoothing from zero.
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) z[i] = sys.fixed[i] ? Vec3::Zero() : Vec3(m.omega0 * (sys.Winv[i] * r[i]));
  if (m.coarse.empty()) return;
  thread_local std::vector<Vec3> tStore;
  std::vector<Vec3>& t = tStore;
  t.resize(n);
  residualOf(sys, state, r, z, t);
  Vector fine(3 * m.freeNodes);
  for (int i = 0; i < n; ++i)
    if (m.slot[i] >= 0) fine.segment<3>(3 * m.slot[i]) = t[i];
  const Vector correction = m.P0 * m.cycle(0, Vector(m.P0t * fine));
  for (int i = 0; i < n; ++i)
    if (m.slot[i] >= 0) z[i] += correction.segment<3>(3 * m.slot[i]);
  // Post-smoothing.
  residualOf(sys, state, r, z, t);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    if (!sys.fixed[i]) z[i] += m.omega0 * (sys.Winv[i] * t[i]);
}

int Multigrid::levels() const { return impl_->built ? int(impl_->coarse.size()) + 1 : 0; }

std::vector<int> Multigrid::levelSizes() const {
  std::vector<int> sizes;
  if (!impl_->built) return sizes;
  sizes.push_back(3 * impl_->freeNodes);
  for (const Impl::Level& level : impl_->coarse) sizes.push_back(int(level.A.rows()));
  return sizes;
}

}  // namespace adacloth

namespace adacloth {
namespace {

void saveMatrix(BinaryWriter& out, RowMatrix m) {
  m.makeCompressed();
  out.u64(uint64_t(m.rows()));
  out.u64(uint64_t(m.cols()));
  out.ints(std::vector<int>(m.outerIndexPtr(), m.outerIndexPtr() + m.rows() + 1));
  out.ints(std::vector<int>(m.innerIndexPtr(), m.innerIndexPtr() + m.nonZeros()));
  out.doubles(std::vector<double>(m.valuePtr(), m.valuePtr() + m.nonZeros()));
}

// A compressed row-major matrix whose structure is checked: row starts non-decreasing from 0 to the entry count,
// column indices in range and increasing within each row.
RowMatrix loadMatrix(BinaryReader& in, const char* field) {
  const uint64_t rows = in.u64(field), cols = in.u64(field);
  const std::vector<int> outer = in.ints(field), inner = in.ints(field);
  const std::vector<double> values = in.doubles(field);
  // Every matrix of a hierarchy has at most as many columns as rows (square, or a prolongator to a coarser level):
  // this also bounds what a transpose allocates by the file's size.
  if (rows > uint64_t(1) << 30 || cols > rows || outer.size() != rows + 1 || outer.front() != 0 ||
      size_t(outer.back()) != inner.size() || inner.size() != values.size())
    in.fail(std::string(field) + ": inconsistent sparse matrix sizes");
  for (uint64_t r = 0; r < rows; ++r) {
    if (outer[r + 1] < outer[r]) in.fail(std::string(field) + ": row starts decrease");
    for (int k = outer[r]; k < outer[r + 1]; ++k)
      if (inner[k] < 0 || uint64_t(inner[k]) >= cols || (k > outer[r] && inner[k] <= inner[k - 1]))
        in.fail(std::string(field) + ": column index out of order or range");
  }
  RowMatrix m{Eigen::Index(rows), Eigen::Index(cols)};
  m.resizeNonZeros(Eigen::Index(values.size()));
  std::copy(outer.begin(), outer.end(), m.outerIndexPtr());
  std::copy(inner.begin(), inner.end(), m.innerIndexPtr());
  std::copy(values.begin(), values.end(), m.valuePtr());
  return m;
}

bool multiplies(const RowMatrix& left, const RowMatrix& right) { return left.cols() == right.rows(); }

}  // namespace

void Multigrid::save(BinaryWriter& out) const {
  const Impl& m = *impl_;
  out.u8(m.built ? 1 : 0);
  if (!m.built) return;
  out.chars(m.fixed);
  out.ints(m.pairNodes);
  out.ints(m.slot);
  out.i32(m.freeNodes);
  out.f64(m.omega0);
  saveMatrix(out, m.P0);
  out.u64(m.coarse.size());
  for (const Impl::Level& level : m.coarse) {
    saveMatrix(out, level.A);
    saveMatrix(out, level.Dinv);
    out.f64(level.omega);
    saveMatrix(out, level.P);
  }
}

void Multigrid::load(BinaryReader& in) {
  impl_ = std::make_unique<Impl>();
  auto fresh = std::make_unique<Impl>();
  Impl& m = *fresh;
  if (!in.u8("multigrid.built")) return;
  m.fixed = in.chars("multigrid.fixed");
  m.pairNodes = in.ints("multigrid.pair_nodes");
  m.slot = in.ints("multigrid.slot");
  m.freeNodes = in.i32("multigrid.free_nodes");
  m.omega0 = in.f64("multigrid.omega");
  m.P0 = loadMatrix(in, "multigrid.P0");
  m.P0t = m.P0.transpose();
  // The slots number the free nodes in order; anything else is not a hierarchy this code built.
  int next = 0;
  if (m.slot.size() != m.fixed.size() || m.pairNodes.size() % 2) in.fail("multigrid: inconsistent node arrays");
  for (size_t i = 0; i < m.slot.size(); ++i)
    if (m.slot[i] != (m.fixed[i] ? -1 : next++)) in.fail("multigrid: free-node slots out of order");
  if (m.freeNodes != next) in.fail("multigrid: free node count does not match the held nodes");
  const size_t levels = in.count("multigrid.levels", 1);
  if (levels == 0 ? m.P0.size() != 0 : m.P0.rows() != 3 * Eigen::Index(m.freeNodes))
    in.fail("multigrid: the fine level's prolongator does not match its free nodes");
  for (size_t l = 0; l < levels; ++l) {
    Impl::Level level;
    level.A = loadMatrix(in, "multigrid.A");
    level.Dinv = loadMatrix(in, "multigrid.Dinv");
    level.omega = in.f64("multigrid.omega");
    level.P = loadMatrix(in, "multigrid.P");
    level.Pt = level.P.transpose();
    const RowMatrix& above = l == 0 ? m.P0 : m.coarse.back().P;
    const bool last = l + 1 == levels;
    if (!multiplies(above, level.A) || level.A.rows() != level.A.cols() || level.Dinv.rows() != level.A.rows() ||
        level.Dinv.cols() != level.A.cols() || (last ? level.P.size() != 0 : level.P.rows() != level.A.rows()))
      in.fail("multigrid: level " + std::to_string(l + 1) + " does not fit the level above");
    m.coarse.push_back(std::move(level));
  }
  if (!m.coarse.empty()) {
    m.coarsest.compute(Eigen::SparseMatrix<double>(m.coarse.back().A));
    if (m.coarsest.info() != Eigen::Success) in.fail("multigrid: the coarsest level cannot be factored");
  }
  m.built = true;
  impl_ = std::move(fresh);
}

}  // namespace adacloth
