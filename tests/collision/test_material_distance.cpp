// Material-space distances of pairs inside one cloth (material_distance.h), and what the proximity pass does with
// them: a cloth finer than the thickness is not pushed apart from itself where it lies as at rest or folds no tighter
// than the thickness allows, and is where it is gathered, but no farther apart than a fold of the thickness holds it.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <utility>

#include "collision/collision_mesh.h"
#include "collision/contact_response.h"
#include "collision/material_distance.h"
#include "collision/response.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

const double kDt = 0.01;
const double kPi = M_PI;

int edgeBetween(const CollisionMesh& w, int a, int b) {
  for (size_t e = 0; e < w.edges.size(); ++e)
    if ((w.edges[e][0] == a && w.edges[e][1] == b) || (w.edges[e][0] == b && w.edges[e][1] == a)) return int(e);
  FAIL("no edge " << a << "-" << b);
  return -1;
}

}  // namespace

TEST_CASE("material distance of a node and a face, and of two edges, of one cloth", "[collision]") {
  // 4 x 4 cells of 1 cm (grid node (i, j) = j * 5 + i at material (i, j) cm); cell (i, j) has faces 2 (4j + i) and
  // 2 (4j + i) + 1. The world positions do not matter: the cloth is crumpled, material distances stay.
  Mesh grid = makeFlatGrid(4, 0.04, 0.0, false);
  for (Node& n : grid.nodes) n.x = Vec3(0.3 * n.x.x(), std::sin(50 * n.x.x()), n.x.z());
  std::vector<ClothStep> cloths = {stepOf(grid, Vec3::Zero(), kDt)};
  const CollisionMesh w = buildCollisionMesh(cloths, {});
  auto node = [](int i, int j) { return j * 5 + i; };
  // Node (0, 1) and the two faces of cell (2, 1), both with the corner (2, 1): 2 cm away along the grid line; node
  // (0, 0) is sqrt(5) cm from that corner.
  CHECK(materialDistance(w, {false, node(0, 1), 2 * (4 + 2)}) == Approx(0.02));
  CHECK(materialDistance(w, {false, node(0, 1), 2 * (4 + 2) + 1}) == Approx(0.02));
  CHECK(materialDistance(w, {false, node(0, 0), 2 * (4 + 2)}) == Approx(std::hypot(0.02, 0.01)));
  // Two vertical grid lines 3 cm apart, and two edges that cross in material space (not possible in one mesh, but
  // the edges of a cell's two faces touch at a corner): 0.
  const int left = edgeBetween(w, node(0, 1), node(0, 2)), right = edgeBetween(w, node(3, 1), node(3, 2));
  CHECK(materialDistance(w, {true, std::min(left, right), std::max(left, right)}) == Approx(0.03));
  const int bottom = edgeBetween(w, node(1, 1), node(2, 1)), side = edgeBetween(w, node(2, 1), node(2, 2));
  CHECK(materialDistance(w, {true, std::min(bottom, side), std::max(bottom, side)}) == Approx(0.0));
}

TEST_CASE("pairs across charts, cloths or obstacles are infinitely far in material space", "[collision]") {
  // Two triangles of one cloth with their own nodes are two charts (panels not sewn together): their material
  // coordinates overlap, and say nothing about where one panel is from the other.
  Mesh panels = makeTriangles({{Vec3(0, 0, 0), Vec3(0.01, 0, 0), Vec3(0, 0, -0.01)},
                               {Vec3(0, 0.002, 0), Vec3(0.01, 0.002, 0), Vec3(0, 0.002, -0.01)}});
  Mesh other = makeTriangles({{Vec3(0, 0.004, 0), Vec3(0.01, 0.004, 0), Vec3(0, 0.004, -0.01)}});
  const Obstacle ball(sphereSpec(0.1, Vec3(0, -0.2, 0), 1), "test");
  std::vector<ClothStep> cloths = {stepOf(panels, Vec3::Zero(), kDt), stepOf(other, Vec3::Zero(), kDt)};
  const CollisionMesh w = buildCollisionMesh(cloths, {poseAt(ball, 0)});
  CHECK(w.faceChart[0] != w.faceChart[1]);
  const double far = std::numeric_limits<double>::infinity();
  CHECK(materialDistance(w, {false, 0, 1}) == far);  // panel 1's node over panel 2's face
  CHECK(materialDistance(w, {false, 0, 2}) == far);  // the other cloth
  CHECK(materialDistance(w, {false, 0, 3}) == far);  // an obstacle face
  CHECK(materialDistance(w, {false, 6, 0}) == far);
}

TEST_CASE("a flat unstrained cloth finer than the thickness is not pushed apart from itself", "[collision]") {
  // 4 mm cells, under the 5 mm thickness: a node and the face of the next cell lie 4 mm apart in the plane, as they
  // do at rest. Pushed to the thickness they would stretch the cloth, and they used to be, every step (one collision
  // phase moved nodes of this grid 8.9 mm; a fine skirt's elastic energy grew 200-fold).
  CollisionParams p;
  Mesh grid = makeFlatGrid(6, 0.024, 0.0, false);
  grid.computeMasses(0.15);
  std::vector<ClothStep> cloths = {stepOf(grid, Vec3::Zero(), kDt)};
  const std::vector<Vec3> before = cloths[0].x0;
  CollisionCache cache;
  const CollisionStepStats st = resolveCollisions(cloths, {}, {}, p, kDt, cache);
  // Pairs within the thickness and at their rest spacing are no contacts: they used to count (and to be sorted and
  // kept, 200,000 a step on a 1 m sheet of 5 mm cells).
  CHECK(st.contacts[0] == 0);
  double moved = 0;
  for (size_t n = 0; n < grid.nodes.size(); ++n) moved = std::max(moved, (grid.nodes[n].x - before[n]).norm());
  CHECK(moved < 1e-12);

  SECTION("compressing in its plane by 5 % over the step, it keeps its velocity") {
    // The pairs' normals lie in the cloth's plane here (a node and a face of its neighbourhood), and the proximity
    // pass stopped their approach along them: a cloth finer than the thickness could not compress in its plane
    // however little, an artefact of the mesh's resolution that made the fine skirt's edges reach 1.7x.
    Mesh moving = makeFlatGrid(6, 0.024, 0.0, false);
    moving.computeMasses(0.15);
    std::vector<ClothStep> step = {stepOf(moving, Vec3::Zero(), kDt)};
    const Vec3 centre(0.012, 0.012, 0.0);
    std::vector<Vec3> velocity;
    for (size_t n = 0; n < moving.nodes.size(); ++n) {
      Node& node = moving.nodes[n];
      node.v = -5.0 * (step[0].x0[n] - centre);  // 5 % closer to the centre after kDt: still at 0.95 of rest
      node.x = step[0].x0[n] + kDt * node.v;
      velocity.push_back(node.v);
    }
    CollisionCache fresh;
    const CollisionStepStats compressed = resolveCollisions(step, {}, {}, p, kDt, fresh);
    CHECK(compressed.contacts[0] == 0);
    double changed = 0;
    for (size_t n = 0; n < moving.nodes.size(); ++n)
      changed = std::max(changed, (moving.nodes[n].v - velocity[n]).norm());
    CHECK(changed < 1e-12);
  }

  SECTION("gathered to half its width, the same cloth is pushed apart") {
    Mesh gathered = makeFlatGrid(6, 0.024, 0.0, false);
    for (Node& n : gathered.nodes) n.x.x() *= 0.5;
    gathered.computeMasses(0.15);
    std::vector<ClothStep> step = {stepOf(gathered, Vec3::Zero(), kDt)};
    const std::vector<Vec3> start = step[0].x0;
    CollisionCache fresh;
    resolveCollisions(step, {}, {}, p, kDt, fresh);
    double pushed = 0;
    for (size_t n = 0; n < gathered.nodes.size(); ++n)
      pushed = std::max(pushed, (gathered.nodes[n].x - start[n]).norm());
    CHECK(pushed > 1e-3);
  }
  SECTION("two panels 2 mm apart are still pushed to the thickness") {
    Mesh panels = makeTriangles({{Vec3(0, 0, 0), Vec3(0.02, 0, 0), Vec3(0, 0, -0.02)},
                                 {Vec3(0, 0.002, 0), Vec3(0.02, 0.002, 0), Vec3(0, 0.002, -0.02)}});
    panels.computeMasses(0.15);
    std::vector<ClothStep> layers = {stepOf(panels, Vec3::Zero(), kDt)};
    CollisionCache fresh;
    resolveCollisions(layers, {}, {}, p, kDt, fresh);
    const double gap = panels.nodes[3].x.y() - panels.nodes[0].x.y();
    CHECK(gap == Approx(p.thickness).margin(1e-9));
  }
}

TEST_CASE("a pair of one cloth is pushed to the thickness but no farther apart than a fold of it allows",
          "[collision]") {
  // 4 x 4 cells of 3 mm, finer than the 5 mm thickness (node (i, j) = j * 5 + i at material (3 i, 3 j) mm; cell
  // (i, j) has faces 2 (4j + i) and 2 (4j + i) + 1). Each pair's distance in the world is given (`at`): the target
  // depends only on it, the thickness and the pair's material-space distance d, at most the fold chord 2 d / pi.
  Mesh grid = makeFlatGrid(4, 0.012, 0.0, false);
  std::vector<ClothStep> cloths = {stepOf(grid, Vec3::Zero(), kDt)};
  const CollisionMesh w = buildCollisionMesh(cloths, {});
  const double thickness = 0.005;
  auto at = [](double distance) {
    ContactGeometry g;
    g.distance = distance;
    return g;
  };
  // Node (0, 1) and a face of cell (3, 1): 9 mm apart in material space, more than a half circle of diameter the
  // thickness (7.85 mm), so pushed to the thickness from anywhere closer.
  const Candidate far = {false, 5, 2 * (4 + 3)};
  REQUIRE(materialDistance(w, far) == Approx(0.009));
  CHECK(proximityTarget(w, far, at(0.002), thickness) == thickness);
  CHECK(proximityTarget(w, far, at(0.0049), thickness) == thickness);
  CHECK(proximityTarget(w, far, at(0.006), thickness) == thickness);  // beyond the thickness: nothing to push
  // Node (0, 1) and a face of cell (2, 1): 6 mm apart, which a fold of the thickness holds 3.82 mm apart (2 / pi of
  // 6 mm). Pushed to that; the rule before stop 92 pushed it to min(thickness, 0.9 x 6 mm), the whole 5 mm, more
  // than a fold of the thickness gives (material_distance.h).
  const Candidate mid = {false, 5, 2 * (4 + 2)};
  REQUIRE(materialDistance(w, mid) == Approx(0.006));
  CHECK(proximityTarget(w, mid, at(0.002), thickness) == Approx(0.012 / kPi));
  CHECK(proximityTarget(w, mid, at(0.0045), thickness) == 0.0045);  // as far as a fold holds it: not pushed
  // Node (0, 1) and a face of cell (1, 1): 3 mm apart in material space. At 1 mm they are pushed to 2 / pi x 3 mm,
  // not to the 5 mm thickness, which would stretch the cloth between them by 67 % (the rule before the rest spacing;
  // docs/benchmarks.md, "ARCSim's sheet on a moving sphere").
  const Candidate near = {false, 5, 2 * (4 + 1)};
  REQUIRE(materialDistance(w, near) == Approx(0.003));
  CHECK(proximityTarget(w, near, at(0.001), thickness) == Approx(0.006 / kPi));
  CHECK(proximityTarget(w, near, at(0.0028), thickness) == 0.0028);  // past its fold chord: not pushed
  // Two edges 3 mm apart (vertical grid lines 0 and 1 of row 1 -> 2) likewise.
  const int left = edgeBetween(w, 5, 10), right = edgeBetween(w, 6, 11);
  const Candidate edges = {true, std::min(left, right), std::max(left, right)};
  REQUIRE(materialDistance(w, edges) == Approx(0.003));
  CHECK(proximityTarget(w, edges, at(0.0005), thickness) == Approx(0.006 / kPi));
}

namespace {

// A 30 mm square of 1 mm cells folded over along material x into a hairpin (the fold's axis along z): flat, a half
// circle of radius `radius` (m) at its crest, flat again, the two flanks 2 x radius apart. Material space is the
// square laid flat, so the cloth is unstretched.
Mesh hairpin(double radius) {
  const double size = 0.03, arc = kPi * radius, start = 0.5 * (size - arc);
  Mesh mesh = makeFlatGrid(30, size, 0.0, false);
  for (Node& node : mesh.nodes) {
    const double s = node.x.x();
    double x, y;
    if (s < start) {
      x = s - start, y = radius;
    } else if (s <= start + arc) {
      const double angle = (s - start) / radius;
      x = radius * std::sin(angle), y = radius * std::cos(angle);
    } else {
      x = -(s - start - arc), y = -radius;
    }
    node.x = Vec3(x, y, node.x.z());
  }
  mesh.computeMasses(0.15);
  return mesh;
}

// One call of the contact phase on a hairpin of crest radius `radius` (m), at rest: the contacts it counted and the
// farthest it moved a node (m).
std::pair<int, double> contactPassOnHairpin(double radius, const CollisionParams& p) {
  Mesh fold = hairpin(radius);
  std::vector<ClothStep> step = {stepOf(fold, Vec3::Zero(), kDt)};
  const std::vector<Vec3> before = step[0].x0;
  CollisionCache cache;
  const CollisionStepStats st = resolveCollisions(step, {}, {}, p, kDt, cache);
  double moved = 0;
  for (size_t n = 0; n < fold.nodes.size(); ++n) moved = std::max(moved, (fold.nodes[n].x - before[n]).norm());
  return {st.contacts[0], moved};
}

}  // namespace

TEST_CASE("a fold as tight as the thickness allows is left as it is, a tighter one is pushed open", "[collision]") {
  CollisionParams p;  // 5 mm thickness
  SECTION("a crest 1.1 thicknesses across") {
    // Its two flanks lie beyond the thickness, and around its crest every pair lies farther apart than its fold
    // chord. With pairs pushed to 0.9 of their material distance (the rule before stop 92) the crest's pairs some
    // 5 mm apart along the cloth were pushed from 4.3 mm to 4.5: the crest was stretched open, step after step.
    const auto [contacts, moved] = contactPassOnHairpin(0.55 * p.thickness, p);
    CHECK(contacts == 0);
    CHECK(moved < 1e-12);
  }
  SECTION("a crest half a thickness across") {
    // Its flanks, 2.5 mm apart and 8-30 mm apart along the cloth, are layers: pushed to the thickness.
    const auto [contacts, moved] = contactPassOnHairpin(0.25 * p.thickness, p);
    CHECK(contacts > 0);
    CHECK(moved > 1e-3);
  }
}
