#pragma once
// A repair of the upper strain limits where the limiter's Gauss-Seidel passes cannot reach them (strain_limit.h).
//
// Why: in a crumpled region a face thin in material space (the anisotropic remesher makes them along folds) can
// share a node with a face compressed past the lower limit. Each pass opens the compressed face, which stretches the
// thin one across its short height, and closes the thin one, which compresses its neighbour again: the two
// projections diverge (a thin face went 1.05 -> 1.46 of its limit in five passes, 1.7 in 24, on ARCSim's soft flag;
// docs/benchmarks.md, "Why the limiter does not converge"). The repair solves the upper limits of the region
// together, as one problem, the way ARCSim solves its strain limits: the smallest mass-weighted move of the region's
// free nodes such that no face's larger principal stretch and no edge's length is past its upper limit, by an
// augmented Lagrangian method whose inner minimizations are L-BFGS (LBFGS++). The lower limits are left out: they are
// what the thin faces cannot satisfy together with the upper ones, and stretch is what shows.
//
// Positions only, as the limiter's face corrections (the edge passes that follow the repair's run take out the
// relative speeds that keep stretching an edge). Serial and deterministic.
#include "dynamics/strain_limit.h"

namespace adacloth {

struct UpperLimitRepair {
  double startAt = 1.1;   // repair faces and edges past this multiple of their upper limit (and their surroundings)
  int rings = 3;          // rings of faces around them whose free nodes may move
  int rounds = 2;         // augmented Lagrangian rounds (multiplier updates)
  int iterations = 60;    // L-BFGS iterations per round
  // The penalty on a stretch past the limit (1, a ratio) against the move (m, mass-weighted): 0.1 m^2 per unit^2,
  // i.e. 1 % past the limit weighs as much as moving a node of mean mass by 2.2 mm. The multipliers then take the
  // region the rest of the way.
  double penalty = 0.1;
};

// Moves the free nodes (invMass > 0) of `x` (the limits' node k at x[k], k < nodeCount) so that the faces and edges
// past `repair.startAt` times the upper limit come within it, as far as the rounds get. Returns the region's free
// node count (0: nothing was past startAt, or the minimization diverged and the region was left as it was).
int repairUpperLimits(Vec3* x, const double* invMass, const StrainLimits& limits, int nodeCount,
                      const UpperLimitRepair& repair = {});

}  // namespace adacloth
