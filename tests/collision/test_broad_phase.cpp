// The broad phase (broad_phase.h): the pairs it finds at one reach, and the narrower reach it applies to the pairs
// of an obstacle that only the CCD passes want.
#include <algorithm>
#include <tuple>
#include <catch2/catch.hpp>

#include "collision/broad_phase.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// True when the pair is one the proximity pass keeps apart: a cloth node against any face, or two cloth edges.
bool proximityPair(const CollisionMesh& w, const Candidate& c) {
  const std::array<int, 4> nodes = candidateNodes(w, c);
  if (!c.edgeEdge) return w.nodeCloth[nodes[0]] >= 0;
  return std::all_of(nodes.begin(), nodes.end(), [&](int n) { return w.nodeCloth[n] >= 0; });
}

std::vector<Candidate> sorted(std::vector<Candidate> c) {
  std::sort(c.begin(), c.end());
  return c;
}

}  // namespace

TEST_CASE("an obstacle's pairs found at a narrower reach are all the pairs that reach finds", "[collision]") {
  // A sheet folded over a ball and moving through it, so that every kind of pair comes within a few millimetres:
  // cloth nodes against the ball's faces, the ball's nodes against the cloth's faces, edges against edges.
  Mesh sheet = sheetOverBall(0.002, 40);
  const Obstacle ball(sphereSpec(0.1, Vec3::Zero(), 3), "test");
  const std::vector<ObstaclePose> obstacles = {poseAt(ball, 0)};
  const std::vector<ClothStep> cloths = {stepOf(sheet, Vec3(0.05, -0.3, 0.02), 0.01)};
  const CollisionMesh w = buildCollisionMesh(cloths, obstacles);
  CollisionState s;
  loadState(s, cloths, obstacles, obstacles, 0.01);
  CollisionParams p;
  const double reach = 0.005, narrow = 0.05 * reach;
  FaceTrees trees;
  PrimitiveBoxes boxes;
  const std::vector<Candidate> all = sorted(findCandidates(w, s, p, trees, reach, boxes));
  const std::vector<Candidate> atNarrow = sorted(findCandidates(w, s, p, trees, narrow, boxes));
  const std::vector<Candidate> mixed = sorted(findCandidates(w, s, p, trees, reach, boxes, narrow));

  // The proximity pass's pairs: the same as at the full reach.
  std::vector<Candidate> proximityAll, proximityMixed, obstacleMixed, obstacleNarrow;
  for (const Candidate& c : all)
    if (proximityPair(w, c)) proximityAll.push_back(c);
  for (const Candidate& c : mixed) (proximityPair(w, c) ? proximityMixed : obstacleMixed).push_back(c);
  for (const Candidate& c : atNarrow)
    if (!proximityPair(w, c)) obstacleNarrow.push_back(c);
  auto keys = [](const std::vector<Candidate>& cs) {
    std::vector<std::tuple<bool, int, int>> k;
    for (const Candidate& c : cs) k.emplace_back(c.edgeEdge, c.a, c.b);
    return k;
  };
  CHECK(keys(proximityMixed) == keys(proximityAll));
  // The obstacle's other pairs: every one the narrow reach finds, and far fewer than the full reach finds.
  REQUIRE(obstacleNarrow.size() > 10);
  CHECK(std::includes(obstacleMixed.begin(), obstacleMixed.end(), obstacleNarrow.begin(), obstacleNarrow.end()));
  const size_t obstacleAll = all.size() - proximityAll.size();
  INFO("obstacle pairs: " << obstacleAll << " at the reach, " << obstacleMixed.size() << " narrowed, "
                          << obstacleNarrow.size() << " at the narrow reach");
  CHECK(obstacleMixed.size() < obstacleAll / 2);
  // Each narrowed pair's boxes come within the narrow reach, up to the rounding allowance.
  primitiveBoxes(w, s, boxes);
  for (const Candidate& c : obstacleMixed) CHECK(boxesOverlap(w, boxes, c, narrow + 2e-6));
}

TEST_CASE("the broad phase swept in the step's moving frame misses no pair that comes within the reach",
          "[collision]") {
  // A sheet over a ball, both carried 3 cm along z during the step (a runner's garment on its body); the sheet also
  // sinks 4 mm into the ball. Every pair is tested directly, without a broad phase, against what the detector and
  // the proximity pass's broad phase find.
  const double dt = 0.01;
  const Vec3 carried(0.0, 0.0, 0.03);
  Mesh sheet = sheetOverBall(0.004, 60);
  const Obstacle ball(sphereSpec(0.1, Vec3::Zero(), 2), "test");
  ObstaclePose start = poseAt(ball, 0), end = start;
  for (Vec3& x : end.x) x += carried;
  const std::vector<ClothStep> cloths = {stepOf(sheet, Vec3(0.02, -0.4, 0.0) + carried / dt, dt)};
  const CollisionMesh w = buildCollisionMesh(cloths, {start});
  CollisionState s;
  loadState(s, cloths, {start}, {end}, dt);
  CollisionParams p;
  p.thickness = 0.01;
  const double tolerance = ccdTolerance(p);

  std::vector<Hit> want;
  std::vector<Candidate> close;  // within the thickness at the end, of the kinds the proximity pass keeps apart
  auto consider = [&](const Candidate& c) {
    const std::array<int, 4> nodes = candidateNodes(w, c);
    if (sharesNode(nodes, c.edgeEdge)) return;
    if (std::none_of(nodes.begin(), nodes.end(), [&](int n) { return s.invMass[n] > 0; })) return;
    const MovingPoints m = movingPoints(s, nodes);
    if (auto g = candidateCCD(c, m, tolerance)) want.push_back({c, *g});
    const auto near = c.edgeEdge ? edgeEdgeProximity(m, p.thickness) : vertexFaceProximity(m, p.thickness);
    if (near && proximityPair(w, c)) close.push_back(c);
  };
  for (int n = 0; n < int(w.nodeCount()); ++n)
    for (int f = 0; f < int(w.faces.size()); ++f) consider({false, n, f});
  for (int a = 0; a < int(w.edges.size()); ++a)
    for (int b = a + 1; b < int(w.edges.size()); ++b) consider({true, a, b});
  std::stable_sort(want.begin(), want.end(), [](const Hit& a, const Hit& b) { return a.g.t < b.g.t; });
  REQUIRE(want.size() > 10);
  REQUIRE(close.size() > 10);

  FaceTrees trees;
  PrimitiveBoxes boxes;
  const std::vector<Candidate> found = sorted(findCandidates(w, s, p, trees, p.thickness, boxes, 5 * tolerance));
  CHECK(boxes.shift.z() == Approx(carried.z()).margin(0.002));  // the boxes were swept in the moving frame
  CHECK(std::includes(found.begin(), found.end(), close.begin(), close.end()));

  requireSameHits(collisionsOf(w, s, p), want);
}

TEST_CASE("the broad phase finds every pair whose boxes overlap, neighbours in the cloth too, each once",
          "[collision]") {
  // A rippled sheet of 1 cm cells at a 1.5 cm reach: the faces around each node, two rings of neighbours and the
  // folds' other layers come within it. Every pair is tested directly against the broad phase's.
  Mesh sheet = makeFlatGrid(20, 0.2, 0.0, false);
  for (Node& n : sheet.nodes) n.x.y() += 0.01 * std::sin(90 * n.x.x()) * std::cos(70 * n.x.z());
  sheet.computeMasses(0.1);
  const double dt = 0.01;
  const std::vector<ClothStep> cloths = {stepOf(sheet, Vec3(0.1, -0.3, 0.05), dt)};
  const CollisionMesh w = buildCollisionMesh(cloths, {});
  CollisionState s;
  loadState(s, cloths, {}, {}, dt);
  CollisionParams p;
  const double reach = 0.015;
  FaceTrees trees;
  PrimitiveBoxes boxes;
  const std::vector<Candidate> found = sorted(findCandidates(w, s, p, trees, reach, boxes));
  std::vector<Candidate> want;
  for (int n = 0; n < int(w.nodeCount()); ++n)
    for (int f = 0; f < int(w.faces.size()); ++f) {
      const Candidate c{false, n, f};
      if (!sharesNode(candidateNodes(w, c), false) && boxesOverlap(w, boxes, c, reach)) want.push_back(c);
    }
  for (int a = 0; a < int(w.edges.size()); ++a)
    for (int b = a + 1; b < int(w.edges.size()); ++b) {
      const Candidate c{true, a, b};
      if (!sharesNode(candidateNodes(w, c), true) && boxesOverlap(w, boxes, c, reach)) want.push_back(c);
    }
  REQUIRE(want.size() > 1000);
  CHECK(found.size() == want.size());
  CHECK(std::equal(found.begin(), found.end(), want.begin(), want.end(), [](const Candidate& x, const Candidate& y) {
    return x.edgeEdge == y.edgeEdge && x.a == y.a && x.b == y.b;
  }));
  CHECK(!w.neighbourPairs.empty());
}
