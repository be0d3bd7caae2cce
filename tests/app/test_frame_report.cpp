// The frame report: phase names, collision counters summed over steps, scoped timers.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <thread>

#include "app/frame_report.h"

using namespace adacloth;

TEST_CASE("every phase has its own stats key", "[app]") {
  std::set<std::string> names;
  for (int p = 0; p < kPhaseCount; ++p) names.insert(phaseName(Phase(p)));
  CHECK(names.size() == size_t(kPhaseCount));
  CHECK(names.count("total") == 0);
  FrameReport report(0);
  const config::Json j = wallTimesJson(report, 12.5);
  CHECK(j.size() == size_t(kPhaseCount) + 1);
  CHECK(j.begin().key() == "total");
  CHECK(j["total"] == 12.5);
}

TEST_CASE("collision counters sum over steps, zones take the worst step", "[app]") {
  CollisionCounters c;
  CollisionStepStats a, b;
  a.ccdPasses = 3, a.ccdTests = 100, a.impacts = 5, a.zones = 2, a.zonePasses = 4, a.unresolved = 0;
  b.ccdPasses = 8, b.ccdTests = 50, b.impacts = 1, b.zones = 1, b.zonePasses = 32, b.unresolved = 3;
  a.heldContacts = 2, b.heldContacts = 1;
  a.heldYields = 1, b.heldYields = 3;
  c.add(a);
  c.add(b);
  c.add(CollisionStepStats());
  CHECK(c.steps == 3);
  CHECK(c.ccdPasses == 11);
  CHECK(c.ccdTests == 150);
  CHECK(c.impacts == 6);
  CHECK(c.impactZones == 2);
  CHECK(c.zonePasses == 36);
  CHECK(c.unresolved == 3);
  CHECK(c.unresolvedSteps == 1);
  CHECK(c.heldContacts == 3);
  const config::Json j = collisionJson(c);
  CHECK(c.heldYields == 4);
  CHECK(j["held_contacts"] == 3);
  CHECK(j["held_yields"] == 4);
  CHECK(j["unresolved"] == 3);
  CHECK(j["unresolved_steps"] == 1);
  CHECK(j["impact_zones"] == 2);
}

TEST_CASE("a scoped phase adds its wall time to its own phase only", "[app]") {
  FrameReport report(2);
  CHECK(report.cloths.size() == 2);
  {
    ScopedPhase timer(report, Phase::Remesh);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  {
    ScopedPhase timer(report, Phase::Remesh);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(report[Phase::Remesh] >= 10.0);
  for (int p = 0; p < kPhaseCount; ++p)
    if (Phase(p) != Phase::Remesh) CHECK(report.ms[p] == 0.0);
}
