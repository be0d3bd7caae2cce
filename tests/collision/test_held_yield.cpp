// Held cloth yielding to held cloth (held_yield.h): triangles whose nodes are all held, moved by hand as handles
// would move them, through the whole collision phase and through yieldHeldCrossings alone.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include "collision/held_yield.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

const double kDt = 0.01;

// A (nodes 0-2), a small triangle 2 mm above the large B (3-5, at y = 0), and C (6-8), far away; all held. Over the
// step the handles carry A 4 mm down, through B, and C 1 cm along x.
struct HeldLayers {
  Mesh mesh;
  std::vector<ClothStep> cloths;
  HeldLayers() {
    mesh = makeTriangles({{Vec3(-0.05, 0.002, 0.05), Vec3(0.05, 0.002, 0.05), Vec3(0, 0.002, -0.05)},
                          {Vec3(-1, 0, 1), Vec3(1, 0, 1), Vec3(0, 0, -1)},
                          {Vec3(2, 0, 0), Vec3(2.1, 0, 0), Vec3(2, 0, -0.1)}});
    cloths = {stepOf(mesh, Vec3::Zero(), kDt)};
    cloths[0].pinned.assign(mesh.nodes.size(), 1);
    for (int n = 0; n < 3; ++n) carry(n, Vec3(0, -0.004, 0));
    for (int n = 6; n < 9; ++n) carry(n, Vec3(0.01, 0, 0));
  }
  void carry(int n, const Vec3& d) {
    mesh.nodes[n].x = cloths[0].x0[n] + d;
    mesh.nodes[n].v = d / kDt;
  }
};

}  // namespace

TEST_CASE("held cloth that its handles would carry through held cloth yields as one rigid group", "[collision]") {
  HeldLayers layers;
  CollisionParams p;
  p.thickness = 0.005;
  CollisionCache cache;
  const CollisionStepStats st = resolveCollisions(layers.cloths, {}, {}, p, kDt, cache);
  CHECK(st.heldYields == 1);
  CHECK(st.unresolved == 0);
  const std::vector<Node>& nodes = layers.mesh.nodes;
  const std::vector<Vec3>& x0 = layers.cloths[0].x0;
  // A and B move as one rigid body (the motion that best fits theirs), so A stays 2 mm above B.
  for (int i = 0; i < 6; ++i)
    for (int j = i + 1; j < 6; ++j) CHECK((nodes[i].x - nodes[j].x).norm() == Approx((x0[i] - x0[j]).norm()));
  const Vec3 normal = (nodes[4].x - nodes[3].x).cross(nodes[5].x - nodes[3].x).normalized();
  for (int n = 0; n < 3; ++n) CHECK(std::abs(normal.dot(nodes[n].x - nodes[3].x)) == Approx(0.002).margin(1e-12));
  for (int n = 0; n < 6; ++n) CHECK((nodes[n].v - (nodes[n].x - x0[n]) / kDt).norm() < 1e-9);
  CHECK((nodes[0].x + nodes[1].x + nodes[2].x).y() / 3 < x0[0].y());  // A went down part of the way
  // C touches nothing: it is where its handle put it.
  for (int n = 6; n < 9; ++n) CHECK((nodes[n].x - (layers.cloths[0].x0[n] + Vec3(0.01, 0, 0))).norm() < 1e-15);
}

TEST_CASE("held cloth that nothing stands in the way of goes where its handles put it", "[collision]") {
  HeldLayers layers;
  for (int n = 0; n < 3; ++n) layers.carry(n, Vec3(0, 0.004, 0));  // A rises away from B
  const std::vector<Node> before = layers.mesh.nodes;
  CollisionParams p;
  p.thickness = 0.005;
  CollisionCache cache;
  const CollisionStepStats st = resolveCollisions(layers.cloths, {}, {}, p, kDt, cache);
  CHECK(st.heldYields == 0);
  for (size_t n = 0; n < before.size(); ++n) {
    CHECK(layers.mesh.nodes[n].x == before[n].x);
    CHECK(layers.mesh.nodes[n].v == before[n].v);
  }
}

TEST_CASE("a held group that turns is not held back by its own pairs", "[collision]") {
  // A 0.3 mm over B, both turned a quarter turn about an axis along x through B's far corner while A sinks 1 mm
  // through B: one group, moved rigidly by the best fit of the turn. Its pairs keep their distances, but CCD, which
  // moves points along straight lines, sees them come closer mid-step than the 0.25 mm contact distance.
  Mesh mesh = makeTriangles({{Vec3(-0.05, 0.0003, 0.05), Vec3(0.05, 0.0003, 0.05), Vec3(0, 0.0003, -0.05)},
                             {Vec3(-0.5, 0, 0.5), Vec3(0.5, 0, 0.5), Vec3(0, 0, -0.5)}});
  std::vector<ClothStep> cloths = {stepOf(mesh, Vec3::Zero(), kDt)};
  cloths[0].pinned.assign(mesh.nodes.size(), 1);
  const Eigen::AngleAxisd turn(0.5 * M_PI, Vec3::UnitX());
  const Vec3 axis(0, 0, -0.5);
  for (int n = 0; n < 6; ++n) {
    const Vec3 sink = n < 3 ? Vec3(0, -0.001, 0) : Vec3::Zero();
    mesh.nodes[n].x = axis + turn * (cloths[0].x0[n] + sink - axis);
    mesh.nodes[n].v = (mesh.nodes[n].x - cloths[0].x0[n]) / kDt;
  }
  CollisionMesh w = buildCollisionMesh(cloths, {});
  CollisionState s;
  loadState(s, cloths, {}, {}, kDt);
  const HeldYieldStats st = yieldHeldCrossings(w, s, 0.05 * 0.005, 32);
  CHECK(st.groups == 1);
  CHECK(st.passes == 1);
  CHECK(st.left == 0);
  CHECK(st.largestShift > 0);
  CHECK(st.largestShift < 0.001);  // about half the sink
  // Rigid: A is still 0.3 mm from B's plane.
  const Vec3 normal = (s.x1[4] - s.x1[3]).cross(s.x1[5] - s.x1[3]).normalized();
  for (int n = 0; n < 3; ++n) CHECK(std::abs(normal.dot(s.x1[n] - s.x1[3])) == Approx(0.0003).margin(1e-12));
}
