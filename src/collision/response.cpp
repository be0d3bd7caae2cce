#include "collision/response.h"

#include <chrono>

#include "collision/broad_phase.h"
#include "collision/collision_mesh.h"
#include "collision/contact_response.h"
#include "collision/ground_contact.h"
#include "collision/held_yield.h"
#include "collision/impact_detector.h"
#include "collision/impact_zones.h"
#include "dynamics/push_guard.h"

namespace adacloth {

// Kept from step to step: the collision mesh, the face trees of its bodies, the box buffers of the broad phase and
// the node state (reused, as allocating them every step costs page faults).
struct CollisionCache::Impl {
  CollisionMesh mesh;
  FaceTrees trees;
  PrimitiveBoxes boxes;  // swept, not grown: the proximity pass's and the CCD passes' (broad_phase.h)
  CollisionState state;
  // The push guard's scratch: its bounds widened for this step, and the speeds its passes may not change.
  StrainLimits guardBounds;
  std::vector<Vec3> guardSpeeds;
  bool meshBuilt = false;
};

CollisionCache::CollisionCache() : impl(std::make_unique<Impl>()) {}
CollisionCache::~CollisionCache() = default;
CollisionCache::CollisionCache(CollisionCache&&) noexcept = default;
CollisionCache& CollisionCache::operator=(CollisionCache&&) noexcept = default;

namespace {

// Keeps the cached collision mesh when it still describes `cloths` and `obstacles`, else rebuilds it; the trees of
// bodies whose faces moved in the global numbering are then rebuilt at their next update, the others refitted.
// Returns true when it rebuilt.
bool updateCollisionMesh(CollisionCache::Impl& cache, const std::vector<ClothStep>& cloths,
                         const std::vector<ObstaclePose>& obstacles) {
  if (cache.meshBuilt && matchesTopology(cache.mesh, cloths, obstacles)) return false;
  CollisionMesh fresh = buildCollisionMesh(cloths, obstacles, cache.meshBuilt ? &cache.mesh : nullptr);
  markStale(cache.trees, changedBodies(cache.mesh, fresh));
  cache.mesh = std::move(fresh);
  cache.meshBuilt = true;
  return true;
}

// Runs every cloth's strain limiter on the state (cloth nodes come first, cloth after cloth); counts its passes and
// time.
void limitStrains(const std::vector<ClothStep>& cloths, CollisionState& s, CollisionStepStats& st) {
  // A ratio: a stretch within a thousandth of its limit counts as within (the passes stop early).
  constexpr double kSlack = 1e-3;
  const auto start = std::chrono::steady_clock::now();
  int first = 0;
  for (const ClothStep& c : cloths) {
    if (c.strainLimits && !c.strainLimits->empty())
      st.limitPasses += limitStrain(s.x1, s.v, s.invMass, *c.strainLimits, kSlack, first);
    first += int(c.mesh->nodes.size());
  }
  st.limitMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The push guard (dynamics/push_guard.h) of every cloth that has one: its edges are brought back within their
// guard bounds or their length in `beforePushes` (the cloth nodes' positions before the proximity pushes), whichever
// is wider. Positions only.
void guardPushes(const std::vector<ClothStep>& cloths, const std::vector<Vec3>& beforePushes, CollisionState& s,
                 CollisionCache::Impl& scratch, CollisionStepStats& st) {
  constexpr double kSlack = 1e-3;  // as limitStrains'
  const auto start = std::chrono::steady_clock::now();
  // The speeds stay the solve's: the pushes moved positions only, so the guard's undoing of them does too.
  bool speedsCopied = false;
  int first = 0;
  for (const ClothStep& c : cloths) {
    if (c.pushGuard && !c.pushGuard->empty()) {
      StrainLimits& bounds = scratch.guardBounds;
      bounds = *c.pushGuard;  // into the buffers of the last step: no allocation once they are large enough
      widenToLengths(bounds, beforePushes, first);
      if (!speedsCopied) scratch.guardSpeeds = s.v, speedsCopied = true;
      st.limitPasses += limitStrain(s.x1, scratch.guardSpeeds, s.invMass, bounds, kSlack, first);
    }
    first += int(c.mesh->nodes.size());
  }
  st.limitMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// True when some cloth with a strain limit has a face or an edge more than 1.1x past its upper limit: where the
// repair below acts.
bool anyFarPast(const std::vector<ClothStep>& cloths, const CollisionState& s) {
  int first = 0;
  for (const ClothStep& c : cloths) {
    if (c.strainLimits && needsStrainRepair(s.x1, *c.strainLimits, first)) return true;
    first += int(c.mesh->nodes.size());
  }
  return false;
}

// The contact responses after the limiter's last run (the CCD passes' separations, the impact zones) can stretch a
// cloth held by a tight limit past it again: on ARCSim's soft flag with tethers an edge ended a frame at 1.35 of its
// limit, and on garments (whose limiter runs have no repair) single edges reached 2.4x. Where that leaves a face or an
// edge more than 1.1x its upper limit, the limiter's repair runs once more, on every cloth with a strain limit (until
// stop 86 only on cloth whose limits keep the least stretched state, as in the limiter; docs/benchmarks.md, "The
// repair after the contacts on every limited cloth"). The repair knows no contacts: with
// `heldFrom`, the nodes whose end positions differ from it (the ones the impact zones just moved) stay where they
// are. Returns the nodes moved.
int repairStrains(const std::vector<ClothStep>& cloths, const std::vector<Vec3>* heldFrom, CollisionState& s,
                  CollisionStepStats& st) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<double> held;
  if (heldFrom) {
    held = s.invMass;
    for (size_t i = 0; i < held.size(); ++i)
      if (s.x1[i] != (*heldFrom)[i]) held[i] = 0;
  }
  const std::vector<double>& invMass = heldFrom ? held : s.invMass;
  int moved = 0, first = 0;
  for (const ClothStep& c : cloths) {
    if (c.strainLimits) moved += repairStrain(s.x1, invMass, *c.strainLimits, first);
    first += int(c.mesh->nodes.size());
  }
  st.limitMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return moved;
}

// Self-collision pushes may have moved nodes below a ground: they are lifted again (no second count). A lift is a
// move that no CCD pass has seen, and it can carry a node through a layer of cloth lying on the ground
// (sheet_on_sphere did so at frame 114), so when it or an earlier move (`moved`) changed anything, the impact zones
// check the step once more; `beforeZones` gets the state they started from. Returns the pairs the zones left.
int liftAndCheck(bool moved, const std::vector<ObstaclePose>& start, const std::vector<ObstaclePose>& end,
                 const CollisionParams& params, const CollisionMesh& w, ImpactDetector& detector, CollisionState& s,
                 CollisionStepStats& st, std::vector<Vec3>* beforeZones = nullptr) {
  for (size_t o = 0; o < start.size(); ++o)
    if (start[o].obstacle->isGround()) moved = groundPass(w, s, start[o], end[o], params, nullptr) > 0 || moved;
  if (beforeZones) *beforeZones = s.x1;
  if (!moved) return 0;
  const std::vector<Hit> hits = detector.detect(w, s);
  return hits.empty() ? 0 : impactZones(w, s, hits, params, detector, st);
}

// The moves after the CCD passes and the impact zones: the lift off the grounds and, for cloth with a strain limit,
// the strain repair, both checked by the impact zones. Where the repair undid contacts, the
// zones put those nodes back rigidly, which stretches the edges from a zone to the repaired nodes around it, so the
// repair runs once more with the nodes the zones moved held, checked again. A repair whose check leaves colliding
// pairs is not kept (the zones resolve the state the contacts left; on ARCSim's tethered flag they once left a pair of
// the state after a second repair unresolved).
void finishStep(const std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& start,
                const std::vector<ObstaclePose>& end, const CollisionParams& params, const CollisionMesh& w,
                ImpactDetector& detector, CollisionState& s, CollisionStepStats& st) {
  auto check = [&](bool moved, std::vector<Vec3>* beforeZones = nullptr) {
    return liftAndCheck(moved, start, end, params, w, detector, s, st, beforeZones);
  };
  // The repair (repairStrains) and its check: kept when the check leaves no colliding pair, else undone. Nothing is
  // copied in the usual step, where no cloth is that far past its limit.
  auto tryRepair = [&](const std::vector<Vec3>* heldFrom, std::vector<Vec3>* beforeZones) {
    if (!anyFarPast(cloths, s)) return false;
    const std::vector<Vec3> x = s.x1, v = s.v;
    if (repairStrains(cloths, heldFrom, s, st) == 0) return false;
    if (check(true, beforeZones) == 0) return true;
    s.x1 = x, s.v = v;
    return false;
  };
  std::vector<Vec3> beforeZones;
  if (!tryRepair(nullptr, &beforeZones)) {
    st.unresolved += check(false);
    return;
  }
  if (beforeZones != s.x1) tryRepair(&beforeZones, nullptr);
}

}  // namespace

CollisionStepStats resolveCollisions(std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& start,
                                     const std::vector<ObstaclePose>& end, const CollisionParams& params, double dt,
                                     CollisionCache& cache) {
  CollisionStepStats st;
  st.contacts.assign(cloths.size(), 0);
  CollisionCache::Impl& c = *cache.impl;
  CollisionState& s = c.state;
  loadState(s, cloths, start, end, dt);
  if (!params.enabled) {
    limitStrains(cloths, s, st);
    writeBack(s, cloths);
    return st;
  }
  st.meshRebuilt = updateCollisionMesh(c, cloths, start);
  const CollisionMesh& w = c.mesh;
  const HeldYieldStats held = yieldHeldCrossings(w, s, ccdTolerance(params), params.zoneIterations);
  st.heldYields = held.groups;
  st.unresolved = held.left;
  for (size_t o = 0; o < start.size(); ++o)
    if (start[o].obstacle->isGround()) groundPass(w, s, start[o], end[o], params, &st.contacts);
  limitStrains(cloths, s, st);
  ImpactDetector detector(params, c.trees, c.boxes, st);
  {
    // The pairs of an obstacle's nodes and edges are wanted only by the CCD passes, which the proximity pass's pairs
    // seed: found within five CCD tolerances (a quarter of the thickness), they hold every pair within the tolerance
    // of nodes that the moves until the first CCD pass carry less than two tolerances (ImpactDetector::seed).
    const double seedReach = 5 * ccdTolerance(params);
    std::vector<Candidate> near = findCandidates(w, s, params, c.trees, params.thickness, c.boxes, seedReach);
    std::vector<Vec3> found(s.x1.begin(), s.x1.begin() + clothCounts(w).nodes);
    proximityPass(w, s, near, params, st);
    // The repulsion pushes move nodes without regard to the cloth's limits: pushed out of a fold or off a body, a
    // node stretches its edges, and nothing after the contact passes pulled them back (the self-contact of a soft
    // flag held to 1.05 left edges at 2x). The limiter runs again, before the CCD passes, which check its moves too.
    limitStrains(cloths, s, st);
    guardPushes(cloths, found, s, c, st);
    detector.seed(std::move(near), std::move(found), seedReach);
  }
  bool clean = false;
  for (int pass = 0; pass < params.iterations && !clean; ++pass) {
    std::vector<Hit> hits = detector.detect(w, s);
    ++st.ccdPasses;
    clean = hits.empty();
    for (const Hit& h : hits) {
      auto nodes = candidateNodes(w, h.candidate);
      if (separate(s, nodes, h.g, 0.1 * params.thickness, frictionOf(w, nodes, params))) ++st.impacts;
    }
  }
  if (!clean) {
    std::vector<Hit> hits = detector.detect(w, s);
    if (!hits.empty()) st.unresolved += impactZones(w, s, hits, params, detector, st);
  }
  finishStep(cloths, start, end, params, w, detector, s, st);
  writeBack(s, cloths);
  return st;
}

}  // namespace adacloth
