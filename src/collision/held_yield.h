#pragma once
// Held cloth that would pass through held cloth yields (step 0 of response.h; docs/collisions.md, "Held cloth").
//
// Why: nodes held by handles go where their handles put them, and no contact pass moves them (they have infinite
// mass). A waistband bound to a body follows a smooth blend of the body's triangles, but a smooth map is not one-to-
// one everywhere: where the hip creases as the leg lifts, two stretches of a gathered waistband 2 mm apart were
// carried through each other (skirt_walk at a 1 cm size minimum, frames 51 and 77), and the free cloth hanging from
// them then had to cross too. So before any other pass, primitive pairs made only of held cloth nodes are tested over
// the step. The nodes of the pairs that would touch are grouped (connected through those pairs, as impact zones are),
// and each group moves over the step by the rigid motion that best fits its own prescribed motion, which keeps
// distances inside it: the held cloth in it goes where its handles put it up to the part of their motion that would
// carry it through itself. Groups merge with what they then touch, until none is left. The handles put the nodes
// back on their targets in the next step as far as nothing is in the way.
#include "collision/collision_mesh.h"

namespace adacloth {

struct HeldYieldStats {
  int groups = 0;  // groups moved (most in one pass)
  int passes = 0;  // detection passes run
  int left = 0;    // pairs of held cloth still crossing when the passes ran out
  double largestShift = 0;  // m, the farthest a node ended from where its handle put it
};

// Tests every vertex-face and edge-edge pair of held cloth nodes (invMass 0, of a cloth: held by a handle, or without
// mass) over the step at contact distance `tolerance` (m), and moves the groups of those that touch rigidly, until
// no pair touches or `maxPasses` ran. Changes x1 and v of the held cloth nodes it moves; nothing else.
HeldYieldStats yieldHeldCrossings(const CollisionMesh& w, CollisionState& s, double tolerance, int maxPasses);

}  // namespace adacloth
