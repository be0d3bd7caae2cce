#pragma once
// Tethers (long range attachments, Kim, Chentanez and Müller-Fischer 2012) for the strain limiter
// (dynamics/strain_limit.h): every free node is kept within `max` times its material-space distance of the nearest
// held nodes, in one move per node.
//
// Why: a Gauss-Seidel pass over the edges carries a held node's pull one edge further per pass, so a sheet hanging
// from a few held nodes (a flag held at two corners in a strong wind) needs as many passes as it is edges across, and
// an adaptive mesh refines exactly where the load gathers, next to the held nodes. Each edge path from a held node to
// a node is at most `max` times its rest length when the limits hold, so the node's distance to the held node is at
// most `max` times their distance in material space: the tether states that bound directly, and the edge passes are
// left with the local corrections.
#include <vector>

#include "dynamics/dynamics_state.h"
#include "mesh/mesh.h"

namespace adacloth {

// Node `node` stays within `maxDistance` (m) of held node `anchor`.
struct Tether {
  int node = -1, anchor = -1;
  double maxDistance = 0;
};

// The tethers of a cloth: for each free node, one to the nearest node of each of the (at most `maxAnchors`) nearest
// groups of connected held nodes. The distance is the straight material-space one where that segment runs inside the
// panel (a walk through the faces it crosses; boundaries and seams block it), else the shortest path over the mesh
// edges (rest lengths), which only over-estimates it, so a tether never asks for compression; `maxRatio` scales it.
// `held` has one flag per node. No tethers when no node is held.
std::vector<Tether> tethers(const Mesh& mesh, const DynamicsState& state, const std::vector<char>& held,
                            double maxRatio, int maxAnchors = 4);

// Pulls each tethered node back within its distance of its anchor (the anchor is held and does not move) and removes
// the node's speed away from it. Nodes with `invMass` 0 do not move. Returns false when a tether was longer than
// (1 + slack) times its limit.
bool tetherPass(Vec3* x, Vec3* v, const double* invMass, const std::vector<Tether>& tethers, double slack);

}  // namespace adacloth
