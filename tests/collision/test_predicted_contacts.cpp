// The obstacle contacts the implicit step is told about (collision/predicted_contacts.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "collision/predicted_contacts.h"
#include "collision_fixtures.h"
#include "frame_stats.h"
#include "io/atomic_file.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// A 0.6 m box centred at the origin: its top face at y = 0.3, its +z side at z = 0.3, their edge along x. With
// `moving`, it has keys that carry it 1 m along x over 10 s (at time 0 it is where the still one is).
std::vector<Obstacle> boxAtOrigin(bool moving = false) {
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::Box;
  spec.name = "box";
  spec.size = Vec3(0.6, 0.6, 0.6);
  if (moving) {
    spec.motion.resize(2);
    spec.motion[1].time = 10;
    spec.motion[1].translate = Vec3(1, 0, 0);
  }
  return {Obstacle(spec, "test")};
}

// A 0.6 m wide slab centred at the origin, `height` (m) from its bottom face to its top face.
std::vector<Obstacle> slabAtOrigin(double height) {
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::Box;
  spec.name = "slab";
  spec.size = Vec3(0.6, height, 0.6);
  return {Obstacle(spec, "test")};
}

// A cloth triangle at rest whose nodes 0 and 1 are a and b; node 2 lies far from the box, and so do its edges.
Mesh edgeAtRest(const Vec3& a, const Vec3& b) {
  Mesh cloth = makeTriangles({{a, b, Vec3(3, 0.8, 0.8)}});
  for (Node& n : cloth.nodes) n.v = Vec3::Zero();
  return cloth;
}

// The contacts that move `node` in `contacts`: its own, and those of its edges' points.
std::vector<ObstacleContact> contactsOf(const std::vector<ObstacleContact>& contacts, int node) {
  std::vector<ObstacleContact> found;
  for (const ObstacleContact& c : contacts)
    if (c.node == node || (c.holdsEdgePoint() && c.other == node)) found.push_back(c);
  return found;
}

// The weight of `node` in contact c.
double weightOf(const ObstacleContact& c, int node) { return c.node == node ? c.weight : c.otherWeight; }

}  // namespace

TEST_CASE("an edge across a box's edge gets what its nodes' contacts leave missing", "[collision]") {
  const std::vector<Obstacle> box = boxAtOrigin();
  const ObstacleField field(posesAt(box, 0));
  const double thickness = 0.005, h = 1.0 / 96;
  // Node 0 lies 7 mm above the top face, node 1 7 mm out from the side (beyond the 1.2 thicknesses of a resting
  // contact); the edge between them passes through the box's edge at its midpoint.
  const Mesh cloth = edgeAtRest(Vec3(0, 0.307, 0.293), Vec3(0, 0.293, 0.307));

  const std::vector<ObstacleContact> contacts = predictObstacleContacts(cloth, field, thickness, h);
  const std::vector<ObstacleContact> at0 = contactsOf(contacts, 0), at1 = contactsOf(contacts, 1);
  REQUIRE(contacts.size() == 1);  // no node contact (7 mm off), one contact of the edge's midpoint
  const ObstacleContact& c = contacts[0];
  REQUIRE(c.holdsEdgePoint());
  CHECK(contactsOf(contacts, 2).empty());
  CHECK(((c.node == 0 && c.other == 1) || (c.node == 1 && c.other == 0)));
  CHECK(c.edge >= 0);
  CHECK(c.weight == Approx(0.5).epsilon(1e-9));
  CHECK(c.otherWeight == Approx(0.5).epsilon(1e-9));
  const Vec3 outward = Vec3(0, 1, 1).normalized();  // the box edge's pseudo-normal
  CHECK((c.normal - outward).norm() < 1e-9);
  // The midpoint lies on the box: the edge's clearance, 0.75 of the thickness, is missing there.
  CHECK(c.depth == Approx(0.75 * thickness).epsilon(1e-9));
  // Moving both nodes by it carries the edge's midpoint out to that clearance.
  const Vec3 mid = 0.5 * (cloth.nodes[0].x + cloth.nodes[1].x) + c.depth * c.normal;
  CHECK(field.nearest(mid, 1.0)->distance == Approx(0.75 * thickness).epsilon(1e-9));

  // Without edge contacts, none at all: the nodes are out of reach.
  CHECK(predictObstacleContacts(cloth, field, thickness, h, false).empty());
}

TEST_CASE("an edge's contact is shared by its weights where it passes the obstacle's edge off centre",
          "[collision]") {
  const std::vector<Obstacle> box = boxAtOrigin();
  const ObstacleField field(posesAt(box, 0));
  const double thickness = 0.005, h = 1.0 / 96;
  // Node 0 lies 4.5 mm out from the side, 2 mm below the top (a contact of its own, 0.5 mm deep); node 1 4 mm above
  // the top, 3 mm in (1 mm deep). The edge between them passes 1.25 mm outside the box's edge, near its midpoint, and
  // its nodes' contacts carry that point out by 0.75 mm only.
  const Mesh cloth = edgeAtRest(Vec3(0, 0.298, 0.3045), Vec3(0, 0.304, 0.297));
  const std::vector<ObstacleContact> contacts = predictObstacleContacts(cloth, field, thickness, h);
  const std::vector<ObstacleContact> at0 = contactsOf(contacts, 0), at1 = contactsOf(contacts, 1);
  REQUIRE(at0.size() == 2);  // its own contact first, then the edge's
  REQUIRE(at1.size() == 2);
  CHECK(contactsOf(contacts, 2).empty());
  CHECK((at0[0].normal - Vec3::UnitZ()).norm() < 1e-9);
  CHECK(at0[0].depth == Approx(0.0005).epsilon(1e-6));
  CHECK((at1[0].normal - Vec3::UnitY()).norm() < 1e-9);
  CHECK(at1[0].depth == Approx(0.001).epsilon(1e-6));
  // The edge's point nearest the box edge, and what is missing there once the nodes' own contacts are made.
  const Vec3 a = cloth.nodes[0].x, b = cloth.nodes[1].x, corner(0, 0.3, 0.3);
  const double s = (corner - a).dot(b - a) / (b - a).squaredNorm();
  const Vec3 nearest = a + s * (b - a);
  const double missing = (0.75 * thickness - (nearest - corner).norm()) - (1 - s) * 0.0005 - s * 0.001;
  REQUIRE(missing > 0.001);
  // One contact of that point, shared by the nodes' weights, along the direction from the box edge to it.
  const ObstacleContact& point = at0[1];
  REQUIRE(point.holdsEdgePoint());
  CHECK(point.edge == at1[1].edge);
  CHECK(point.depth == Approx(missing).epsilon(1e-6));
  CHECK(weightOf(point, 0) == Approx(1 - s).epsilon(1e-6));
  CHECK(weightOf(point, 1) == Approx(s).epsilon(1e-6));
  const Vec3 direction = (nearest - corner).normalized();
  CHECK((point.normal - direction).norm() < 1e-6);
}

TEST_CASE("edges lying on a flat obstacle get no contact of their own", "[collision]") {
  // A grid 3 mm above the box's top face: every node has a contact 2 mm deep, and every edge's points are as deep as
  // its nodes make up for, so the edges add nothing (the sheet resting on a table is held by its nodes alone).
  const std::vector<Obstacle> box = boxAtOrigin();
  const ObstacleField field(posesAt(box, 0));
  Mesh cloth = makeFlatGrid(8, 0.4, 0.303, false);
  for (Node& n : cloth.nodes) {
    n.x += Vec3(-0.2, 0, 0.2);  // over the middle of the top face
    n.v = Vec3::Zero();
  }
  const std::vector<ObstacleContact> contacts = predictObstacleContacts(cloth, field, 0.005, 1.0 / 96);
  REQUIRE(contacts.size() == cloth.nodes.size());
  for (const ObstacleContact& c : contacts) CHECK(c.depth == Approx(0.002).epsilon(1e-9));
}

TEST_CASE("a node resting just outside the thickness of a still obstacle gets a contact of depth 0",
          "[collision]") {
  const double thickness = 0.005, h = 1.0 / 96;
  // Three far-apart nodes over the middle of the top face: 5.5 mm up sliding along it at 5 cm/s (with a normal
  // speed of rounding size, as the contact pass leaves it), 5.5 mm up moving away at 1 cm/s (2 % of the thickness
  // in the step), and 6.5 mm up at rest (beyond 1.2 thicknesses).
  Mesh cloth = makeTriangles({{Vec3(-0.2, 0.3055, 0), Vec3(0, 0.3055, 0.2), Vec3(0.2, 0.3065, 0)}});
  for (Node& n : cloth.nodes) n.v = Vec3::Zero();
  cloth.nodes[0].v = Vec3(0.05, 1e-15, 0);
  cloth.nodes[1].v = Vec3(0, 0.01, 0);
  for (Node& n : cloth.nodes) n.x -= h * n.v;  // so that the end positions x + h v are where the comment says
  const std::vector<Obstacle> still = boxAtOrigin();
  const std::vector<ObstacleContact> contacts = predictObstacleContacts(cloth, ObstacleField(posesAt(still, 0)),
                                                                        thickness, h);
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].node == 0);
  CHECK(contacts[0].depth == 0);
  CHECK((contacts[0].normal - Vec3::UnitY()).norm() < 1e-12);
  // On an obstacle that moves, none: held for a step, cloth on a body that moves away or presses harder under it
  // is held where it cannot stay.
  const std::vector<Obstacle> moving = boxAtOrigin(true);
  CHECK(predictObstacleContacts(cloth, ObstacleField(posesAt(moving, 0)), thickness, h).empty());
}

TEST_CASE("contacts carry the velocity of the obstacle's surface under them", "[collision]") {
  // The moving box goes 1 m along x in 10 s: 0.1 m/s. A node 4 mm over its top face at time 1.
  const double thickness = 0.005, h = 0.01;
  const Mesh cloth = makeTriangles({{Vec3(-0.2, 0.304, 0), Vec3(0, 0.4, 0.2), Vec3(0.2, 0.4, 0)}});
  const std::vector<Obstacle> moving = boxAtOrigin(true);
  ObstacleField field(posesAt(moving, 1.0));
  std::vector<ObstacleContact> contacts = predictObstacleContacts(cloth, field, thickness, h, false);
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].surfaceVelocity == Vec3::Zero());  // no motion given: at rest
  REQUIRE(field.setMotion(posesAt(moving, 1.0 - h), h));
  contacts = predictObstacleContacts(cloth, field, thickness, h, false);
  REQUIRE(contacts.size() == 1);
  CHECK((contacts[0].surfaceVelocity - Vec3(0.1, 0, 0)).norm() < 1e-9);
  // Moving the field on puts the surfaces at rest until their motion is given again; poses of other obstacles are
  // refused.
  REQUIRE(field.moveTo(posesAt(moving, 1.0)));
  CHECK(predictObstacleContacts(cloth, field, thickness, h, false)[0].surfaceVelocity == Vec3::Zero());
  const std::vector<Obstacle> other = boxAtOrigin(true);
  CHECK_FALSE(field.setMotion(posesAt(other, 1.0 - h), h));
}

TEST_CASE("a sheet dropped on a box holds no more energy than it started with and keeps its size",
          "[collision][regression]") {
  // conf/sheet_on_sphere.json with a box for the ball, adaptive: the sheet drapes over the box's four top edges.
  // Before the solve knew the edges' contacts, its small faces at the box's edges were pulled through them every
  // step and pushed out again, and it ended with 4x the energy it started with (elastic, at rest) and edges at 3.4x
  // their rest length.
  using namespace adacloth::test;
  TempDir dir("box-drape");
  std::string shot = readFile(sourceDir() / "conf" / "sheet_on_sphere.json");
  auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = shot.find(from);
    REQUIRE(at != std::string::npos);
    shot.replace(at, from.size(), to);
  };
  replace("\"camera\": \"../cameras/sheet_on_sphere.json\",", "");
  replace("\"material\": \"cotton\"", "\"material\": \"cotton\", \"remeshing\": true");
  replace("{ \"sphere\": { \"radius\": 0.3, \"subdivisions\": 3 } }", "{ \"box\": { \"size\": [0.6, 0.6, 0.6] } }");
  replace("\"translate\": [0.0, 0.5, 0.0]", "\"translate\": [0.0, 0.3, 0.0]");
  writeText(dir / "box.json", shot);
  const int frames = 40;
  auto run = runAdacloth("simulate " + (dir / "box.json").string() + " -o " + (dir / "out").string() +
                         " --frames " + std::to_string(frames) + " --quiet --threads 1");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  const std::vector<config::Json> stats = frameStats(dir / "out");
  REQUIRE(stats.size() == size_t(frames + 1));
  const double start = totalEnergy(stats[0]["cloths"][0]);
  for (const config::Json& frame : stats) {
    const config::Json& sheet = frame["cloths"][0];
    const double total = totalEnergy(sheet);
    INFO("frame " << frame["frame"].get<int>() << ": total energy " << total << " J, start " << start
                  << " J, largest edge stretch " << sheet["stretch_max"].get<double>());
    CHECK(total <= 1.02 * start);
    CHECK(sheet["stretch_max"].get<double>() < 1.5);
    CHECK(sheet["intersections"].get<int>() == 0);
  }
}

TEST_CASE("a sheet dropped on its edge onto the floor stands on it, neither crushed nor bouncing",
          "[collision][regression]") {
  // A vertical 0.6 m cotton sheet falls 5 cm onto a ground plane, edge first. The contact pass leaves the bottom row
  // resting exactly a thickness above the floor; when the next step's solve did not know those nodes rest there, the
  // rows above fell through the solve onto them: the bottom row of edges was crushed to a fifth of its length
  // (elastic energy 5 J from a fall of 0.02 J), and the sheet sprang back off the floor above where it had started.
  using namespace adacloth::test;
  TempDir dir("edge-drop");
  auto run = simulateShot(dir, "drop", R"({"name": "drop", "fps": 24, "frames": 24, "steps_per_frame": 4,
    "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [0.6, 0.6], "cells": [30, 30]}},
                "transform": {"translate": [-0.3, 0.05, 0.0]}, "material": "cotton"}],
    "obstacles": [{"name": "floor", "mesh": {"ground": {}}}]})");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  const std::vector<config::Json> stats = frameStats(dir / "out");
  REQUIRE(stats.size() == 25);
  const double startHeight = stats[0]["cloths"][0]["potential_energy"].get<double>();
  for (const config::Json& frameStat : stats) {
    const config::Json& sheet = frameStat["cloths"][0];
    const int frame = frameStat["frame"].get<int>();
    const double potential = sheet["potential_energy"].get<double>();
    INFO("frame " << frame << ": shortest edge " << sheet["min_edge"].get<double>() << " m, potential energy "
                  << potential << " J (start " << startHeight << " J)");
    CHECK(potential <= startHeight);
    // The impact itself (frame 3) compresses the bottom row; from the next frame on it stands.
    if (frame >= 4) CHECK(sheet["min_edge"].get<double>() >= 0.01);
  }
}

TEST_CASE("a node the solve moved into an obstacle gets a contact measured from its unconstrained end",
          "[collision]") {
  const std::vector<Obstacle> box = boxAtOrigin();
  const ObstacleField field(posesAt(box, 0));
  const double thickness = 0.005, h = 0.01;
  // Node 0 falls at 0.25 m/s from 10 mm above the top face: its free end lies 7.5 mm (1.5 thicknesses) above it, so
  // no contact is predicted. Node 1 ends where it would have. Say the solve (its neighbours) pulled node 0 to 2.5 mm
  // inside the box: the contact it misses asks for the whole thickness from there, i.e. -2.5 mm from its free end.
  Mesh cloth = edgeAtRest(Vec3(0, 0.310, 0.1), Vec3(0.05, 0.5, 0.1));
  cloth.nodes[0].v = Vec3(0, -0.25, 0);
  FreeEndDistances measured;
  const std::vector<ObstacleContact> predicted = predictObstacleContacts(cloth, field, thickness, h, true, &measured);
  CHECK(predicted.empty());
  std::vector<Vec3> solved;
  for (const Node& n : cloth.nodes) solved.push_back(n.x + h * n.v);
  solved[0].y() = 0.3 - 0.0025;
  for (const FreeEndDistances& given : {measured, FreeEndDistances()}) {
    const std::vector<ObstacleContact> missed =
        missedObstacleContacts(cloth, h, solved, predicted, given, field, thickness);
    REQUIRE(contactsOf(missed, 0).size() == 1);
    const ObstacleContact c = contactsOf(missed, 0)[0];
    CHECK((c.normal - Vec3::UnitY()).norm() < 1e-9);
    CHECK(c.depth == Approx(-0.0025).margin(1e-9));
    CHECK(contactsOf(missed, 1).empty());
  }
  // Within a quarter of the thickness of where it should end, it misses nothing (the contact pass takes that); and a
  // node that already has a contact is not given a second one.
  solved[0].y() = 0.3 + 0.8 * thickness;
  CHECK(missedObstacleContacts(cloth, h, solved, predicted, measured, field, thickness).empty());
  solved[0].y() = 0.3 - 0.0025;
  const std::vector<ObstacleContact> known = {{0, Vec3::UnitY(), 0.001}};
  CHECK(contactsOf(missedObstacleContacts(cloth, h, solved, known, measured, field, thickness), 0).empty());
}

TEST_CASE("a node the solve moved deep into an obstacle gets a contact through the side it entered by",
          "[collision]") {
  // A stretched sheet that a ball pressing it lets go of springs back into the ball by centimetres in one step, far
  // beyond the reach of the prediction (3 thicknesses): unseen by the check, such nodes were left to the CCD passes,
  // which pushed them out along their crossing's normal, pair by pair, and tore the sheet (edges at 20x).
  const double thickness = 0.005, h = 0.01;
  const std::vector<Obstacle> slab = slabAtOrigin(0.1);  // faces at y = +-0.05
  const ObstacleField field(posesAt(slab, 0));
  // Node 0 rests 30 mm above the top face: nothing predicted.
  Mesh cloth = edgeAtRest(Vec3(0, 0.08, 0), Vec3(0.05, 0.5, 0));
  FreeEndDistances measured;
  const std::vector<ObstacleContact> predicted = predictObstacleContacts(cloth, field, thickness, h, true, &measured);
  REQUIRE(predicted.empty());
  std::vector<Vec3> solved;
  for (const Node& n : cloth.nodes) solved.push_back(n.x);
  // Solved 30 mm into the slab (6 thicknesses; the top face is the nearest): a contact that asks for the whole
  // thickness from there, along the top face's normal.
  solved[0].y() = 0.05 - 0.03;
  for (const FreeEndDistances& given : {measured, FreeEndDistances()}) {
    const std::vector<ObstacleContact> missed =
        missedObstacleContacts(cloth, h, solved, predicted, given, field, thickness);
    REQUIRE_FALSE(contactsOf(missed, 0).empty());
    const ObstacleContact c = contactsOf(missed, 0)[0];  // the node's own contact comes first
    CHECK((c.normal - Vec3::UnitY()).norm() < 1e-9);
    const double fromSolved = c.depth - c.normal.dot(solved[0] - cloth.nodes[0].x);
    CHECK(fromSolved == Approx(thickness + 0.03).epsilon(1e-9));
  }
  // Solved 80 mm in, 20 mm short of the bottom face, which is now the nearest: a contact there would carry the node
  // on through the slab, so the node gets none of its own (its edges, which entered through the top face, may).
  solved[0].y() = -0.05 + 0.02;
  for (const FreeEndDistances& given : {measured, FreeEndDistances()})
    for (const ObstacleContact& c :
         contactsOf(missedObstacleContacts(cloth, h, solved, predicted, given, field, thickness), 0))
      CHECK(c.normal.y() > 0);
}

TEST_CASE("a sheet pressed deep by a ball springs back when the ball lets go, and is not torn on it",
          "[collision][regression]") {
  // A 1 m cotton sheet held at its corners; a 12 cm ball presses its middle 43 cm down in half a second, then rises
  // at 2 m/s. Let go, the stretched sheet springs up faster than the ball, into it by several centimetres in one step.
  // When the check of the solve did not see nodes that deep, the CCD passes pushed them out pair by pair: elastic
  // energy 5.8 -> 14 J and edge p99 1.44 -> 1.89 in the frame after the turn (a 48 cm press blew up: 15,000 J).
  using namespace adacloth::test;
  TempDir dir("deep-press");
  auto run = simulateShot(dir, "press", R"({"name": "press", "fps": 24, "frames": 16,
    "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [1.0, 1.0], "cells": [20, 20]}},
                "transform": {"translate": [-0.5, 0.5, 0.5], "rotate_deg": [-90, 0, 0]}, "material": "cotton",
                "remeshing": {},
                "handles": [{"points": [[-0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [-0.5, 0.5, -0.5], [0.5, 0.5, -0.5]]}]}],
    "obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.12}}, "transform": {"translate": [0, 0.63, 0]},
                   "motion": [{"time": 0, "translate": [0, 0, 0]}, {"time": 0.5, "translate": [0, -0.43, 0]},
                              {"time": 0.9, "translate": [0, 0.4, 0]}]}]})");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  const std::vector<config::Json> stats = frameStats(dir / "out");
  REQUIRE(stats.size() == 17);
  // Frame 12 (t = 0.5 s): the deepest press, the most stretch the sheet holds. After it the ball only moves away.
  const config::Json& pressed = stats[12]["cloths"][0];
  const double pressedEnergy = pressed["elastic_energy"].get<double>();
  const double pressedP99 = pressed["stretch_p99"].get<double>();
  for (int frame = 13; frame <= 16; ++frame) {
    const config::Json& sheet = stats[frame]["cloths"][0];
    INFO("frame " << frame << ": elastic energy " << sheet["elastic_energy"].get<double>() << " J, edge p99 "
                  << sheet["stretch_p99"].get<double>() << " (frame 12: " << pressedEnergy << " J, "
                  << pressedP99 << ")");
    CHECK(sheet["elastic_energy"].get<double>() <= pressedEnergy);
    CHECK(sheet["stretch_p99"].get<double>() <= pressedP99);
    CHECK(sheet["intersections"].get<int>() == 0);
  }
}

TEST_CASE("an edge the solve pulled through an obstacle's edge gets a contact of its point", "[collision]") {
  const std::vector<Obstacle> box = boxAtOrigin();
  const ObstacleField field(posesAt(box, 0));
  const double thickness = 0.005, h = 0.01;
  // At rest (free ends = positions) the edge passes the box's edge 4.2 mm off, its nodes 10 mm off the top face and
  // the side: nothing is predicted. Solved, its nodes end 4 mm off (not within reach of a node contact), but the
  // edge between them touches the box's edge.
  const Mesh cloth = edgeAtRest(Vec3(0, 0.310, 0.296), Vec3(0, 0.296, 0.310));
  FreeEndDistances measured;
  const std::vector<ObstacleContact> predicted = predictObstacleContacts(cloth, field, thickness, h, true, &measured);
  REQUIRE(predicted.empty());
  const std::vector<Vec3> solved = {Vec3(0, 0.304, 0.296), Vec3(0, 0.296, 0.304), cloth.nodes[2].x};
  for (const FreeEndDistances& given : {measured, FreeEndDistances()}) {
    const std::vector<ObstacleContact> missed =
        missedObstacleContacts(cloth, h, solved, predicted, given, field, thickness);
    REQUIRE(missed.size() == 1);  // one contact of the edge's midpoint
    const ObstacleContact& c = missed[0];
    REQUIRE(c.holdsEdgePoint());
    const Vec3 outward = Vec3(0, 1, 1).normalized();  // the box edge's pseudo-normal
    CHECK((c.normal - outward).norm() < 1e-9);
    CHECK(c.weight == Approx(0.5).epsilon(1e-9));
    // From the solved end: the edge's clearance (0.75 thickness), which its midpoint lacks.
    const Vec3 moved = 0.5 * (solved[0] - cloth.nodes[0].x + solved[1] - cloth.nodes[1].x);
    CHECK(c.depth - c.normal.dot(moved) == Approx(0.75 * thickness).epsilon(1e-9));
  }
}

TEST_CASE("the check of a solved step asks again only what may have come within reach", "[collision][random]") {
  // A sheet hanging in front of the box's side, nodes 1-20 mm off it, solved ends jittered by up to 8 mm: what the
  // check finds with the prediction's distances (which let it skip most nodes and edges) is what it finds asking
  // everything.
  const std::vector<Obstacle> box = boxAtOrigin();
  const ObstacleField field(posesAt(box, 0));
  const double thickness = 0.005, h = 0.01;
  Mesh sheet = makeFlatGrid(12, 0.3, 0, false);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> off(0.001, 0.02), jitter(-0.008, 0.008);
  for (Node& n : sheet.nodes) {
    n.x = Vec3(n.x.x() - 0.15, n.x.z() + 0.1, 0.3 + off(rng));
    n.v = Vec3(0, 0, -0.3);
  }
  FreeEndDistances measured;
  const std::vector<ObstacleContact> predicted = predictObstacleContacts(sheet, field, thickness, h, true, &measured);
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<Vec3> solved;
    for (const Node& n : sheet.nodes) solved.push_back(n.x + h * n.v + Vec3(jitter(rng), jitter(rng), jitter(rng)));
    const std::vector<ObstacleContact> skipping =
        missedObstacleContacts(sheet, h, solved, predicted, measured, field, thickness);
    const std::vector<ObstacleContact> asking =
        missedObstacleContacts(sheet, h, solved, predicted, FreeEndDistances(), field, thickness);
    REQUIRE(skipping.size() == asking.size());
    CHECK_FALSE(asking.empty());
    for (size_t i = 0; i < asking.size(); ++i) {
      CHECK(skipping[i].node == asking[i].node);
      CHECK(skipping[i].depth == asking[i].depth);
    }
  }
}
