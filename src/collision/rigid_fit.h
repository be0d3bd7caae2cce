#pragma once
// The rigid motion that best fits some nodes' motion over a step: how impact zones make a group of nodes move as one
// body, and how held cloth yields (held_yield.h).
#include <vector>

#include "collision/collision_mesh.h"
#include "mesh/rigid_motion.h"

namespace adacloth {

// The rigid motion that best fits the motion of `nodes` from s.x0 to s.x1 (least squares, Kabsch/Umeyama), as a map
// from a position at the start of the step to one at its end. Held nodes bound to a deforming body turn and shift
// together, and a free node between them must turn with them: their mean displacement alone let a turning
// waistband's held edges sweep through a free node's edges (crowd, two steps left unresolved). With fewer than three
// nodes, or three in a line, the turn is not determined: the mean displacement alone.
RigidMotion bestRigidMotion(const CollisionState& s, const std::vector<int>& nodes);

}  // namespace adacloth
