// Edge flips (src/remesh/flip.h): which flips are allowed.
#include <catch2/catch.hpp>

#include "remesh/flip.h"
#include "remesh/remesh_state.h"
#include "remesh_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// Two faces on edge p = (0, 0), q = (1, 0): (p, q, c) above it and (q, p, d) below it, flat in the world (z = 0).
struct Pair {
  Mesh mesh;
  int edge = -1;
};

Pair makePair(const Vec2& c, const Vec2& d) {
  const std::vector<Vec2> u = {{0, 0}, {1, 0}, c, d};
  std::vector<Vec3> x;
  for (const Vec2& p : u) x.emplace_back(p.x(), p.y(), 0.0);
  Pair pair{makeMesh(u, {0, 1, 2, 3}, x, {{0, 1, 2}, {1, 0, 3}}), -1};
  for (int e = 0; e < int(pair.mesh.edges.size()); ++e)
    if (!pair.mesh.edges[e].isBoundary()) pair.edge = e;
  return pair;
}

}  // namespace

TEST_CASE("a flip whose new diagonal the sizing would split is refused", "[remesh]") {
  // Well-shaped faces: the diagonal c-d (0.9 m) is longer than the 0.5 m sizing allows, so the flip waits for the
  // splits.
  Pair pair = makePair({0.5, 0.4}, {0.5, -0.5});
  RemeshState s = uniformSizingState(pair.mesh, 0.5);
  REQUIRE(pair.edge >= 0);
  CHECK_FALSE(canFlip(s, pair.edge, RemeshParams()));
}

TEST_CASE("a flip removes a sliver even when its new diagonal is longer than the sizing allows", "[remesh]") {
  // c lies 2 mm above the 1 m edge p-q: (p, q, c) is a sliver. Splitting p-q would put its midpoint 2 mm from c (an
  // edge of 2 mm in a mesh of 0.4 m edges); flipping to c-d (0.502 m, longer than the 0.4 m sizing) removes it.
  Pair pair = makePair({0.5, 0.002}, {0.5, -0.5});
  RemeshState s = uniformSizingState(pair.mesh, 0.4);
  REQUIRE(pair.edge >= 0);
  CHECK(flipMeasure(s, pair.edge) < 0.0);  // not Delaunay
  CHECK(canFlip(s, pair.edge, RemeshParams()));
}

TEST_CASE("a flip batch removes a sliver that fails the Delaunay test by less than the threshold", "[remesh]") {
  // c 0.5 mm above a 1 m edge, d so far below it that the angles opposite the edge sum to just over pi: the test's
  // measure is weighted by the faces' areas and misses the threshold, though the flip makes both faces thicker.
  Pair pair = makePair({0.5, 0.0005}, {0.5, -499.0});
  RemeshState s = uniformSizingState(pair.mesh, 0.4);
  const RemeshParams params;
  const double scale = pair.mesh.faces[0].materialArea + pair.mesh.faces[1].materialArea;
  const double measure = flipMeasure(s, pair.edge);
  REQUIRE(measure < 0.0);
  REQUIRE(measure > -params.flipThreshold * scale);  // not a candidate by the test alone
  CHECK(flipPass(s, params) == 1);
  for (const Face& f : s.mesh.faces)  // both faces now join c and d
    CHECK(f.materialArea > 100.0);
}

namespace {

// The pair of makePair with c = (0.25, 0.35) and d = (0.35, -0.35), not Delaunay (the angles at c and d sum to
// ~207 degrees), its corners moved in the world so that the faces (p, q, c) and (q, p, d) are stretched 1.11 and
// 1.18 (larger principal stretch) and meet at 0.32 rad: the flip's face (c, p, d) would be stretched 1.43.
Pair shearedPair() {
  Pair pair = makePair({0.25, 0.35}, {0.35, -0.35});
  pair.mesh.nodes[2].x = Vec3(0.35, 0.3, 0.1);
  pair.mesh.nodes[3].x = Vec3(0.5, -0.3, 0.0);
  pair.mesh.updateGeometry();
  return pair;
}

}  // namespace

TEST_CASE("a flip that would stretch its new faces past the limit and past the old ones is refused", "[remesh]") {
  Pair pair = shearedPair();
  RemeshState s = uniformSizingState(pair.mesh, 2.0);
  REQUIRE(pair.edge >= 0);
  REQUIRE(flipMeasure(s, pair.edge) < 0.0);
  CHECK_FALSE(canFlip(s, pair.edge, RemeshParams()));
  RemeshParams unlimited;
  unlimited.maxChangedStretch = 0.0;
  CHECK(canFlip(s, pair.edge, unlimited));
  // A limit above 1.43 lets it through.
  RemeshParams loose;
  loose.maxChangedStretch = 1.5;
  CHECK(canFlip(s, pair.edge, loose));
  CHECK(flipPass(s, RemeshParams()) == 0);  // last: a flip would change the pair
}

TEST_CASE("a flip is not refused for stretch the faces it replaces already had", "[remesh]") {
  // A flat pair stretched 1.5x as a whole: every face, old and new, is stretched 1.5 (past the limit).
  Pair pair = makePair({0.25, 0.35}, {0.35, -0.35});
  for (Node& n : pair.mesh.nodes) n.x *= 1.5;
  pair.mesh.updateGeometry();
  RemeshState s = uniformSizingState(pair.mesh, 2.0);
  CHECK(canFlip(s, pair.edge, RemeshParams()));
}

TEST_CASE("a flip that replaces faces thin in material space is made even when it stretches", "[remesh]") {
  // The faces of shearedPair have a material aspect of ~0.7: with aspect_min above it they count as thin, and the
  // flip that replaces them is made whatever it stretches.
  Pair pair = shearedPair();
  RemeshState s = uniformSizingState(pair.mesh, 2.0);
  RemeshParams thin;
  thin.aspectMin = 0.8;
  CHECK(canFlip(s, pair.edge, thin));
}
