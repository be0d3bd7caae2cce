#pragma once
// The contact and constraint pass of one time step (docs/design.md §6): runs after the dynamics step, takes the cloth
// nodes' positions at the start of the step (x0) and at its end (Node::x), velocities Node::v and masses Node::mass,
// and the obstacles at the start and end of the step; fixes positions and velocities so that no cloth node passes
// through an obstacle or another piece of cloth during the step, and edges keep their strain limits.
//
// Every correction follows one rule: it moves positions and removes only the relative velocity that keeps violating
// its constraint (inelastic), with Coulomb friction on the tangential part of a contact; none adds speed.
//
// 0. Held cloth yields to held cloth (held_yield.h): pairs made only of handle-held nodes that would touch over the
//    step are grouped, and each group moves by the rigid motion that best fits its prescribed motion.
// 1. Ground planes: nodes closer than `thickness` are lifted (a half-space cannot be crossed by an edge or face
//    without a node crossing it, so nodes suffice).
// 2. Strain limiting (dynamics/strain_limit.h), before the contacts, so that contacts have the last word: a limit
//    that fights an obstacle yields (when they cannot both hold, the cloth must not pass through the obstacle). Run
//    between the CCD passes instead, it kept pulling nodes back into the body they were pushed out of, and the passes
//    never came out clean.
// 3. Proximity: vertex-face and edge-edge pairs closer than `thickness` at the end of the step are pushed apart to
//    `thickness` (the push goes to the lighter side by inverse mass), their approaching normal velocity removed
//    (inelastic) and their tangential velocity reduced by Coulomb friction. Then the strain limiter once more: the
//    pushes take no account of the limits (a node pushed out of a fold or off a body stretches its edges), and the
//    CCD passes that follow check the limiter's moves as they check the pushes. A cloth without limits gets the push
//    guard instead (dynamics/push_guard.h): its edges are brought back within [0.9, 1.1] of their rest length or
//    their length before the pushes, whichever is wider.
// 4. Continuous collision detection, iterated until clean: every pair that touches while approaching during the step
//    is separated at the end by a small gap (a tenth of the thickness), inelastic, with friction.
// 5. Impact zones (fallback, Provot): nodes of pairs still colliding after `iterations` passes are grouped and each
//    group moves rigidly (or rides the obstacle or follows the handle it touches); groups merge until no collision is
//    left. Pinned (handle) nodes and obstacles have infinite mass: no pass but 0. moves them.
// 6. Last: where the contacts left a cloth with a strain limit more than 1.1x past it, the limiter's repair
//    (strain_limit_repair.h) on that region, and nodes lifted off the grounds once more (self-contact pushes can move
//    them below); when either moved anything, the impact zones check the step again, and where they moved nodes, the
//    repair runs once more with those held (then the zones again).
#include <memory>
#include <vector>

#include "collision/obstacle.h"
#include "collision/params.h"
#include "dynamics/strain_limit.h"
#include "mesh/mesh.h"

namespace adacloth {

// One cloth in a step.
struct ClothStep {
  Mesh* mesh = nullptr;          // Node::x, Node::v at the end of the step (in and out), Node::mass
  std::vector<Vec3> x0;          // node positions at the start of the step (m)
  std::vector<char> pinned;      // 1 = held by a handle (infinite mass); empty = none held
  const StrainLimits* strainLimits = nullptr;  // node indices of `mesh`; null or empty = none
  // For a cloth without strain limits: the push guard's limits (dynamics/push_guard.h); null or empty = none.
  const StrainLimits* pushGuard = nullptr;
};

struct CollisionStepStats {
  std::vector<int> contacts;  // per cloth: proximity contacts (pairs within thickness, ground contacts)
  int impacts = 0;            // CCD impacts resolved by impulses
  int zones = 0;              // impact zones formed
  int unresolved = 0;         // pairs still colliding when the passes ran out (0 in a healthy run)
  int heldContacts = 0;       // pairs left touching on held features when the passes ran out (not in `unresolved`:
                              // the handles decide them; contact_response.h, onHeldFeatures)
  int heldYields = 0;         // groups of held cloth moved rigidly so as not to pass through held cloth (held_yield.h)
  int ccdPasses = 0;          // CCD passes run (at most CollisionParams::iterations)
  int zonePasses = 0;         // impact-zone passes run (at most CollisionParams::zoneIterations)
  long ccdTests = 0;          // primitive pairs given to the CCD test, over all passes (pairs unchanged since the
                              // previous pass keep their answer and are not counted again)
  bool meshRebuilt = false;   // the collision mesh was rebuilt (first step, or a cloth's or obstacle's faces changed)
  int limitPasses = 0;        // strain-limiter passes run (over all cloths)
  double limitMs = 0;         // wall time of the strain limiter (ms)
};

// What the collision phase keeps between steps: the collision mesh (every cloth and obstacle flattened into one
// indexed topology) and the bounding volume hierarchies over its faces, refitted every step; both are rebuilt when a
// mesh's faces change (after a remesh), so callers need not tell it.
class CollisionCache {
 public:
  CollisionCache();
  ~CollisionCache();
  CollisionCache(CollisionCache&&) noexcept;
  CollisionCache& operator=(CollisionCache&&) noexcept;
  struct Impl;
  std::unique_ptr<Impl> impl;
};

// The contact and constraint pass of one step of length dt (s). `start` and `end` are the obstacles' poses at the
// start and end of the step (same order and obstacles). With params.enabled false only the strain limiter runs.
// Throws nothing on unresolved collisions: they are counted.
CollisionStepStats resolveCollisions(std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& start,
                                     const std::vector<ObstaclePose>& end, const CollisionParams& params, double dt,
                                     CollisionCache& cache);

}  // namespace adacloth
