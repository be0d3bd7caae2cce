// The ground pass (ground_contact.h) on single nodes: lift to the thickness, inelastic normal velocity relative to the
// plane, Coulomb friction, pinned and far nodes untouched, contacts counted per cloth.
#include <catch2/catch.hpp>

#include "collision/collision_mesh.h"
#include "collision/contact_response.h"
#include "collision/ground_contact.h"
#include "collision_fixtures.h"
#include "frame_stats.h"
#include "io/obj.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// A plane y = height with normal +Y.
ObstaclePose plane(double height) {
  ObstaclePose pose;
  pose.planePoint = Vec3(0, height, 0);
  pose.planeNormal = Vec3::UnitY();
  return pose;
}

struct OneCell {
  Mesh mesh = makeFlatGrid(1, 1.0, 0.0, false);  // nodes 0..3, all at y = 0
  CollisionMesh w;
  CollisionState s;
  OneCell() {
    w = buildCollisionMesh({stepOf(mesh, Vec3::Zero(), 0.01)}, {});
    s.dt = 0.01;
    for (const Node& n : mesh.nodes) {
      s.x0.push_back(n.x);
      s.x1.push_back(n.x);
      s.v.push_back(Vec3::Zero());
      s.invMass.push_back(1.0);
    }
  }
};

}  // namespace

TEST_CASE("the ground pass lifts a node to the thickness and stops it going down, with friction", "[collision]") {
  OneCell c;
  CollisionParams p;
  p.thickness = 0.005;
  p.obstacleFriction = 0.3;
  c.s.x1[0] = Vec3(0.2, -0.002, 0);   // 2 mm below the ground
  c.s.v[0] = Vec3(1.0, -0.5, 0);      // sliding fast and going down
  c.s.x1[1] = Vec3(0.4, 0.003, 0);    // within the thickness, at rest
  c.s.v[1] = Vec3(0.01, 0, 0);        // sliding slowly
  c.s.x1[2] = Vec3(0.6, 0.0051, 0);   // just beyond the thickness
  c.s.v[2] = Vec3(0, -1, 0);
  c.s.x1[3] = Vec3(0.8, -0.01, 0);    // below, but held by a handle
  c.s.invMass[3] = 0;
  const CollisionState before = c.s;
  std::vector<int> contacts(1, 0);
  CHECK(groundPass(c.w, c.s, plane(0), plane(0), p, &contacts) == 2);  // the lifted nodes

  CHECK(contacts[0] == 2);
  // Node 0: lifted by 7 mm, normal velocity removed, tangential reduced by mu (0.5 + 0.007 / dt) = 0.36 m/s.
  CHECK(c.s.x1[0].y() == Approx(p.thickness));
  CHECK(c.s.x1[0].x() == before.x1[0].x());
  CHECK(c.s.v[0].y() == Approx(0).margin(1e-15));
  CHECK(c.s.v[0].x() == Approx(1.0 - 0.3 * (0.5 + 0.007 / 0.01)));
  // Node 1: lifted by 2 mm; friction 0.3 * 0.2 m/s exceeds its sliding speed, so it stops.
  CHECK(c.s.x1[1].y() == Approx(p.thickness));
  CHECK(c.s.v[1].norm() == Approx(0).margin(1e-15));
  // Nodes 2 (far enough) and 3 (pinned) are left alone.
  for (int i : {2, 3}) {
    CHECK(c.s.x1[i] == before.x1[i]);
    CHECK(c.s.v[i] == before.v[i]);
  }
  // x0 is never touched.
  CHECK(c.s.x0 == before.x0);
}

TEST_CASE("the ground pass takes the plane's own speed and counts nothing without a contact list", "[collision]") {
  OneCell c;
  CollisionParams p;
  p.thickness = 0.005;
  p.obstacleFriction = 0;
  // A ground rising by 1 cm over the step (1 m/s), a node at rest on its end position.
  c.s.x1[0] = Vec3(0.2, 0.01, 0);
  groundPass(c.w, c.s, plane(0), plane(0.01), p, nullptr);
  CHECK(c.s.x1[0].y() == Approx(0.01 + p.thickness));
  CHECK(c.s.v[0].y() == Approx(1.0));  // no longer approaching the rising plane
  // A node moving up faster than the plane keeps its velocity.
  OneCell d;
  d.s.x1[0] = Vec3(0.2, 0.01, 0);
  d.s.v[0] = Vec3(0, 2.0, 0);
  groundPass(d.w, d.s, plane(0), plane(0.01), p, nullptr);
  CHECK(d.s.x1[0].y() == Approx(0.01 + p.thickness));
  CHECK(d.s.v[0].y() == 2.0);
}

TEST_CASE("the ground pass leaves obstacle nodes alone", "[collision]") {
  Mesh cloth = makeFlatGrid(1, 1.0, 0.0, false);
  cloth.computeMasses(0.1);
  const Obstacle ball(sphereSpec(0.1, Vec3(0, 0.05, 0), 1), "test");  // reaches 5 cm below the ground
  const std::vector<ObstaclePose> obstacles = {poseAt(ball, 0)};
  const std::vector<ClothStep> cloths = {stepOf(cloth, Vec3::Zero(), 0.01)};
  const CollisionMesh w = buildCollisionMesh(cloths, obstacles);
  CollisionState s;
  loadState(s, cloths, obstacles, obstacles, 0.01);
  for (size_t i = 4; i < s.invMass.size(); ++i) s.invMass[i] = 1;  // even if they had a mass
  const CollisionState before = s;
  std::vector<int> contacts(1, 0);
  CollisionParams p;
  groundPass(w, s, plane(0), plane(0), p, &contacts);
  CHECK(contacts[0] == 4);  // the cloth lies on the ground
  for (size_t i = 0; i < 4; ++i) CHECK(s.x1[i].y() == Approx(p.thickness));
  for (size_t i = 4; i < s.x1.size(); ++i) {
    CHECK(s.x1[i] == before.x1[i]);
    CHECK(s.v[i] == before.v[i]);
  }
}

TEST_CASE("the ground pass marks the nodes resting on it and a push between cloths does not move them into it",
          "[collision]") {
  OneCell c;
  CollisionParams p;
  p.thickness = 0.005;
  c.s.support.assign(4, Vec3::Zero());
  c.s.x1[0] = Vec3(0.0, 0.004, 0);    // within the thickness: lifted
  c.s.x1[1] = Vec3(1.0, 0.00504, 0);  // at the thickness, by rounding a little beyond: rests on the ground
  c.s.x1[2] = Vec3(0.0, 0.004, 1.0);
  c.s.x1[3] = Vec3(1.0, 0.006, 1.0);  // above the band
  groundPass(c.w, c.s, plane(0), plane(0), p, nullptr);
  for (int i : {0, 1, 2}) CHECK(c.s.support[i] == Vec3::UnitY());
  CHECK(c.s.support[3] == Vec3::Zero());

  // A vertex of another layer 2 mm above the face of nodes 0, 1, 2 (as a pair of two cloths): pushed up to the
  // thickness by itself, the face's nodes (on the ground) left where they are. Without the support, half each.
  for (const bool supported : {true, false}) {
    CollisionState s = c.s;
    s.x1[3] = Vec3(0.25, 0.007, 0.25), s.v[3] = Vec3(0, -0.2, 0);
    if (!supported) s.support.assign(4, Vec3::Zero());
    ContactGeometry g;
    g.weights = {1.0, -0.5, -0.25, -0.25};
    g.normal = Vec3::UnitY();
    g.distance = 0.002;
    REQUIRE(separate(s, {3, 0, 1, 2}, g, p.thickness, 0.0));
    const double faceY = 0.5 * s.x1[0].y() + 0.25 * s.x1[1].y() + 0.25 * s.x1[2].y();
    CHECK(s.x1[3].y() - faceY == Approx(p.thickness));
    if (supported) {
      for (int i : {0, 1, 2}) CHECK(s.x1[i] == c.s.x1[i]);
      CHECK(s.v[3].y() == Approx(0).margin(1e-15));
    } else {
      CHECK(s.x1[0].y() < c.s.x1[0].y());
    }
  }
}

TEST_CASE("a sheet lying on a sheet on the floor rests a thickness above it", "[collision][regression]") {
  // Before the lower sheet's nodes were held by the floor against pushes between the sheets, each push moved it half
  // into the floor, the last ground lift put it back, and the upper sheet sank to 3 mm of the 5 mm thickness above it
  // (lowest node 2.9 mm above the lower sheet at frames 6, 12 and 24), where it stuck when the floor tilted.
  using namespace adacloth::test;
  TempDir dir("layers");
  auto run = simulateShot(dir, "layers", R"({"name": "layers", "fps": 24, "frames": 12,
    "cloths": [{"name": "lower", "mesh": {"grid": {"size": [1.0, 1.0], "cells": [30, 30]}},
                "transform": {"rotate_deg": [-90, 0, 0], "translate": [-0.5, 0.005, 0.5]}, "material": "cotton"},
               {"name": "upper", "mesh": {"grid": {"size": [0.4, 0.4], "cells": [12, 12]}},
                "transform": {"rotate_deg": [-90, 13, 0], "translate": [-0.2, 0.0105, 0.2]}, "material": "cotton"}],
    "obstacles": [{"name": "floor", "mesh": {"ground": {}}}]})");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  const double thickness = 0.005;
  for (int frame : {6, 12}) {
    char lower[64], upper[64];
    std::snprintf(lower, sizeof lower, "lower_%05d.obj", frame);
    std::snprintf(upper, sizeof upper, "upper_%05d.obj", frame);
    double lowerTop = -1, upperBottom = 1;
    for (const Node& n : readObj(dir / "out" / "frames" / lower).nodes) lowerTop = std::max(lowerTop, n.x.y());
    for (const Node& n : readObj(dir / "out" / "frames" / upper).nodes) upperBottom = std::min(upperBottom, n.x.y());
    INFO("frame " << frame << ": lower sheet's highest node " << lowerTop << " m, upper's lowest " << upperBottom);
    CHECK(lowerTop == Approx(thickness).margin(1e-4));
    CHECK(upperBottom - lowerTop > 0.95 * thickness);
  }
}
