#pragma once
// The impulse response to one contact, and the proximity pass built on it (steps 2 and 3 of response.h). A pair is
// pushed apart along the contact normal, its approaching normal velocity is removed (inelastic) and its tangential
// velocity reduced by Coulomb friction; the push goes to the lighter side, split by inverse mass.
#include <array>
#include <vector>

#include "collision/candidates.h"
#include "collision/ccd.h"
#include "collision/collision_mesh.h"

namespace adacloth {

// Moves the pair `nodes` apart along g.normal until its separation there is `target` (m), makes it stop approaching
// (inelastic) and applies Coulomb friction `mu` to its tangential relative velocity. Returns false when nothing
// moved (both sides immovable, or already far enough and separating). No node moves farther than the push (a pair
// whose only movable node has a small weight is then left partly apart). A node resting on a ground
// (CollisionState::support) takes no share of a move into that ground.
bool separate(CollisionState& s, const std::array<int, 4>& nodes, const ContactGeometry& g, double target, double mu);

// True when the contact lies on held features: the nodes that can move (invMass > 0; not obstacle or handle nodes)
// carry under 5 % of its weights, as where a held node meets a held edge and the free end of its own edge is weighted
// 0-0.04. The handles that move the held nodes decide such a contact, as they decide a pair of held nodes
// (broad_phase.h, anyMovable): a push moves the contact point by that share at most, so no pass can answer it.
bool onHeldFeatures(const CollisionState& s, const std::array<int, 4>& nodes, const ContactGeometry& g);

// The Coulomb coefficient of a pair: obstacle friction when a node belongs to an obstacle, else self friction.
double frictionOf(const CollisionMesh& w, const std::array<int, 4>& nodes, const CollisionParams& p);

// Counts a contact for each cloth the pair touches (a pair inside one cloth counts once for it).
void countContact(const CollisionMesh& w, const std::array<int, 4>& nodes, std::vector<int>& contacts);

// The separation (m) the proximity pass pushes pair `c`, now `g.distance` apart, to: the contact `thickness`; for a
// pair inside one cloth at most its fold chord (2 / pi of its material-space distance, material_distance.h), and
// where it is when it is at least that far apart already: neighbours of a cloth finer than the thickness and the
// flanks of a fold are not layers, and pushing them farther apart than a fold of the thickness holds them would
// stretch the cloth.
double proximityTarget(const CollisionMesh& w, const Candidate& c, const ContactGeometry& g, double thickness);

// Step 2: pairs among `cands` within the thickness at the end of the step are pushed to proximityTarget(), one after
// the other in candidate order; st.contacts counts them.
void proximityPass(const CollisionMesh& w, CollisionState& s, const std::vector<Candidate>& cands,
                   const CollisionParams& p, CollisionStepStats& st);

}  // namespace adacloth
