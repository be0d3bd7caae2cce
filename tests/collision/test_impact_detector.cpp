// The CCD detector (impact_detector.h): seeded with the proximity pass's pairs and boxes, and re-testing only what
// moved, it finds what a detector with nothing cached finds.
#include <algorithm>
#include <random>
#include <catch2/catch.hpp>

#include "collision/broad_phase.h"
#include "collision/impact_detector.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

const double kDt = 0.01;

// Every collision of the state, from a detector with nothing cached.
std::vector<Hit> freshHits(const CollisionMesh& w, const CollisionState& s, const CollisionParams& p) {
  FaceTrees trees;
  PrimitiveBoxes boxes;
  CollisionStepStats st;
  ImpactDetector detector(p, trees, boxes, st);
  return detector.detect(w, s);
}

void requireSame(const std::vector<Hit>& got, const std::vector<Hit>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].candidate.edgeEdge == want[i].candidate.edgeEdge);
    CHECK(got[i].candidate.a == want[i].candidate.a);
    CHECK(got[i].candidate.b == want[i].candidate.b);
    CHECK(got[i].g.t == want[i].g.t);
  }
}

// Moves `count` random cloth nodes' end positions by up to `size` (m) along each axis.
void jiggle(CollisionState& s, int clothNodes, int count, double size, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> node(0, clothNodes - 1);
  std::uniform_real_distribution<double> d(-size, size);
  for (int k = 0; k < count; ++k) s.x1[node(rng)] += Vec3(d(rng), d(rng), d(rng));
}

}  // namespace

TEST_CASE("a seeded detector finds what a fresh one finds, pass after pass", "[collision]") {
  // A crumpled sheet falling onto a ball: self pairs and obstacle pairs of every kind within the thickness.
  Mesh sheet = makeFlatGrid(16, 0.4, 0.0, false);
  for (Node& n : sheet.nodes) {
    const double u = n.x.x() - 0.2;
    n.x = Vec3(u, 0.101 - 2.0 * u * u + 0.004 * std::sin(60 * n.x.z()), n.x.z() + 0.2);
  }
  sheet.computeMasses(0.1);
  const Obstacle ball(sphereSpec(0.1, Vec3::Zero(), 3), "test");
  const std::vector<ObstaclePose> obstacles = {poseAt(ball, 0)};
  const std::vector<ClothStep> cloths = {stepOf(sheet, Vec3(0.02, -0.4, 0.01), kDt)};
  const CollisionMesh w = buildCollisionMesh(cloths, obstacles);
  CollisionState s;
  loadState(s, cloths, obstacles, obstacles, kDt);
  CollisionParams p;
  p.thickness = 0.01;
  const int clothNodes = int(sheet.nodes.size());

  FaceTrees trees;
  PrimitiveBoxes boxes;
  CollisionStepStats st;
  ImpactDetector detector(p, trees, boxes, st);
  detector.seed(findCandidates(w, s, p, trees, p.thickness, boxes, ccdTolerance(p)), s.x1);
  // Moves as the proximity pass and the limiter make them (small, many), then as separations make them (few, some
  // far); each detection is compared with a fresh one.
  jiggle(s, clothNodes, clothNodes / 2, 0.3 * p.thickness, 1);
  jiggle(s, clothNodes, 5, 0.05, 2);
  const std::vector<Hit> first = detector.detect(w, s);
  REQUIRE(first.size() > 5);
  requireSame(first, freshHits(w, s, p));
  for (unsigned pass = 0; pass < 3; ++pass) {
    jiggle(s, clothNodes, 20, 0.01, 10 + pass);
    requireSame(detector.detect(w, s), freshHits(w, s, p));
  }
  // Nothing moved: the same answer again.
  requireSame(detector.detect(w, s), freshHits(w, s, p));
}
