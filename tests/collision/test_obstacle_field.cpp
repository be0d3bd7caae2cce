// The obstacles' signed distance field (collision/obstacle_field.h): depthInside() against nearest().
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "collision/obstacle.h"
#include "collision/obstacle_field.h"
#include "collision_fixtures.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// What depthInside() stands for: minus the unbounded nearest distance where that is negative.
double depthByNearest(const ObstacleField& field, const Vec3& x) {
  const auto s = field.nearest(x, std::numeric_limits<double>::infinity());
  return s && s->distance < 0 ? -s->distance : 0.0;
}

// An obstacle read from OBJ text (the shape a user's file gives), written under `dir`.
Obstacle obstacleFromObj(const test::TempDir& dir, const std::string& name, const std::string& text) {
  test::writeText(dir / (name + ".obj"), text);
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::File;
  spec.name = name;
  spec.file = dir / (name + ".obj");
  return Obstacle(spec, "test");
}

// Points on a lattice through and around [-1, 1]^3 (m), off the lattice of the obstacles' corners.
std::vector<Vec3> probePoints() {
  std::vector<Vec3> points;
  for (int i = 0; i < 13; ++i)
    for (int j = 0; j < 13; ++j)
      for (int k = 0; k < 13; ++k) points.emplace_back(-1.3 + 0.2137 * i, -1.2 + 0.2071 * j, -1.25 + 0.2113 * k);
  return points;
}

// How many probe points depthInside() finds inside; each answer equal to nearest()'s.
int pointsInside(const ObstacleField& field) {
  int inside = 0;
  for (const Vec3& x : probePoints()) {
    const double depth = field.depthInside(x);
    CHECK(depth == depthByNearest(field, x));
    inside += depth > 0;
  }
  return inside;
}

}  // namespace

TEST_CASE("the depth inside solid obstacles and below the ground is nearest()'s, in and out of their boxes",
          "[collision]") {
  ObstacleSpec box;
  box.shape = ObstacleSpec::Shape::Box;
  box.name = "box";
  box.size = Vec3(0.8, 0.5, 0.6);
  box.transform.translate = Vec3(0.3, 0.5, 0.1);
  const std::vector<Obstacle> obstacles = {Obstacle(box, "test"), Obstacle(sphereSpec(0.4, Vec3(-0.5, 0.6, 0)), "test"),
                                           Obstacle(groundSpec(), "test")};
  const ObstacleField field(posesAt(obstacles, 0.0));
  const int inside = pointsInside(field);
  CHECK(inside > 100);  // inside the box, the ball, and below the ground at y = 0
  CHECK(field.depthInside(Vec3(0.3, 0.5, 0.1)) == Approx(0.25));  // the box's centre: its half height
  CHECK(field.depthInside(Vec3(2, 0.5, 2)) == 0.0);                 // above the ground, outside both boxes
  CHECK(field.depthInside(Vec3(2, -0.5, 2)) == 0.5);                // below the ground, outside both boxes
}

TEST_CASE("the depth behind an open or inward-facing obstacle is nearest()'s outside its box too", "[collision]") {
  // Contact takes an obstacle's inside from its faces' orientation (collision/solid_check.h): behind a single-sided
  // plate, or outside a box whose faces point in, counts as inside. Such meshes bound no solid, so a point outside
  // their box may be inside them: depthInside() must search them.
  const test::TempDir dir("obstacle_field");
  const Obstacle plate = obstacleFromObj(dir, "plate", "v -0.5 0 -0.5\nv 0.5 0 -0.5\nv 0.5 0 0.5\nv -0.5 0 0.5\n"
                                                       "f 1 3 2\nf 1 4 3\n");
  const std::vector<Obstacle> plates = {plate};
  const ObstacleField plateField(posesAt(plates, 0.0));
  CHECK(plateField.depthInside(Vec3(0.1, -0.2, 0.1)) == Approx(0.2));  // below the plate (its faces face up)
  CHECK(plateField.depthInside(Vec3(0.1, 0.2, 0.1)) == 0.0);
  CHECK(pointsInside(plateField) > 100);

  std::string inward = "v -0.2 -0.2 -0.2\nv 0.2 -0.2 -0.2\nv 0.2 0.2 -0.2\nv -0.2 0.2 -0.2\n"
                       "v -0.2 -0.2 0.2\nv 0.2 -0.2 0.2\nv 0.2 0.2 0.2\nv -0.2 0.2 0.2\n";
  // The faces of a cube, clockwise seen from outside.
  for (const char* face : {"1 2 3", "1 3 4", "5 7 6", "5 8 7", "1 6 2", "1 5 6", "2 7 3", "2 6 7", "3 8 4", "3 7 8",
                           "4 5 1", "4 8 5"})
    inward += std::string("f ") + face + "\n";
  const std::vector<Obstacle> cubes = {obstacleFromObj(dir, "inward", inward)};
  const ObstacleField cubeField(posesAt(cubes, 0.0));
  CHECK(cubeField.depthInside(Vec3(0.9, 0.1, 0.05)) == Approx(0.7));  // outside the cube, 0.7 m from its side
  CHECK(cubeField.depthInside(Vec3(0.05, 0.1, 0.0)) == 0.0);          // inside it
  CHECK(pointsInside(cubeField) > 1000);
}
