#pragma once
// What the linear solves of a cloth keep from one step to the next: the previous step's dv (the next solve's
// starting guess), the direct solver's symbolic analysis, scratch vectors. It is a cache: a copy starts empty, and
// dropping it changes cost, not results beyond the solver's tolerance.
#include <array>
#include <memory>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

class DirectSolver;
class Multigrid;

// The couplings of the free node at each position of a sweep order to free nodes before it (lower) or after it
// (upper) in that order, in incidence order, as two CSR lists over positions: mesh edges, then hinge diagonals (the
// pairs between the opposite nodes of a hinge, numbered after every edge, so this is each node's incidence order).
struct TriangleCouplings {
  std::vector<int> edgeStart, edgePair, edgeOther;
  std::vector<int> diagonalStart, diagonalPair, diagonalOther;
  // c J of each edge coupling for the current step, gathered in sweep order as the six entries of the symmetric
  // block (xx, yy, zz, xy, xz, yz): a sweep then streams through 48 bytes per coupling instead of looking up 72.
  std::vector<std::array<double, 6>> edgeBlock;
  // c J = s I of each hinge diagonal: bending is its only term, k K_c K_d I (dynamics_state.cpp), so one number.
  std::vector<double> diagonalScale;
};

struct PcgWorkspace {
  std::vector<Vec3> r, z, p, q;
  std::vector<Vec3> t, y;     // ssor: the backward half-sweep and the transformed iterate
  std::vector<Vec2> partial;  // per chunk of nodes: partial sums of the dot products
  // ssor: free nodes in sweep order, each node's position in it (-1: held), and the couplings split by that order;
  // kept while the held nodes and the pairs' nodes (the key) are the same.
  std::vector<int> order, rank;
  TriangleCouplings lower, upper;
  std::vector<char> orderFixed;
  std::vector<int> orderPairNodes;
};

// Solver auto's mode for a cloth (dynamics/step.h) and what this frame's pcg solves took so far, from which the next
// frame's mode follows (startSolverFrame). Kept in checkpoints, so that a resumed run chooses as an uninterrupted one.
struct AutoSolverChoice {
  bool direct = false;    // direct mode: the frame's steps are solved by the factorization
  bool checking = false;  // direct mode, a check frame: solved by pcg, to see whether the factorization still pays
  int directFrames = 0;   // frames solved directly since the last check frame
  int iterations = 0;     // pcg iterations of this frame's solves so far
  int solves = 0;         // pcg solves of this frame so far (a step is solved again for contacts and friction)
  int freeNodes = 0;      // free nodes at the last pcg solve
  bool blockJacobi = false;  // the last pcg solve was preconditioned by the blocks alone (cheaper iterations)
};

struct SolverCache {
  std::vector<Vec3> lastDv;       // m/s, dv of the last solve, per node
  std::vector<char> lastDvKnown;  // 1 where lastDv holds a value for the node (0: a node new since then)
  std::vector<Vec3> prevDv;       // m/s, dv of the solve before
  std::vector<char> prevDvKnown;
  std::shared_ptr<DirectSolver> direct;
  std::shared_ptr<Multigrid> multigrid;
  int multigridBaseIterations = -1;  // pcg iterations of the first solve after the hierarchy was built (-1: none yet)
  bool multigridStale = false;       // rebuild the hierarchy before the next solve
  PcgWorkspace pcg;
  AutoSolverChoice autoChoice;

  SolverCache() = default;
  SolverCache(const SolverCache&) {}
  SolverCache& operator=(const SolverCache&) {
    clear();
    return *this;
  }
  SolverCache(SolverCache&&) = default;
  SolverCache& operator=(SolverCache&&) = default;

  // Carries lastDv and prevDv over a remesh: old node k becomes node nodeMap[k] (-1: removed) of `newNodes` nodes.
  void remap(const std::vector<int>& nodeMap, size_t newNodes);
  void clear();
};

}  // namespace adacloth
