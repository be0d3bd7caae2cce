#pragma once
// What one frame of the loop measured, as stats.jsonl reports it: the wall time of every phase (each timed by one
// scope, so nothing is counted twice and the phases add up to the frame's total but for the loop's own overhead),
// and the counters of the work done: linear solves, collision passes, remesh operations.
#include <array>
#include <chrono>
#include <optional>
#include <vector>

#include "collision/response.h"
#include "config/schema.h"
#include "view/view_sizing.h"

namespace adacloth {

// The phases of a frame, in the order they run.
enum class Phase {
  Physics,      // implicit steps of every cloth and the blow-up guard
  StrainLimit,  // the strain limiter, which runs inside the contact and constraint pass (timed there)
  Collision,    // the rest of that pass: contacts
  Occlusion,  // depth pre-pass of what can hide a cloth from the camera (`view.occlusion`)
  Sizing,     // sizing fields, view factors and screen-space clamps
  Remesh,     // split, flip, collapse, and the dynamics state carried over to the new mesh
  Checks,     // non-finite guard over every node
  Io,         // frame, obstacle and fixed-topology OBJ files (a stats line cannot time its own write)
  Upsample,   // sampling, upsampling and blending of the fixed-topology outputs (writing them is io)
  Measure,    // end-of-frame measurements for stats: penetration, intersections, energies, view statistics
};
constexpr int kPhaseCount = int(Phase::Measure) + 1;  // Measure stays last
const char* phaseName(Phase phase);  // the key in stats.jsonl's wall_ms

// Collision counters summed over the frame's steps (impact zones: the most formed in one step).
struct CollisionCounters {
  int steps = 0;            // collision phases run (one per step or substep)
  int ccdPasses = 0;        // continuous-collision passes
  long ccdTests = 0;        // primitive pairs given to the CCD test
  int impacts = 0;          // CCD impacts resolved by impulses
  int impactZones = 0;      // the most impact zones formed in one step
  int zonePasses = 0;       // impact-zone passes
  int unresolved = 0;       // pairs still colliding when a step's passes ran out (0 in a healthy run)
  int unresolvedSteps = 0;  // steps that ended with such pairs
  int heldContacts = 0;     // pairs left touching on held features (the handles decide them; not in `unresolved`)
  int heldYields = 0;       // groups of held cloth moved so as not to pass through held cloth (held_yield.h)
  int limitPasses = 0;      // strain-limiter passes

  void add(const CollisionStepStats& step);
};

// Per cloth: the solves of the frame's steps, the contacts of its last collision step, the frame's remesh.
struct ClothCounters {
  int solverIterations = 0;    // summed over the frame's steps
  int solverDirectSolves = 0;  // the frame's solves by the direct factorization (solver direct or auto)
  double solverResidual = 0;   // the worst final relative residual
  int contacts = 0;            // proximity contacts in the frame's last collision step
  int splits = 0, flips = 0, collapses = 0;
  int refusedOps = 0;          // flips and collapses refused because they would have swept through something
  std::optional<ViewStats> view;           // cloths refined with `view`: after the frame's remesh
  std::optional<double> upsampledFraction;  // cloths with `upsample`
};

struct FrameReport {
  std::array<double, kPhaseCount> ms{};  // wall time per phase (ms)
  CollisionCounters collision;
  std::vector<ClothCounters> cloths;

  explicit FrameReport(size_t clothCount) : cloths(clothCount) {}
  double& operator[](Phase phase) { return ms[size_t(phase)]; }
};

// Adds the wall time of its scope to one phase of a report.
class ScopedPhase {
 public:
  ScopedPhase(FrameReport& report, Phase phase)
      : slot_(report[phase]), start_(std::chrono::steady_clock::now()) {}
  ~ScopedPhase() {
    slot_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  double& slot_;
  std::chrono::steady_clock::time_point start_;
};

// stats.jsonl's wall_ms object: `total` first, then every phase.
config::Json wallTimesJson(const FrameReport& report, double totalMs);
// stats.jsonl's collision object.
config::Json collisionJson(const CollisionCounters& counters);

}  // namespace adacloth
