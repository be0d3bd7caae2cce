#pragma once
// A smoothed-aggregation multigrid V-cycle for the implicit step's system, used as the preconditioner of the default
// (pcg) solve.
//
// Why: CG preconditioned by the per-node blocks W_i^-1 alone carries information one edge per iteration, and the
// response to a force spreads sqrt(h^2 k / m) edges per step, so its iteration count grows with mesh resolution (a
// 3 mm cotton cell at h = 1/96 s needs several hundred). A coarse-grid correction moves the low-frequency part of
// the error in one go. Nodes are grouped into aggregates of strongly coupled neighbours (Vanek et al. 1996), each
// aggregate moves rigidly in translation on the next level, and the prolongator is smoothed by one damped block-
// Jacobi step so that coarse motion interpolates smoothly; coarse operators are Galerkin products P^T A P. The cycle
// smooths with damped block Jacobi (Kang and Cho's per-node update, here as a smoother), one sweep before and one
// after, which keeps the preconditioner symmetric as CG requires.
//
// The hierarchy is built from the matrix of one step and may be reused for later steps while the structure (free
// nodes, pairs) is the same: the fine level always applies the current system, and a slightly stale coarse level
// is still a valid (symmetric positive definite) preconditioner, only a less effective one.
#include <memory>
#include <vector>

#include "dynamics/implicit_system.h"
#include "io/binary_stream.h"

namespace adacloth {

class Multigrid {
 public:
  Multigrid();
  ~Multigrid();
  Multigrid(Multigrid&&) noexcept;
  Multigrid& operator=(Multigrid&&) noexcept;

  // Builds the hierarchy from `sys` (its free nodes and pair blocks).
  void build(const ImplicitSystem& sys, const DynamicsState& state);
  // True when the hierarchy was built for a system with the same free nodes and pairs as `sys`.
  bool fits(const ImplicitSystem& sys, const DynamicsState& state) const;
  // z = B r, one V-cycle for the current system `sys` (which must fit). r and z are per node, zero on held nodes.
  void apply(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& r,
             std::vector<Vec3>& z) const;

  // The hierarchy as bytes and back, for checkpoints: a resumed run must precondition with the very hierarchy the
  // interrupted run had built from an earlier step's matrix, or its iterates (and so its bytes) would differ.
  // load() checks every size and index (a BinaryFormatError otherwise) and leaves the hierarchy unbuilt on failure.
  void save(BinaryWriter& out) const;
  void load(BinaryReader& in);

  int levels() const;               // including the fine level; 0 before build()
  std::vector<int> levelSizes() const;  // unknowns per level, fine first

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace adacloth
