// Whether an obstacle's mesh bounds a solid (collision/solid_check.h).
#include <catch2/catch.hpp>

#include "collision/obstacle.h"
#include "collision/solid_check.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

Obstacle boxOfSize(const Vec3& size) {
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::Box;
  spec.name = "box";
  spec.size = size;
  return Obstacle(spec, "test");
}

}  // namespace

TEST_CASE("a generated box or ball is closed and bounds a positive volume", "[collision]") {
  const Obstacle boxObstacle = boxOfSize(Vec3(0.6, 0.4, 0.2));
  const SolidCheck boxCheck = checkSolid(boxObstacle.positionsAt(0), boxObstacle.faces());
  CHECK(boxCheck.openEdges == 0);
  CHECK(boxCheck.volume == Approx(0.6 * 0.4 * 0.2).epsilon(1e-12));
  const Obstacle ball(sphereSpec(0.1, Vec3(1, 2, 3)), "test");
  const SolidCheck ballCheck = checkSolid(ball.positionsAt(0), ball.faces());
  CHECK(ballCheck.openEdges == 0);
  CHECK(ballCheck.volume > 0.9 * 4.0 / 3 * 3.14159265 * 1e-3);
}

TEST_CASE("a flipped box bounds a negative volume, and a plate is open", "[collision]") {
  const Obstacle box = boxOfSize(Vec3(1, 1, 1));
  std::vector<Tri> flipped = box.faces();
  for (Tri& f : flipped) std::swap(f[1], f[2]);
  const SolidCheck inward = checkSolid(box.positionsAt(0), flipped);
  CHECK(inward.openEdges == 0);
  CHECK(inward.volume == Approx(-1.0).epsilon(1e-12));
  // A square of two triangles: its four sides have one face each.
  const std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 0, 1), Vec3(0, 0, 1)};
  CHECK(checkSolid(x, {{0, 2, 1}, {0, 3, 2}}).openEdges == 4);
  // Three faces on one edge are not a solid's either.
  const std::vector<Vec3> fin = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1)};
  CHECK(checkSolid(fin, {{0, 1, 2}, {0, 1, 3}, {0, 1, 4}}).openEdges == 7);
}
