#pragma once
// How far apart the two primitives of a pair inside one cloth are in material space (the cloth laid flat at rest).
// Two places of a cloth a few millimetres apart in material space are neighbours whose distance the cloth's own
// elasticity decides; they are not layers that must be kept a thickness apart (proximity pass, contact_response.h).
#include "collision/candidates.h"
#include "collision/collision_mesh.h"

namespace adacloth {

// The material-space distance (m) between the primitives of `c`: a node and a face, or two edges, each taken in the
// chart (connected piece of material space) of its owner face (collision_mesh.h). Infinite when the pair is not
// inside one cloth or its primitives lie in different charts: a seam joins panels that are laid out apart, so their
// material coordinates say nothing about how close the panels are.
double materialDistance(const CollisionMesh& w, const Candidate& c);

}  // namespace adacloth
