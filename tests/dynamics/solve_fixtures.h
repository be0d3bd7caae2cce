#pragma once
// What the linear-solve tests share: a bent, moving held sheet and vector comparisons.
#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>

#include "assets/held_sheet.h"
#include "dynamics/step.h"

namespace adacloth::test {

// The held sheet after six direct-solve steps of 1/96 s, so that it is bent and moving.
inline assets::HeldSheet movingSheet(int cells) {
  assets::HeldSheet s = assets::makeHeldSheet(cells);
  StepSettings settings;
  settings.solver = StepSolver::Direct;
  for (int k = 0; k < 6; ++k) stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96);
  return s;
}

inline double maxDifference(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

inline std::vector<Vec3> positionsOf(const Mesh& mesh) {
  std::vector<Vec3> x;
  for (const Node& n : mesh.nodes) x.push_back(n.x);
  return x;
}

// The runs' positions, bit for bit (a Catch2 REQUIRE per node).
inline void requireSameBytes(const std::vector<std::vector<Vec3>>& runs) {
  REQUIRE(runs.size() == 2);
  REQUIRE(runs[0].size() == runs[1].size());
  for (size_t i = 0; i < runs[0].size(); ++i) REQUIRE(runs[0][i] == runs[1][i]);
}

inline double maxNorm(const std::vector<Vec3>& a) {
  double d = 0;
  for (const Vec3& v : a) d = std::max(d, v.norm());
  return d;
}

}  // namespace adacloth::test
