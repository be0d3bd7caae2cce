// The scene's pose cache: the same poses as evaluating the obstacles, computed once per time asked for.
#include <catch2/catch.hpp>

#include "app/obstacle_poses.h"

using namespace adacloth;

namespace {

std::vector<Obstacle> movingSphere() {
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::Sphere;
  spec.name = "ball";
  spec.radius = 0.2;
  spec.subdivisions = 1;
  spec.motion = {{0.0, Vec3::Zero(), Vec3::Zero(), 1.0}, {1.0, Vec3(1, 0, 0), Vec3(0, 90, 0), 1.0}};
  std::vector<Obstacle> obstacles;
  obstacles.emplace_back(spec, "test.json");
  return obstacles;
}

}  // namespace

TEST_CASE("obstacle poses are the obstacles' positions at the time asked for", "[app]") {
  const std::vector<Obstacle> obstacles = movingSphere();
  ObstaclePoses poses;
  const double times[] = {0.25, 0.5, 0.25, 0.75, 0.5, 0.5};
  for (double t : times) {
    const std::vector<ObstaclePose>& got = poses.at(obstacles, t);
    REQUIRE(got.size() == 1);
    CHECK(got[0].obstacle == &obstacles[0]);
    CHECK(got[0].x == obstacles[0].positionsAt(t));
  }
}

TEST_CASE("obstacle poses keep the last two times", "[app]") {
  const std::vector<Obstacle> obstacles = movingSphere();
  ObstaclePoses poses;
  const std::vector<ObstaclePose>& a = poses.at(obstacles, 0.1);
  const std::vector<ObstaclePose>& b = poses.at(obstacles, 0.2);
  // A step's start and end: both stay valid, and asking again returns the same storage.
  CHECK(&poses.at(obstacles, 0.1) == &a);
  CHECK(&poses.at(obstacles, 0.2) == &b);
  CHECK(a[0].x == obstacles[0].positionsAt(0.1));
  // A third time replaces the least recently used (0.1), never the one just asked for.
  poses.at(obstacles, 0.2);
  const std::vector<ObstaclePose>& c = poses.at(obstacles, 0.3);
  CHECK(&c == &a);
  CHECK(&poses.at(obstacles, 0.2) == &b);
  CHECK(b[0].x == obstacles[0].positionsAt(0.2));
}

TEST_CASE("obstacle poses belong to one obstacle list", "[app]") {
  const std::vector<Obstacle> a = movingSphere(), b = movingSphere();
  ObstaclePoses poses;
  poses.at(a, 0.1);
  CHECK_THROWS_AS(poses.at(b, 0.1), std::logic_error);
}
