// The starting guess of the pcg solve.
#include <catch2/catch.hpp>

#include "dynamics/forces.h"
#include "dynamics/warm_start.h"
#include "assets/held_sheet.h"

using namespace adacloth;

TEST_CASE("the warm start guesses inertia, then the last dv, then its extrapolation", "[dynamics]") {
  assets::HeldSheet s = assets::makeHeldSheet(4);
  const size_t n = s.mesh.nodes.size();
  const double h = 0.01;
  std::vector<Vec3> external(n, Vec3::Zero());
  addGravity(s.mesh, Vec3(0, -9.81, 0), external);
  std::vector<Vec3> guess = warmStartGuess(s.mesh, s.state, external, h);
  for (size_t i = 0; i < n; ++i) CHECK((guess[i] - Vec3(0, -9.81 * h, 0)).norm() < 1e-12);
  std::vector<Vec3> first(n, Vec3(0, -0.1, 0)), second(n, Vec3(0, -0.15, 0));
  rememberDv(s.state, first);
  guess = warmStartGuess(s.mesh, s.state, external, h);
  CHECK(guess[3] == first[3]);
  rememberDv(s.state, second);
  guess = warmStartGuess(s.mesh, s.state, external, h);
  CHECK((guess[3] - Vec3(0, -0.2, 0)).norm() < 1e-12);
}

TEST_CASE("after a remesh, a new node takes the mean guess of its neighbours", "[dynamics]") {
  assets::HeldSheet s = assets::makeHeldSheet(4);
  const size_t n = s.mesh.nodes.size();
  std::vector<Vec3> dv(n);
  for (size_t i = 0; i < n; ++i) dv[i] = Vec3(double(i), 0, 0);
  rememberDv(s.state, dv);
  // Node 0 is "new": nothing maps to it; every other node keeps its index.
  std::vector<int> nodeMap(n);
  for (size_t k = 0; k < n; ++k) nodeMap[k] = k == 0 ? -1 : int(k);
  s.state.solver.remap(nodeMap, n);
  const std::vector<Vec3> guess = warmStartGuess(s.mesh, s.state, std::vector<Vec3>(n, Vec3::Zero()), 0.01);
  double mean = 0;
  int count = 0;
  for (int k = s.state.incidenceStart[0]; k < s.state.incidenceStart[1]; ++k)
    mean += double(s.state.incidenceOther[k]), ++count;
  REQUIRE(count > 0);
  CHECK(guess[0].x() == Approx(mean / count));
  CHECK(guess[5] == dv[5]);
}
