// Which side of a solid obstacle cloth ends a step on (collision/obstacle_side.h), and the two passes that use it:
// the proximity pass pushes cloth out of the obstacle's side, and the CCD passes count a pair with an obstacle only
// if it ends the step in or against it.
#include <catch2/catch.hpp>

#include "collision/broad_phase.h"
#include "collision/geometry.h"
#include "collision/contact_response.h"
#include "collision/obstacle_side.h"
#include "collision_fixtures.h"
#include "frame_stats.h"
#include "io/atomic_file.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

const double kThickness = 0.005, kDt = 0.01;

// A still 0.6 m box centred at the origin (top face at y = 0.3, +z side at z = 0.3, their edge along x) and a cloth
// triangle whose node 0 goes from `start` to `end` over the step; its other nodes are far from the box and still.
struct NodeByBox {
  Obstacle box;
  Mesh cloth;
  CollisionMesh w;
  CollisionState s;
  CollisionParams p;
  NodeByBox(const Vec3& start, const Vec3& end) : box(boxSpec(), "test") {
    cloth = makeTriangles({{start, Vec3(2, 0.8, 0.8), Vec3(2.1, 0.8, 0.9)}});
    ClothStep step;
    step.mesh = &cloth;
    for (Node& n : cloth.nodes) step.x0.push_back(n.x), n.v = Vec3::Zero(), n.mass = 0.001;
    cloth.nodes[0].x = end;
    cloth.nodes[0].v = (end - start) / kDt;
    const std::vector<ObstaclePose> poses = {poseAt(box, 0)};
    w = buildCollisionMesh({step}, poses);
    loadState(s, {step}, poses, poses, kDt);
    p.thickness = kThickness;
  }
  static ObstacleSpec boxSpec() {
    ObstacleSpec spec;
    spec.shape = ObstacleSpec::Shape::Box;
    spec.name = "box";
    spec.size = Vec3(0.6, 0.6, 0.6);
    return spec;
  }
  // The vertex-face pairs of node 0 with the box's faces.
  std::vector<Candidate> nodePairs() const {
    std::vector<Candidate> pairs;
    for (int f = 0; f < int(w.faces.size()); ++f)
      if (w.nodeCloth[w.faces[f][0]] < 0) pairs.push_back({false, 0, f});
    return pairs;
  }
  // Node 0's pair with the box face nearest to it at the end of the step.
  Candidate nearestPair() const {
    Candidate best;
    double bestDistance = 1e9;
    for (const Candidate& c : nodePairs()) {
      const Tri& f = w.faces[c.b];
      const double d = closestOnTriangle(s.x1[0], s.x1[f[0]], s.x1[f[1]], s.x1[f[2]]).distance;
      if (d < bestDistance) bestDistance = d, best = c;
    }
    return best;
  }
  double separation(const Candidate& c, const ContactGeometry& g) const {
    const std::array<int, 4> nodes = candidateNodes(w, c);
    double sum = 0;
    for (int i = 0; i < 4; ++i) sum += g.weights[i] * g.normal.dot(s.x1[nodes[i]]);
    return sum;
  }
};

}  // namespace

TEST_CASE("cloth that went round a box's edge is outside it, though behind the plane of the face it lay over",
          "[collision]") {
  // Node 0 starts 3 mm above the top face near its edge and ends 2 mm below the top face's plane but 3 mm out from
  // the side: outside, 3.6 mm from the box's edge. Oriented by its start side, its pair with the top face put it
  // inside (separation -3.6 mm), and the proximity pass pushed it back over the top by 8.6 mm.
  NodeByBox scene(Vec3(0, 0.303, 0.295), Vec3(0, 0.298, 0.303));
  bool sawTopFace = false;
  for (const Candidate& c : scene.nodePairs()) {
    const std::optional<ContactGeometry> g = obstacleSideContact(scene.w, scene.s, c, kThickness);
    if (!g) continue;
    // Every pair within the thickness says outside: its separation is the node's positive distance.
    CHECK(scene.separation(c, *g) == Approx(g->distance).epsilon(1e-9));
    CHECK(scene.separation(c, *g) > 0);
    const Tri& f = scene.w.faces[c.b];
    if (scene.s.x1[f[0]].y() == Approx(0.3) && scene.s.x1[f[1]].y() == Approx(0.3)) sawTopFace = true;
  }
  CHECK(sawTopFace);
  // The proximity pass then moves the node off the side by what it lacks there (2 mm; 2.1 mm in all, the top
  // face's pair pushing first off the edge), not round the edge and over the top.
  CollisionStepStats st;
  st.contacts.assign(1, 0);
  proximityPass(scene.w, scene.s, scene.nodePairs(), scene.p, st);
  const Vec3 end = scene.s.x1[0];
  CHECK((end - Vec3(0, 0.298, 0.303)).norm() < 0.0025);
  CHECK(end.y() < 0.3);
  CHECK(end.z() - 0.3 == Approx(kThickness).epsilon(1e-6));
}

TEST_CASE("cloth that ends inside a box is pushed out through the face nearest it", "[collision]") {
  // Node 0 crossed the top face and ends 2 mm inside: negative separation, the normal the face's outward one.
  NodeByBox scene(Vec3(0.1, 0.303, 0.1), Vec3(0.1, 0.298, 0.1));
  const Candidate pair = scene.nearestPair();
  const std::optional<ContactGeometry> g = obstacleSideContact(scene.w, scene.s, pair, kThickness);
  REQUIRE(g);
  CHECK(scene.separation(pair, *g) == Approx(-0.002).epsilon(1e-9));
  CHECK((g->normal - Vec3::UnitY()).norm() < 1e-9);
  CHECK_FALSE(endsClearOfObstacle(scene.w, scene.s, pair, ccdTolerance(scene.p)));
  // A pair far from the node is not asked: in front of the box, the node lies behind its back face's plane.
  for (const Candidate& c : scene.nodePairs()) {
    const Tri& f = scene.w.faces[c.b];
    if (scene.s.x1[f[0]].y() == Approx(-0.3) && scene.s.x1[f[1]].y() == Approx(-0.3))
      CHECK_FALSE(obstacleSideContact(scene.w, scene.s, c, kThickness));
  }
}

TEST_CASE("a straight path that cuts a box's corner is no collision when the step ends clear of the box",
          "[collision]") {
  // Node 0 goes from 2 mm above the top face to 2 mm out from the side; halfway it is 4 mm inside the box's edge.
  // Both ends are clear: only the straight path between them, not the cloth, went through the box.
  NodeByBox clear(Vec3(0, 0.302, 0.29), Vec3(0, 0.29, 0.302));
  const std::vector<Hit> hits = collisionsOf(clear.w, clear.s, clear.p);
  for (const Hit& h : hits) CHECK(candidateNodes(clear.w, h.candidate)[0] != 0);
  // Ending 2 mm inside instead, it collides.
  NodeByBox inside(Vec3(0, 0.302, 0.29), Vec3(0, 0.29, 0.298));
  bool collided = false;
  for (const Hit& h : collisionsOf(inside.w, inside.s, inside.p)) {
    if (!h.candidate.edgeEdge && h.candidate.a == 0) collided = true;
  }
  CHECK(collided);
}

TEST_CASE("a curtain that a box sweeps and turns through keeps its size", "[collision][regression]") {
  // A 10 cm box pushed through a hanging silk curtain while it turns about the world's z axis: it carries the
  // curtain sideways at ~1.2 m/s, 2.5 thicknesses a step. The cloth wrapped over its edges went round them during
  // the steps; pushed back to the side it started on and solved without the contacts its neighbours pulled it into,
  // the curtain's faces around the box stretched to 10-20x within six frames (edge p99 11, 300 J of elastic energy,
  // 3,900 nodes). Now: p99 1.14, 0.09 J, 380 nodes.
  using namespace adacloth::test;
  TempDir dir("swept-curtain");
  auto run = simulateShot(dir, "swept", R"({"name": "swept", "fps": 24, "frames": 16, "steps_per_frame": 4,
    "cloths": [{"name": "curtain", "mesh": {"grid": {"size": [1.2, 1.0], "cells": [24, 20]}},
                "transform": {"translate": [-0.6, 0.2, 0]}, "material": "silk", "remeshing": {"size": [0.01, 0.2]},
                "handles": [{"region": {"min": [-0.01, 0.99], "max": [1.21, 1.01]}}]}],
    "obstacles": [{"name": "box", "mesh": {"box": {"size": [0.1, 0.1, 0.1]}},
                   "transform": {"translate": [0.0, 0.6, -0.3]},
                   "motion": [{"time": 0.0, "translate": [0, 0, 0]},
                              {"time": 1.0, "translate": [0, 0, 0.8], "rotate_deg": [0, 0, 90]}]}]})");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  const std::vector<config::Json> stats = frameStats(dir / "out");
  REQUIRE(stats.size() == 17);
  for (const config::Json& frameStat : stats) {
    const config::Json& curtain = frameStat["cloths"][0];
    INFO("frame " << frameStat["frame"].get<int>() << ": edge p99 " << curtain["stretch_p99"].get<double>()
                  << ", elastic energy " << curtain["elastic_energy"].get<double>() << " J, "
                  << curtain["nodes"].get<int>() << " nodes");
    CHECK(curtain["stretch_p99"].get<double>() < 1.5);
    CHECK(curtain["elastic_energy"].get<double>() < 0.5);
    CHECK(curtain["nodes"].get<int>() < 1000);
    CHECK(curtain["max_penetration"].get<double>() < 0.001);
  }
}
