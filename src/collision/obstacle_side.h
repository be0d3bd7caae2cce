#pragma once
// Which side of an obstacle a cloth feature ends a step on, for a pair of a cloth and a mesh obstacle.
//
// Why: a pair's contact normal is otherwise oriented by the side its two features were on at the start of the step,
// which is right between two layers of cloth (a sheet has no inside) but not against a solid obstacle. A box that
// moves sideways through a curtain carries its edges past the cloth wrapped over them: cloth that went round an edge
// of the box during the step ends it outside, beyond the plane of the face it lay on, and a normal oriented by the
// start side pushed it back through that face's plane, into the box, by the thickness plus its distance. The
// proximity pass moved such nodes 1-2 thicknesses a step, the CCD passes up to 5, every step, and the curtain's
// faces around the box stretched 8-17x (docs/benchmarks.md, "A solid obstacle's side"). A closed, consistently
// oriented obstacle (the obstacle field assumes the same) says by itself which side is outside: the angle-weighted
// pseudo-normal of the obstacle feature nearest in the pair (a face, an edge, a corner) gives the sign, exactly on
// a closed mesh (Baerentzen and Aanaes 2005).
#include <optional>

#include "collision/candidates.h"
#include "collision/collision_mesh.h"

namespace adacloth {

// True when the pair has a node of an obstacle (its other features are a cloth's).
bool isObstaclePair(const CollisionMesh& w, const Candidate& c);

// The pair's contact at the end of the step (positions s.x1, t = 1), its normal oriented so that the separation
// sum_i w_i n . x_i is the cloth's signed distance from the obstacle's feature: positive outside, negative inside.
// Nothing when the cloth is at least `within` (m) from that feature, on either side (a pair whose features are that
// far apart is not the one that says where the cloth is: a node in front of a box lies behind the plane of its back
// face). For pairs with an obstacle (isObstaclePair).
std::optional<ContactGeometry> obstacleSideContact(const CollisionMesh& w, const CollisionState& s,
                                                   const Candidate& c, double within);

// True when the pair's cloth feature ends the step outside the obstacle's feature and at least `within` (m) from it.
bool endsClearOfObstacle(const CollisionMesh& w, const CollisionState& s, const Candidate& c, double within);

}  // namespace adacloth
