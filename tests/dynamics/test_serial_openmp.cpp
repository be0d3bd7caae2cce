// Parallel regions that would get a team of one thread run on the calling thread (serial_openmp.h), with the
// meaning OpenMP gives them; every other region still gets its threads.
#include <omp.h>

#include <catch2/catch.hpp>
#include <vector>

#include "dynamics/serial_openmp.h"

using namespace adacloth;

namespace {

// What one region with `asked` threads (0: the default) saw: its team size, how many threads ran it, and the sum of
// a work-shared loop with a dynamic schedule (the no-team path of libgomp's work-sharing calls).
struct RegionSeen {
  int teamSize = 0;
  int bodies = 0;
  long loopSum = 0;
};

RegionSeen runRegion(int asked) {
  RegionSeen seen;
  const auto body = [&seen] {
#pragma omp atomic
    ++seen.bodies;
#pragma omp single
    seen.teamSize = omp_get_num_threads();
    long sum = 0;
#pragma omp for schedule(dynamic, 3)
    for (int i = 1; i <= 100; ++i) sum += i;
#pragma omp atomic
    seen.loopSum += sum;
  };
  if (asked > 0) {
#pragma omp parallel num_threads(asked)
    body();
  } else {
#pragma omp parallel
    body();
  }
  return seen;
}

}  // namespace

TEST_CASE("under SerialOpenMP a region asking for four threads runs once on the calling thread", "[dynamics]") {
  const long before = parallelRegionsRunDirectly();
  RegionSeen seen;
  {
    const SerialOpenMP serial;
    seen = runRegion(4);
  }
  CHECK(seen.teamSize == 1);
  CHECK(seen.bodies == 1);
  CHECK(seen.loopSum == 5050);
  CHECK(parallelRegionsRunDirectly() == before + 1);
}

TEST_CASE("outside SerialOpenMP a region gets the threads it asks for", "[dynamics]") {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  const long before = parallelRegionsRunDirectly();
  const RegionSeen asked = runRegion(2);
  const RegionSeen byDefault = runRegion(0);
  omp_set_num_threads(saved);
  CHECK(asked.teamSize == 2);
  CHECK(asked.bodies == 2);
  CHECK(asked.loopSum == 5050);
  CHECK(byDefault.teamSize == 2);
  CHECK(parallelRegionsRunDirectly() == before);
}

TEST_CASE("at one thread a region runs on the calling thread with the same result", "[dynamics]") {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const long before = parallelRegionsRunDirectly();
  const RegionSeen seen = runRegion(0);
  omp_set_num_threads(saved);
  CHECK(seen.teamSize == 1);
  CHECK(seen.bodies == 1);
  CHECK(seen.loopSum == 5050);
  CHECK(parallelRegionsRunDirectly() == before + 1);
}

TEST_CASE("SerialOpenMP inside a parallel region leaves nested regions to the runtime", "[dynamics]") {
  // Run directly inside a team, a nested region's work-sharing would be split by the outer team's threads.
  std::vector<RegionSeen> seen(2);
  std::vector<long> direct(2, 0);
#pragma omp parallel num_threads(2)
  {
    const int me = omp_get_thread_num();
    const long before = parallelRegionsRunDirectly();
    const SerialOpenMP serial;
    seen[me] = runRegion(4);
    direct[me] = parallelRegionsRunDirectly() - before;
  }
  for (int t = 0; t < 2; ++t) {
    CHECK(seen[t].loopSum == 5050);
    CHECK(direct[t] == 0);
  }
}
