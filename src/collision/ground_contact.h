#pragma once
// Contact with ground planes (step 1 of response.h): an infinite half-space cannot be crossed by an edge or a face
// without one of its nodes crossing it, so testing the nodes suffices.
#include <vector>

#include "collision/collision_mesh.h"

namespace adacloth {

// Lifts every movable cloth node closer than p.thickness to the plane of `end` (the ground's pose at the end of the
// step; `start` gives the plane's own normal speed) back to p.thickness, removes its approaching normal velocity
// relative to the plane and applies Coulomb friction (p.obstacleFriction) to its tangential velocity. With
// `contacts`, counts one contact per lifted node for its cloth. Returns the number of nodes lifted.
int groundPass(const CollisionMesh& w, CollisionState& s, const ObstaclePose& start, const ObstaclePose& end,
               const CollisionParams& p, std::vector<int>* contacts);

}  // namespace adacloth
