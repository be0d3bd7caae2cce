#pragma once
// Impact zones (step 4 of response.h, after Provot): the fallback when CCD passes run out. The nodes of pairs still
// colliding are grouped into zones (connected through those pairs), and each zone moves as one rigid body over the
// step, so nothing inside it can collide; zones merge with whatever they then hit, until no collision is left.
#include <algorithm>
#include <numeric>
#include <vector>

#include "collision/collision_mesh.h"
#include "collision/impact_detector.h"

namespace adacloth {

// Union-find over nodes; a set's representative is its lowest node, so zones come out in a fixed order.
struct Zones {
  std::vector<int> parent;
  explicit Zones(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int a, int b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// Moves the zone `members` over the step. A zone touching an obstacle or a handle (a member of infinite mass) follows
// it: each free member rides the nearest obstacle face with a corner in the zone (keeping its offset from the face,
// turned with it). A zone touching only handles, with `blendRadius` > 0 (m; the thickness) and cloth faces held at
// all three corners among them, goes where those faces carry each free member, blended by distance out to the
// nearest one's plus `blendRadius` (docs/collisions.md). Otherwise it takes the rigid motion that best fits (least
// squares) the obstacle members' motion, or the handle members' when it touches no obstacle (the mean displacement
// when they are fewer than three or in a line). A free zone moves rigidly with its linear and angular momentum, which
// keeps distances inside it and so creates no collision. Positions x1 and velocities v of the free members change;
// nothing else.
void moveZoneRigidly(const CollisionMesh& w, CollisionState& s, const std::vector<int>& members,
                     double blendRadius = 0.0);

// Step 4: zones from `hits` (the collisions left after the CCD passes), moved, then re-detected with `detector`;
// pairs then colliding inside one zone that touches an obstacle (a deforming body moves it non-rigidly) get the CCD
// response, kept while that zone does not grow. In a zone held only by handles so do pairs with held nodes on both
// sides, and from the second half of the passes on every pair left. Until no collision is left or p.zoneIterations
// passes ran. Returns the collisions left (st.unresolved) but those on held features, which it counts in
// st.heldContacts; counts st.zones (most zones in one pass) and st.zonePasses.
int impactZones(const CollisionMesh& w, CollisionState& s, std::vector<Hit> hits, const CollisionParams& p,
                ImpactDetector& detector, CollisionStepStats& st);

}  // namespace adacloth
