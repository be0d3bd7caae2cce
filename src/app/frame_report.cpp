#include "app/frame_report.h"

#include <algorithm>

namespace adacloth {

const char* phaseName(Phase phase) {
  switch (phase) {
    case Phase::Physics: return "physics";
    case Phase::StrainLimit: return "strain_limit";
    case Phase::Collision: return "collision";
    case Phase::Occlusion: return "occlusion";
    case Phase::Sizing: return "sizing";
    case Phase::Remesh: return "remesh";
    case Phase::Checks: return "checks";
    case Phase::Io: return "io";
    case Phase::Upsample: return "upsample";
    case Phase::Measure: return "measure";
  }
  return "?";
}

void CollisionCounters::add(const CollisionStepStats& step) {
  ++steps;
  ccdPasses += step.ccdPasses;
  ccdTests += step.ccdTests;
  impacts += step.impacts;
  impactZones = std::max(impactZones, step.zones);
  zonePasses += step.zonePasses;
  unresolved += step.unresolved;
  if (step.unresolved > 0) ++unresolvedSteps;
  heldContacts += step.heldContacts;
  heldYields += step.heldYields;
  limitPasses += step.limitPasses;
}

config::Json wallTimesJson(const FrameReport& report, double totalMs) {
  config::Json j;
  j["total"] = totalMs;
  for (int p = 0; p < kPhaseCount; ++p) j[phaseName(Phase(p))] = report.ms[p];
  return j;
}

config::Json collisionJson(const CollisionCounters& c) {
  return {{"steps", c.steps},           {"ccd_passes", c.ccdPasses},   {"ccd_tests", c.ccdTests},
          {"impacts", c.impacts},       {"impact_zones", c.impactZones}, {"zone_passes", c.zonePasses},
          {"unresolved", c.unresolved}, {"unresolved_steps", c.unresolvedSteps},
          {"held_contacts", c.heldContacts}, {"held_yields", c.heldYields}, {"limit_passes", c.limitPasses}};
}

}  // namespace adacloth
