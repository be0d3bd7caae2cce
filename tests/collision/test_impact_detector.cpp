// The CCD detector (impact_detector.h): seeded with the proximity pass's pairs and boxes, and re-testing only what
// moved, it finds what a detector with nothing cached finds.
#include <random>
#include <catch2/catch.hpp>

#include "collision/broad_phase.h"
#include "collision/impact_detector.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

const double kDt = 0.01;

// Moves `count` random cloth nodes' end positions by up to `size` (m) along each axis.
void jiggle(CollisionState& s, int clothNodes, int count, double size, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> node(0, clothNodes - 1);
  std::uniform_real_distribution<double> d(-size, size);
  for (int k = 0; k < count; ++k) s.x1[node(rng)] += Vec3(d(rng), d(rng), d(rng));
}

CollisionParams thickParams() {
  CollisionParams p;
  p.thickness = 0.01;  // m: CCD tolerance 0.5 mm
  return p;
}

// A sheet over a ball (sheetOverBall) moving at `velocity` during the step, as the collision phase sees it, with the
// proximity pass's pairs seeding a detector.
struct SeededSheet {
  Mesh sheet;
  Obstacle ball{sphereSpec(0.1, Vec3::Zero(), 3), "test"};
  CollisionMesh w;
  CollisionState s;
  const CollisionParams p = thickParams();  // before the detector, which reads its tolerance
  FaceTrees trees;
  PrimitiveBoxes boxes;
  CollisionStepStats st;
  ImpactDetector detector{p, trees, boxes, st};
  SeededSheet(double ripple, const Vec3& velocity) : sheet(sheetOverBall(ripple, 60)) {
    const std::vector<ObstaclePose> obstacles = {poseAt(ball, 0)};
    const std::vector<ClothStep> cloths = {stepOf(sheet, velocity, kDt)};
    w = buildCollisionMesh(cloths, obstacles);
    loadState(s, cloths, obstacles, obstacles, kDt);
    const double seedReach = 5 * ccdTolerance(p);  // as the collision phase seeds it
    detector.seed(findCandidates(w, s, p, trees, p.thickness, boxes, seedReach), s.x1, seedReach);
  }
  int clothNodes() const { return int(sheet.nodes.size()); }
};

}  // namespace

TEST_CASE("a seeded detector finds what a fresh one finds, pass after pass", "[collision]") {
  // A crumpled sheet falling into a ball: self pairs and obstacle pairs of every kind within the thickness.
  SeededSheet scene(0.004, Vec3(0.02, -0.4, 0.01));
  CollisionState& s = scene.s;
  // Moves as the proximity pass and the limiter make them: many nodes by less than the seed covers (a millimetre
  // here), a few farther; then as separations make them. Each detection is compared with a fresh one.
  jiggle(s, scene.clothNodes(), scene.clothNodes() / 2, 0.9e-3, 1);
  jiggle(s, scene.clothNodes(), 5, 0.05, 2);
  const std::vector<Hit> first = scene.detector.detect(scene.w, s);
  REQUIRE(first.size() > 5);
  requireSameHits(first, collisionsOf(scene.w, s, scene.p));
  for (unsigned pass = 0; pass < 3; ++pass) {
    jiggle(s, scene.clothNodes(), 20, 0.01, 10 + pass);
    requireSameHits(scene.detector.detect(scene.w, s), collisionsOf(scene.w, s, scene.p));
  }
  // Nothing moved: the same answer again.
  requireSameHits(scene.detector.detect(scene.w, s), collisionsOf(scene.w, s, scene.p));
}

TEST_CASE("a seeded detector finds the ball's corners and edges that small moves bring within the tolerance",
          "[collision]") {
  // The sheet at rest a millimetre or more above the ball, out of the CCD tolerance (0.5 mm); its middle is then
  // pushed down 0.8 mm, less than the seed covers, onto the ball's corners and edges.
  SeededSheet scene(0.0, Vec3::Zero());
  CollisionState& s = scene.s;
  for (int i = 0; i < scene.clothNodes(); ++i)
    if (std::abs(s.x1[i].x()) < 0.04) s.x1[i].y() -= 0.8e-3;
  const std::vector<Hit> hits = scene.detector.detect(scene.w, s);
  int obstacleFeatures = 0;  // the ball's corners against sheet faces, its edges against sheet edges
  for (const Hit& h : hits) {
    const std::array<int, 4> nodes = candidateNodes(scene.w, h.candidate);
    obstacleFeatures += scene.w.nodeCloth[nodes[h.candidate.edgeEdge ? 2 : 0]] < 0;
  }
  INFO(hits.size() << " hits");
  CHECK(obstacleFeatures > 0);
  requireSameHits(hits, collisionsOf(scene.w, s, scene.p));
}
