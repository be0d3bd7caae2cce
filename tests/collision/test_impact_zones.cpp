// Impact zones (impact_zones.h) on hand-made configurations: the rigid motion of one zone (momentum, distances,
// anchors), and the passes: zones merge until no collision is left, or the collisions left are counted.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include "collision/contact_response.h"
#include "collision/impact_zones.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

const double kDt = 0.01;

// Nodes of one cloth (or obstacle nodes, cloth -1) with unit masses, for moveZoneRigidly alone: it reads only the
// nodes' cloths from the mesh.
struct Nodes {
  CollisionMesh w;
  CollisionState s;
  void add(const Vec3& x0, const Vec3& x1, double mass, int cloth = 0) {
    w.nodeCloth.push_back(cloth);
    s.x0.push_back(x0);
    s.x1.push_back(x1);
    s.v.push_back((x1 - x0) / kDt);
    s.invMass.push_back(mass > 0 ? 1.0 / mass : 0.0);
    s.dt = kDt;
  }
};

Vec3 linearMomentum(const CollisionState& s, const std::vector<int>& nodes) {
  Vec3 p = Vec3::Zero();
  for (int n : nodes) p += (s.x1[n] - s.x0[n]) / (s.dt * s.invMass[n]);
  return p;
}

// About the centre of mass at the start of the step, from the displacement over the step.
Vec3 angularMomentum(const CollisionState& s, const std::vector<int>& nodes) {
  double mass = 0;
  Vec3 centre = Vec3::Zero();
  for (int n : nodes) mass += 1 / s.invMass[n], centre += s.x0[n] / s.invMass[n];
  centre /= mass;
  Vec3 l = Vec3::Zero();
  for (int n : nodes) l += (s.x0[n] - centre).cross(s.x1[n] - s.x0[n]) / (s.dt * s.invMass[n]);
  return l;
}

// Three separate triangles of one cloth, all nodes of unit mass. A (nodes 0-2) falls 4 cm through the middle of the
// large B (3-5, at y = 0) during the step, over B's left part; C (6-8) rests 1 cm under B's right part, away from A.
// Moving A and B together carries B down through C, so a second zone pass has to take C in.
struct StackedTriangles {
  Mesh mesh;
  CollisionMesh w;
  CollisionState s;
  explicit StackedTriangles(double gapUnderB = 0.01) {
    mesh = makeTriangles({{Vec3(-0.45, 0.01, -0.55), Vec3(-0.35, 0.01, -0.55), Vec3(-0.4, 0.01, -0.65)},
                          {Vec3(-1, 0, -1), Vec3(0, 0, 1), Vec3(1, 0, -1)},
                          {Vec3(0.35, -gapUnderB, -0.55), Vec3(0.45, -gapUnderB, -0.55), Vec3(0.4, -gapUnderB, -0.65)}});
    std::vector<ClothStep> cloths = {stepOf(mesh, Vec3::Zero(), kDt)};
    for (int n = 0; n < 3; ++n) {
      mesh.nodes[n].x.y() -= 0.04;
      mesh.nodes[n].v = Vec3(0, -0.04 / kDt, 0);
    }
    w = buildCollisionMesh(cloths, {});
    loadState(s, cloths, {}, {}, kDt);
    s.invMass.assign(s.invMass.size(), 1.0);
  }
};

// Runs the zone passes from the state's collisions, as the collision phase does after its CCD passes.
struct ZoneRun {
  FaceTrees trees;
  PrimitiveBoxes boxes;
  CollisionStepStats st;
  int left = 0;
  size_t initialHits = 0;
  ZoneRun(const CollisionMesh& w, CollisionState& s, const CollisionParams& p) {
    ImpactDetector detector(p, trees, boxes, st);
    std::vector<Hit> hits = detector.detect(w, s);
    initialHits = hits.size();
    left = impactZones(w, s, hits, p, detector, st);
  }
};

std::vector<int> range(int first, int last) {
  std::vector<int> out;
  for (int i = first; i < last; ++i) out.push_back(i);
  return out;
}

// Largest change of the distance between any two of `nodes` from the start to the end of the step (m).
double distortion(const CollisionState& s, const std::vector<int>& nodes) {
  double worst = 0;
  for (int i : nodes)
    for (int j : nodes)
      worst = std::max(worst, std::abs((s.x1[i] - s.x1[j]).norm() - (s.x0[i] - s.x0[j]).norm()));
  return worst;
}

}  // namespace

TEST_CASE("zones are sets of nodes named by their lowest node", "[collision]") {
  Zones z(6);
  z.join(4, 2);
  z.join(5, 4);
  CHECK(z.find(5) == 2);
  CHECK(z.find(4) == 2);
  z.join(3, 1);
  z.join(5, 3);
  for (int n : {1, 2, 3, 4, 5}) CHECK(z.find(n) == 1);
  CHECK(z.find(0) == 0);
}

TEST_CASE("a free zone moves rigidly, keeping its momentum", "[collision]") {
  // Four nodes of different masses moving apart from each other, turning and drifting.
  Nodes z;
  const std::vector<Vec3> x0 = {Vec3(0, 0, 0), Vec3(0.1, 0.02, 0), Vec3(0.03, 0.1, 0.01), Vec3(0.02, 0.03, 0.08)};
  const std::vector<double> mass = {1.0, 2.0, 0.5, 1.5};
  const Vec3 drift(0.3, -0.2, 0.1), spin(2.0, -1.0, 3.0);  // m/s, rad/s
  for (int i = 0; i < 4; ++i) {
    const Vec3 deform = 0.002 * Vec3(i, -1.0 * i * i, 0.5);  // not rigid
    z.add(x0[i], x0[i] + kDt * (drift + spin.cross(x0[i])) + deform, mass[i]);
  }
  const std::vector<int> members = range(0, 4);
  const Vec3 p0 = linearMomentum(z.s, members), l0 = angularMomentum(z.s, members);
  REQUIRE(distortion(z.s, members) > 1e-3);
  moveZoneRigidly(z.w, z.s, members);

  CHECK(distortion(z.s, members) < 1e-12);
  CHECK((linearMomentum(z.s, members) - p0).norm() < 1e-12 * p0.norm());
  // The rotation is applied as a finite turn over the step, the momentum measured along its chord: they agree to
  // first order in the angle turned (here 0.04 rad).
  CHECK((angularMomentum(z.s, members) - l0).norm() < 0.05 * l0.norm());
  for (int n : members) CHECK((z.s.v[n] - (z.s.x1[n] - z.s.x0[n]) / kDt).norm() < 1e-12);
}

TEST_CASE("a free zone that only translates keeps its motion", "[collision]") {
  Nodes z;
  const Vec3 d(0.01, -0.02, 0.005);
  z.add(Vec3(0, 0, 0), Vec3(0, 0, 0) + d, 1.0);
  z.add(Vec3(0.1, 0, 0), Vec3(0.1, 0, 0) + d, 3.0);
  z.add(Vec3(0, 0.1, 0), Vec3(0, 0.1, 0) + d, 2.0);
  const CollisionState before = z.s;
  moveZoneRigidly(z.w, z.s, range(0, 3));
  for (int n = 0; n < 3; ++n) {
    CHECK((z.s.x1[n] - before.x1[n]).norm() < 1e-15);
    CHECK((z.s.v[n] - d / kDt).norm() < 1e-12);
  }
}

TEST_CASE("a zone touching an obstacle follows it, one touching only handles follows them", "[collision]") {
  Nodes z;
  z.add(Vec3(0, 0, 0), Vec3(0.05, 0, 0), 1.0);       // 0, 1: free cloth nodes, moving apart
  z.add(Vec3(0.1, 0, 0), Vec3(0.08, 0.01, 0), 1.0);
  z.add(Vec3(0, 0.1, 0), Vec3(0, 0.13, 0), 0.0);      // 2: a handle, moving up 3 cm
  z.add(Vec3(0, -0.1, 0), Vec3(0.01, -0.1, 0), 0.0, -1);  // 3, 4: obstacle nodes, moving 1 cm and 3 cm along x
  z.add(Vec3(0.1, -0.1, 0), Vec3(0.13, -0.1, 0), 0.0, -1);
  const CollisionState before = z.s;
  auto freeNodesMovedBy = [&](const Vec3& d) {
    for (int n : {0, 1}) {
      CHECK((z.s.x1[n] - (z.s.x0[n] + d)).norm() < 1e-15);
      CHECK((z.s.v[n] - d / kDt).norm() < 1e-12);
    }
  };
  SECTION("obstacle: the mean of its nodes' displacements") {
    moveZoneRigidly(z.w, z.s, {0, 1, 3, 4});
    freeNodesMovedBy(Vec3(0.02, 0, 0));
  }
  SECTION("obstacle and handle: the obstacle leads") {
    moveZoneRigidly(z.w, z.s, {0, 1, 2, 3, 4});
    freeNodesMovedBy(Vec3(0.02, 0, 0));
  }
  SECTION("handle only") {
    moveZoneRigidly(z.w, z.s, {0, 1, 2});
    freeNodesMovedBy(Vec3(0, 0.03, 0));
  }
  SECTION("nothing free: nothing moves") {
    moveZoneRigidly(z.w, z.s, {2, 3, 4});
    CHECK(z.s.x1 == before.x1);
    CHECK(z.s.v == before.v);
  }
  // Anchors themselves are never moved.
  for (int n : {2, 3, 4}) CHECK(z.s.x1[n] == before.x1[n]);
}

namespace {

// Held triangles of one cloth, each moved by its own displacement, for moveZoneRigidly's blended ride: node 0 is
// free (at `free`, not moving), then three held nodes per triangle.
Nodes heldTriangles(const Vec3& free, const std::vector<std::pair<std::array<Vec3, 3>, Vec3>>& triangles) {
  Nodes z;
  z.add(free, free, 1.0);
  CollisionMesh::Body body;
  body.cloth = 0, body.nodeCount = 1;
  for (const auto& [corners, move] : triangles) {
    const int first = int(z.s.x0.size());
    for (const Vec3& p : corners) z.add(p, p + move, 0.0);
    z.w.faces.push_back({first, first + 1, first + 2});
    body.nodeCount += 3, ++body.faceCount;
  }
  z.w.bodies = {body};
  return z;
}

}  // namespace

TEST_CASE("a zone held by handles that do not move rigidly rides the held faces near each free node", "[collision]") {
  // Held nodes bound to a deforming body bend: A rises 2 cm between B and C (30 cm either side), which stay. Free
  // node 0 sits 1 mm over A; no rigid motion fits, and the best one (a third of A's rise) lets A sweep through it.
  const Vec3 up(0, 0.02, 0);
  const std::array<Vec3, 3> a = {Vec3(0, 0, 0), Vec3(0, 0, 0.1), Vec3(0.1, 0, 0)};
  const std::array<Vec3, 3> b = {Vec3(0.3, 0, 0), Vec3(0.3, 0, 0.1), Vec3(0.4, 0, 0)};
  const std::array<Vec3, 3> c = {Vec3(-0.3, 0, 0), Vec3(-0.3, 0, 0.1), Vec3(-0.2, 0, 0)};
  Nodes z = heldTriangles(Vec3(0.03, 0.001, 0.03), {{a, up}, {b, Vec3::Zero()}, {c, Vec3::Zero()}});
  const std::vector<int> members = range(0, 10);
  SECTION("blended over the thickness: it goes with A") {
    moveZoneRigidly(z.w, z.s, members, 0.005);
    CHECK((z.s.x1[0] - (z.s.x0[0] + up)).norm() < 1e-12);
    CHECK((z.s.v[0] - up / kDt).norm() < 1e-9);
  }
  SECTION("without a blend radius: the rigid fit, which A sweeps through") {
    moveZoneRigidly(z.w, z.s, members);
    CHECK(z.s.x1[0].y() < 0.02);
  }
}

TEST_CASE("a free node between two held layers closing in on it stays between them", "[collision]") {
  // A (y = 0) rises 1 mm and B (y = 4 mm) falls 2 mm over the step, to 1 mm apart; the free node sits 1 mm over A.
  // Riding A alone would put it on B's end position, riding B alone under A's.
  const std::array<Vec3, 3> a = {Vec3(0, 0, 0), Vec3(0, 0, 0.1), Vec3(0.1, 0, 0)};
  const std::array<Vec3, 3> b = {Vec3(0, 0.004, 0), Vec3(0, 0.004, 0.1), Vec3(0.1, 0.004, 0)};
  Nodes z = heldTriangles(Vec3(0.03, 0.001, 0.03), {{a, Vec3(0, 0.001, 0)}, {b, Vec3(0, -0.002, 0)}});
  moveZoneRigidly(z.w, z.s, range(0, 7), 0.005);
  CHECK(z.s.x1[0].y() > 0.001 + 1e-4);
  CHECK(z.s.x1[0].y() < 0.002 - 1e-4);
}

TEST_CASE("a zone held only by handles turns with them", "[collision]") {
  // Three handle nodes (1-3) turn 0.3 rad about an oblique axis and shift 2 cm, as held nodes bound to a turning
  // body do; the free node 0 between them must keep its place among them. Their mean displacement alone would leave
  // it 5.9 mm off.
  const Mat3 turn(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  const Vec3 shift(0.02, 0, -0.01), centre(0.1, 0.2, 0.3);
  auto moved = [&](const Vec3& x) { return Vec3(centre + shift + turn * (x - centre)); };
  Nodes z;
  z.add(Vec3(0.12, 0.21, 0.3), Vec3(0.12, 0.21, 0.3), 1.0);
  for (const Vec3& p : {Vec3(0.2, 0.2, 0.3), Vec3(0.05, 0.3, 0.3), Vec3(0.05, 0.1, 0.3)}) z.add(p, moved(p), 0.0);
  moveZoneRigidly(z.w, z.s, {0, 1, 2, 3});
  CHECK((z.s.x1[0] - moved(z.s.x0[0])).norm() < 1e-12);
  CHECK((z.s.v[0] - (z.s.x1[0] - z.s.x0[0]) / kDt).norm() < 1e-9);
  SECTION("three handles in a line do not fix a turn: the mean displacement") {
    Nodes line;
    line.add(Vec3(0.1, 0.1, 0), Vec3(0.1, 0.1, 0), 1.0);
    for (double x : {0.0, 0.1, 0.2}) line.add(Vec3(x, 0, 0), moved(Vec3(x, 0, 0)), 0.0);
    moveZoneRigidly(line.w, line.s, {0, 1, 2, 3});
    const Vec3 mean = (line.s.x1[1] + line.s.x1[2] + line.s.x1[3] - line.s.x0[1] - line.s.x0[2] - line.s.x0[3]) / 3;
    CHECK((line.s.x1[0] - (line.s.x0[0] + mean)).norm() < 1e-15);
  }
}

TEST_CASE("a zone touching a turning obstacle face rides it", "[collision]") {
  // An obstacle triangle (nodes 2-4, normal +y) turns 0.2 rad about the x axis through its corner at the origin;
  // free cloth nodes 0 and 1 rest 1 cm above it. The mean displacement of the corners would carry them through it.
  const Mat3 turn(Eigen::AngleAxisd(0.2, Vec3::UnitX()));
  Nodes z;
  z.add(Vec3(0.2, 0.01, -0.1), Vec3(0.2, 0.01, -0.1), 1.0);
  z.add(Vec3(0.1, 0.01, -0.3), Vec3(0.1, 0.01, -0.3), 1.0);
  for (const Vec3& corner : {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, -1)}) z.add(corner, turn * corner, 0.0, -1);
  z.w.faces = {{2, 3, 4}};
  z.w.bodies = {CollisionMesh::Body{-1, 2, 3, 0, 0, 0, 1, nullptr}};
  moveZoneRigidly(z.w, z.s, {0, 1, 2, 3, 4});
  for (int n : {0, 1}) {
    CHECK((z.s.x1[n] - turn * z.s.x0[n]).norm() < 1e-12);  // carried as the face turns: still 1 cm above it
    CHECK((z.s.v[n] - (z.s.x1[n] - z.s.x0[n]) / kDt).norm() < 1e-9);
  }
}

TEST_CASE("impact zones merge until no collision is left", "[collision]") {
  CollisionParams p;
  StackedTriangles t;
  const CollisionState before = t.s;
  ZoneRun run(t.w, t.s, p);

  CHECK(run.initialHits > 0);
  CHECK(run.left == 0);
  CHECK(run.st.zonePasses == 2);  // A with B, then A and B with C
  CHECK(run.st.zones == 1);
  CHECK(collisionsOf(t.w, t.s, p).empty());
  // The last pass moved all three triangles as one rigid zone from the start of the step, with their momentum.
  const std::vector<int> all = range(0, 9);
  CHECK(distortion(t.s, all) < 1e-12);
  CHECK((linearMomentum(t.s, all) - linearMomentum(before, all)).norm() < 1e-12);
}

TEST_CASE("impact zones count the collisions left when their passes run out", "[collision]") {
  CollisionParams p;
  SECTION("one pass: B, carried with A, now goes through C") {
    p.zoneIterations = 1;
    StackedTriangles t;
    ZoneRun run(t.w, t.s, p);
    CHECK(run.st.zonePasses == 1);
    CHECK(run.left > 0);
    CHECK(run.left == int(collisionsOf(t.w, t.s, p).size()));
    // A and B moved as one body; C did not move yet.
    CHECK(distortion(t.s, range(0, 6)) < 1e-12);
    for (int n = 6; n < 9; ++n) CHECK(t.s.x1[n] == t.s.x0[n]);
  }
  SECTION("no pass: the collisions found are all left") {
    p.zoneIterations = 0;
    StackedTriangles t;
    const CollisionState before = t.s;
    ZoneRun run(t.w, t.s, p);
    CHECK(run.st.zonePasses == 0);
    CHECK(run.left == int(run.initialHits));
    CHECK(t.s.x1 == before.x1);
  }
}

TEST_CASE("an impact zone touching a handle stays with it", "[collision]") {
  CollisionParams p;
  StackedTriangles t;
  for (int n = 3; n < 6; ++n) t.s.invMass[n] = 0;  // B is held where it is
  ZoneRun run(t.w, t.s, p);
  CHECK(run.left == 0);
  CHECK(run.st.zonePasses == 1);
  // A stops where it started, above B; C is never involved.
  for (int n = 0; n < 9; ++n) CHECK((t.s.x1[n] - t.s.x0[n]).norm() < 1e-15);
}

TEST_CASE("pairs none of whose nodes can move are not collisions", "[collision]") {
  // Handles prescribe where held nodes go: two held stretches of a cloth (a waistband bound to a turning body) that
  // cross cannot be separated by any response, and used to be counted as unresolved.
  CollisionParams p;
  StackedTriangles t;
  for (int n = 3; n < 6; ++n) t.s.invMass[n] = 0;  // B held
  CHECK_FALSE(collisionsOf(t.w, t.s, p).empty());  // A falls through B and can be stopped
  for (int n = 0; n < 3; ++n) t.s.invMass[n] = 0;  // A held as well
  CHECK(collisionsOf(t.w, t.s, p).empty());
  ZoneRun run(t.w, t.s, p);
  CHECK(run.left == 0);
}

// Two triangles of one cloth held by handles but for Q's corner 4: P (nodes 0-2) lies still in y = 0 with its edge
// 0-1 on the x axis, from x = -0.5 to 0.5; Q (`q`, nodes 3-5) keeps still but for its held corner 3, which ends the
// step at height `corner3EndY` (m).
struct HeldFold {
  Mesh mesh;
  CollisionMesh w;
  CollisionState s;
  HeldFold(const std::array<Vec3, 3>& q, double corner3EndY) {
    mesh = makeTriangles({{Vec3(-0.5, 0, 0), Vec3(0.5, 0, 0), Vec3(0, 0, -0.5)}, q});
    std::vector<ClothStep> cloths = {stepOf(mesh, Vec3::Zero(), kDt)};
    mesh.nodes[3].x.y() = corner3EndY;
    w = buildCollisionMesh(cloths, {});
    loadState(s, cloths, {}, {}, kDt);
    s.invMass = {0, 0, 0, 0, 1, 0};
  }
};

TEST_CASE("a contact on held features is left to the handles, not counted unresolved", "[collision]") {
  // Two triangles of one cloth held by handles but for one free corner: P (nodes 0-2) lies still in y = 0 with its
  // edge 0-1 on the x axis; Q's held corner 3 is carried down through the middle of that edge, Q's free corner 4
  // stays 0.5 m away. Edge 4-3 meets edge 0-1 at node 3, where the free node weighs 0: no push can separate them
  // (the skirt's gathered waistband, bound to the body, met itself so at a 1 cm size).
  CollisionParams p;
  HeldFold fold({Vec3(0, 0.01, 0), Vec3(0, 0.01, 0.5), Vec3(0.1, 0.01, 0.5)}, -0.01);
  const CollisionMesh& w = fold.w;
  CollisionState& s = fold.s;
  const std::vector<Hit> hits = collisionsOf(w, s, p);
  REQUIRE(hits.size() == 1);
  const auto nodes = candidateNodes(w, hits[0].candidate);
  CHECK(onHeldFeatures(s, nodes, hits[0].g));

  ZoneRun run(w, s, p);
  CHECK(run.left == 0);
  CHECK(run.st.heldContacts == 1);
  CHECK(run.st.zonePasses == p.zoneIterations);  // the passes still ran: the zone keeps node 4 with the held faces
  CHECK((s.x1[4] - s.x0[4]).norm() < 1e-12);

  SECTION("the same contact with the free corner weighing in is unresolved") {
    CollisionState free = s;
    free.invMass[3] = 1;  // corner 3 free: the contact can be answered
    CHECK_FALSE(onHeldFeatures(free, nodes, hits[0].g));
  }
}

TEST_CASE("a pair with held nodes on both sides, in a zone held only by handles, is pushed apart", "[collision]") {
  // Two triangles of one cloth held by handles but for one free corner, as a gathered waistband bound to a body
  // folding onto itself: P (nodes 0-2) lies still in y = 0 with its edge 0-1 on the x axis; Q's held corner 3 sits
  // 0.1 mm over P and sinks 0.05 mm over the step, its edge to the free corner 4 crossing over edge 0-1 a fifth of
  // the way to 4. The zone's blend keeps 4 with the held face P, still, while the held ends approach on their own:
  // only a push of node 4 (five times the contact's) answers the pair (crowd.silk.4steps, frames 79-91).
  CollisionParams p;
  HeldFold fold({Vec3(0, 1e-4, -0.1), Vec3(0, 1e-4, 0.4), Vec3(0.1, 1e-4, 0.4)}, 0.5e-4);
  const CollisionMesh& w = fold.w;
  CollisionState& s = fold.s;
  const std::vector<Hit> hits = collisionsOf(w, s, p);
  REQUIRE(hits.size() == 1);
  const auto nodes = candidateNodes(w, hits[0].candidate);
  CHECK_FALSE(onHeldFeatures(s, nodes, hits[0].g));

  ZoneRun run(w, s, p);
  CHECK(run.left == 0);
  CHECK(run.st.heldContacts == 0);
  CHECK(run.st.zonePasses == 1);  // pushed in the first pass, not left to the blend for half the passes
  CHECK(collisionsOf(w, s, p).empty());
  // Node 4 rose by about the push, no farther than the target separation (a tenth of the thickness).
  CHECK(s.x1[4].y() - s.x0[4].y() > 1e-4);
  CHECK((s.x1[4] - s.x0[4]).norm() <= 0.1 * p.thickness);
}

TEST_CASE("a pair the blend of a zone held only by handles leaves is pushed in the second half of the passes",
          "[collision]") {
  // Held triangles A and B lie side by side in y = 0 (A left of x = -0.05 mm, B right of x = 0); B rises 1 mm over
  // the step, A moves 0.1 mm towards it. A free triangle lies 0.1 mm over B, its corner P (node 6) 0.18 mm from A's
  // edge, which comes closer: the zone holds A and B. Its blend carries P by B (0.1 mm away) and by A (0.18 mm), so
  // P rises only about three quarters of B's rise and B sweeps through it, whatever the passes; a push lifts it.
  CollisionParams p;
  const double h = 1e-4;
  Mesh mesh = makeTriangles({{Vec3(-0.5 * h, 0, -0.05), Vec3(-0.5 * h, 0, 0.05), Vec3(-0.1, 0, 0)},
                             {Vec3(0, 0, -0.05), Vec3(0, 0, 0.05), Vec3(0.1, 0, 0)},
                             {Vec3(h, h, 0), Vec3(0.02, h, 0.01), Vec3(0.02, h, -0.01)}});
  std::vector<ClothStep> cloths = {stepOf(mesh, Vec3::Zero(), kDt)};
  for (int n = 0; n < 3; ++n) mesh.nodes[n].x.x() += h;
  for (int n = 3; n < 6; ++n) mesh.nodes[n].x.y() += 0.001;
  const CollisionMesh w = buildCollisionMesh(cloths, {});
  CollisionState s;
  loadState(s, cloths, {}, {}, kDt);
  s.invMass = {0, 0, 0, 0, 0, 0, 1, 1, 1};
  REQUIRE_FALSE(collisionsOf(w, s, p).empty());

  ZoneRun run(w, s, p);
  CHECK(run.left == 0);
  CHECK(collisionsOf(w, s, p).empty());
  CHECK(run.st.zonePasses > p.zoneIterations / 2);  // the blend had the first half of the passes
  CHECK(s.x1[6].y() > 0.001 + 0.05 * p.thickness);  // P ends above B's end position
}

TEST_CASE("a pair inside a zone that rides a deforming obstacle is pushed apart", "[collision]") {
  // The top vertex of a ball (radius 10 cm) rises 1 mm during the step, as a body vertex does where the skin
  // sharpens a crease; a still cloth triangle lies 0.2 mm over it (within the CCD tolerance), its corners 2 cm out,
  // over the faces around the vertex. Riding those faces carries each corner up by only part of the vertex's rise, so
  // the vertex still goes through the cloth, and the zone cannot grow: the pair is inside it already.
  CollisionParams p;
  const Obstacle ball(sphereSpec(0.1, Vec3::Zero(), 1), "test");
  const ObstaclePose start = poseAt(ball, 0);
  ObstaclePose end = start;
  int top = 0;
  for (size_t n = 0; n < start.x.size(); ++n)
    if (start.x[n].y() > start.x[top].y()) top = int(n);
  end.x[top].y() += 0.001;
  const Vec3 over = start.x[top] + Vec3(0, 0.0002, 0);
  Mesh cloth = makeTriangles({{over + Vec3(-0.02, 0, 0.01), over + Vec3(0.02, 0, 0.01), over + Vec3(0, 0, -0.02)}});
  std::vector<ClothStep> cloths = {stepOf(cloth, Vec3::Zero(), kDt)};
  const CollisionMesh w = buildCollisionMesh(cloths, {start});
  CollisionState s;
  loadState(s, cloths, {start}, {end}, kDt);
  for (int n = 0; n < 3; ++n) s.invMass[n] = 1.0;  // the test mesh has no masses

  ZoneRun run(w, s, p);
  CHECK(run.initialHits > 0);
  CHECK(run.left == 0);
  CHECK(collisionsOf(w, s, p).empty());
  // The cloth's plane ends above the risen vertex, by more than the CCD tolerance.
  const int first = w.bodies[0].firstNode;
  const Vec3 a = s.x1[first], n = (s.x1[first + 1] - a).cross(s.x1[first + 2] - a);
  const Vec3 vertex = end.x[top];
  const double planeHeight = a.y() - (n.x() * (vertex.x() - a.x()) + n.z() * (vertex.z() - a.z())) / n.y();
  CHECK(planeHeight - vertex.y() > 0.05 * p.thickness);
}
