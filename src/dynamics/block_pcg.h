#pragma once
// The default solve of the implicit step: conjugate gradient on the system over the free nodes, preconditioned by Kang
// and Cho's per-node blocks W_i^-1, started from a guess that already carries the step's global motion.
//
// Why this and not Kang-Cho's one sweep: a force spreads about sqrt(h^2 k / m) edges per step (~40 on a 3 cm cotton
// sheet at h = 1/96 s), and one neighbour-to-neighbour sweep carries it one edge, so the one-sweep update lags the
// global motion (a free sheet falls at 40 % of g). CG carries it one edge per iteration too, but optimally, and the
// guess makes the remaining error small: the previous step's dv (motion is coherent from step to step, so only the
// change of the acceleration is left to correct; dynamics/warm_start.h), or for nodes without one the inertial dv = h
// f_ext / m, which is exact for a free fall (the elastic coupling sums to zero on a rigid translation). The matrix is
// never assembled: each iteration is one pass over the pairs, as a Kang-Cho sweep is. Every sum has a fixed order, so
// the result is the same at any thread count.
#include <functional>
#include <vector>

#include "dynamics/implicit_system.h"
#include "dynamics/params.h"
#include "dynamics/solver_cache.h"

namespace adacloth {

struct SolveReport {
  int iterations = 0;     // iterations (CG) or sweeps (Kang-Cho) done
  double residual = 0;    // final |b - A dv|_W / |b|_W over the free nodes (relativeResidual(); cg: Eigen's plain norm)
  int directSolves = 0;   // solves by the direct factorization (solver direct, or auto once it chose it)
};

// z = B r for a symmetric positive definite approximation B of A^-1 (per node; r and z are zero on held nodes).
using Preconditioner = std::function<void(const std::vector<Vec3>& r, std::vector<Vec3>& z)>;

// r = b - A dv over the free nodes (held neighbours' known dv moved into b; zero on held nodes) and z = W^-1 r per
// node. Returns (|b|_W^2, |r|_W^2) in the norm of the per-node blocks (see block_pcg.cpp). `partial` is scratch.
Vec2 freeResidual(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& dv,
                  std::vector<Vec3>& r, std::vector<Vec3>& z, std::vector<Vec2>& partial);

// Solves sys for dv, starting from `guess` (one per node; entries of held nodes are ignored, they get their
// prescribed dv), preconditioned by `precondition` or, when it is empty, by the blocks W_i^-1. Returns dv of every
// node.
std::vector<Vec3> solveBlockPcg(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& guess,
                                const PcgSettings& settings, PcgWorkspace& work, SolveReport* report = nullptr,
                                const Preconditioner& precondition = {});

}  // namespace adacloth
