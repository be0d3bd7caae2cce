// Handles bound to an obstacle's surface (`bind_to`): following rigid and deforming obstacles, input errors,
// remeshing, and a whole shot through the executable.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "app/bind_surface.h"
#include "app/scene.h"
#include "dynamics/step.h"
#include "io/error.h"
#include "io/obj.h"
#include "mesh/generators.h"
#include "remesh/remesh.h"
#include "test_util.h"

using namespace adacloth;
using adacloth::test::TempDir;

namespace {

// The affine map (A, b) taking the first four points of `from` to those of `to` (a rigid motion of a box moves
// every point by it), found without any of the binding code.
struct Affine {
  Mat3 a;
  Vec3 b;
  Vec3 operator()(const Vec3& p) const { return a * p + b; }
};

Affine affineBetween(const std::vector<Vec3>& from, const std::vector<Vec3>& to, const std::array<int, 4>& ids) {
  Mat3 f, t;
  for (int k = 0; k < 3; ++k) {
    f.col(k) = from[ids[k + 1]] - from[ids[0]];
    t.col(k) = to[ids[k + 1]] - to[ids[0]];
  }
  Affine m{t * f.inverse(), Vec3::Zero()};
  m.b = to[ids[0]] - m.a * from[ids[0]];
  return m;
}

// A 1 x 1 x 0.2 m box that moves and turns between t = 0 and 1 s.
Obstacle movingBox() {
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::Box;
  spec.name = "box";
  spec.place = "/obstacles/0";
  spec.size = Vec3(1, 1, 0.2);
  spec.motion = {{0.0, Vec3::Zero(), Vec3::Zero(), 1.0}, {1.0, Vec3(0.3, 0.2, -0.1), Vec3(20, 30, 45), 1.0}};
  return Obstacle(spec, "conf/s.json");
}

// A 0.4 m square grid centred over the box's +Z face (z = 0.1), `clearance` m above it.
Mesh gridOverBox(int cells, double clearance) {
  Mesh mesh = makeGrid(0.4, 0.4, cells, cells);
  for (Node& n : mesh.nodes) n.x = Vec3(n.x.x() - 0.2, n.x.y() - 0.2, 0.1 + clearance);
  mesh.updateGeometry();
  mesh.computeMasses(0.15);
  return mesh;
}

HandleSpec boundRegion(Vec2 lo, Vec2 hi, const std::string& obstacle = "box") {
  HandleSpec h;
  h.select = HandleSpec::Select::Region;
  h.regionMin = lo;
  h.regionMax = hi;
  h.bindTo = obstacle;
  h.place = "/cloths/0/handles/0";
  return h;
}

Vec2 materialPoint(const Mesh& mesh, int node) { return mesh.verts[mesh.nodes[node].verts[0]].u; }

double maxDeviation(const Mesh& mesh, const HandleState& h, double t) {
  const std::vector<Vec3> targets = handleTargets(h, t);
  double worst = 0;
  for (size_t k = 0; k < h.nodes.size(); ++k) worst = std::max(worst, (mesh.nodes[h.nodes[k]].x - targets[k]).norm());
  return worst;
}

// The vertices of a unit square in the XY plane split along its diagonal (faces 1 2 3 and 1 3 4), with corner 3
// lifted by `lift` and everything shifted by `shift`: files of a deforming obstacle.
std::vector<Vec3> squareCorners(double lift) { return {{0, 0, 0}, {1, 0, 0}, {1, 1, lift}, {0, 1, 0}}; }

std::string liftedSquare(double lift, const Vec3& shift) {
  std::string text;
  for (const Vec3& c : squareCorners(lift)) {
    Vec3 p = c + shift;
    text += "v " + std::to_string(p.x()) + " " + std::to_string(p.y()) + " " + std::to_string(p.z()) + "\n";
  }
  return text + "f 1 2 3\nf 1 3 4\n";
}

std::string shotWithHandle(const std::string& handle, const std::string& obstacles) {
  return R"({"cloths": [{"mesh": {"grid": {"size": [0.4, 0.4], "cells": [2, 2]}},
                         "transform": {"translate": [-0.2, -0.2, 0.11]}, "handles": [)" + handle + R"(]}],
             "obstacles": [)" + obstacles + "]}";
}

const char* kBoxAndFloor = R"({"name": "box", "mesh": {"box": {"size": [1, 1, 0.2]}}},
                               {"name": "floor", "mesh": {"ground": {}}})";

}  // namespace

TEST_CASE("a bound surface's queries at one pose, another and the first again answer as a fresh search", "[bind]") {
  // makeBindSurface keeps its tree between calls and refits it when the surface moves: a stale tree would miss
  // triangles that moved into a query's reach.
  const Obstacle box = movingBox();
  const std::shared_ptr<const BindSurface> surface = makeBindSurface(box);
  const std::vector<Vec3> points = {{0.0, 0.0, 0.2}, {0.45, -0.3, 0.0}, {0.1, 0.6, -0.2}, {0.8, 0.8, 0.8}};
  const std::vector<double> radius(points.size(), 0.3);
  for (double t : {0.0, 1.0, 0.5, 0.0, 1.0}) {
    const std::vector<Vec3> x = box.positionsAt(t);
    const std::vector<SurfacePoint> cached = surface->nearest(x, points);
    const std::vector<SurfacePoint> fresh = nearestOnTriangles(x, box.faces(), points);
    const auto cachedNear = surface->within(x, points, radius);
    const auto freshNear = trianglesWithin(x, box.faces(), points, radius);
    for (size_t k = 0; k < points.size(); ++k) {
      CHECK(cached[k].face == fresh[k].face);
      CHECK(cached[k].distance == fresh[k].distance);
      REQUIRE(cachedNear[k].size() == freshNear[k].size());
      for (size_t i = 0; i < freshNear[k].size(); ++i) CHECK(cachedNear[k][i].face == freshNear[k][i].face);
    }
  }
}

TEST_CASE("nodes bound to a keyframed box follow its rigid motion exactly", "[bind]") {
  const Obstacle box = movingBox();
  Mesh mesh = gridOverBox(4, 0.01);
  const std::vector<Vec3> start = [&] {
    std::vector<Vec3> x;
    for (const Node& n : mesh.nodes) x.push_back(n.x);
    return x;
  }();
  BindSurfaces surfaces{{"box", makeBindSurface(box)}};
  DynamicsState state;
  state.handles = resolveHandles({boundRegion({-1, 0.39}, {1, 1}), boundRegion({-1, -1}, {0.01, 1})}, mesh, "s.json",
                                 surfaces);
  REQUIRE(state.handles[0].nodes.size() == 5);   // the top row
  REQUIRE(state.handles[1].nodes.size() == 5);   // the left column
  for (const HandleState& h : state.handles) {
    CHECK(maxDeviation(mesh, h, 0.0) < 1e-12);     // bound where they are
    for (const SurfaceBinding& b : h.bindings) {
      CHECK(b.at.distance == Approx(0.01));
      REQUIRE(!b.captures.empty());
      double total = 0;
      for (const BindCapture& c : b.captures) total += c.weight;
      CHECK(total == Approx(1.0));
    }
  }
  // Every target is the box's own rigid motion applied to the node's start position.
  const std::vector<Vec3> box0 = box.positionsAt(0.0);
  for (double t : {0.25, 0.5, 1.0, 3.0}) {
    const Affine motion = affineBetween(box0, box.positionsAt(t), {0, 1, 2, 4});
    for (const HandleState& h : state.handles) {
      const std::vector<Vec3> targets = handleTargets(h, t);
      for (size_t k = 0; k < h.nodes.size(); ++k) CHECK((targets[k] - motion(start[h.nodes[k]])).norm() < 1e-9);
    }
  }
  // Stepped by the dynamics: held nodes land on their targets, with velocities that match their displacements.
  ClothSpec cloth;
  rebuildDynamics(state, mesh, cloth.material);
  const double h = 1.0 / 48;
  for (int step = 1; step <= 48; ++step) {
    stepCloth(mesh, state, cloth.material, StepSettings(), h);
    for (const HandleState& handle : state.handles) {
      CHECK(maxDeviation(mesh, handle, state.time) < 1e-9);
      const std::vector<Vec3> before = handleTargets(handle, state.time - h), after = handleTargets(handle, state.time);
      for (size_t k = 0; k < handle.nodes.size(); ++k)
        CHECK((mesh.nodes[handle.nodes[k]].v - (after[k] - before[k]) / h).norm() < 1e-6);
    }
  }
}

TEST_CASE("nodes bound to a deforming OBJ sequence ride on its triangles", "[bind]") {
  TempDir dir("bind-sequence");
  test::writeText(dir / "sq_0000.obj", liftedSquare(0.0, Vec3::Zero()));
  test::writeText(dir / "sq_0001.obj", liftedSquare(0.4, Vec3(0.1, 0, 0)));
  test::writeText(dir / "sq_0002.obj", liftedSquare(-0.3, Vec3(0.2, 0.1, 0.3)));
  for (bool loop : {false, true}) {
    ObstacleSpec spec;
    spec.shape = ObstacleSpec::Shape::Sequence;
    spec.name = "sheet";
    spec.place = "/obstacles/0";
    spec.pattern = (dir.path() / "sq_%04d.obj").string();
    spec.sequenceFps = 2;
    spec.sequenceLoop = loop;
    const Obstacle sheet(spec, "conf/s.json");
    // Two nodes 2 cm above the interiors of the two triangles; their barycentric coordinates, worked out by hand.
    Mesh mesh = makeGrid(1, 1, 1, 1);
    mesh.nodes[0].x = Vec3(0.7, 0.2, 0.02);  // over face 1 2 3: 0.3 c1 + 0.5 c2 + 0.2 c3
    mesh.nodes[1].x = Vec3(0.2, 0.7, 0.02);  // over face 1 3 4: 0.3 c1 + 0.2 c3 + 0.5 c4
    mesh.updateGeometry();
    HandleSpec byIndex;
    byIndex.nodes = {0, 1};
    byIndex.bindTo = "sheet";
    byIndex.bindRigidity = 0;  // each node on its own triangle (a rigid pair would not follow the fold)
    auto handles = resolveHandles({byIndex}, mesh, "s.json", {{"sheet", makeBindSurface(sheet)}});
    const std::array<std::array<double, 4>, 2> weights = {{{0.3, 0.5, 0.2, 0.0}, {0.3, 0.0, 0.2, 0.5}}};
    const std::array<Tri, 2> faces = {{{0, 1, 2}, {0, 2, 3}}};
    for (double t : {0.0, 0.25, 0.5, 0.8, 1.0, 1.4, 2.6}) {
      INFO("loop " << loop << ", t = " << t);
      const std::vector<Vec3> x = sheet.positionsAt(t);
      const std::vector<Vec3> targets = handleTargets(handles[0], t);
      for (int k = 0; k < 2; ++k) {
        Vec3 p = Vec3::Zero();
        for (int c = 0; c < 4; ++c) p += weights[k][c] * x[c];
        const Tri& f = faces[k];
        const Vec3 normal = (x[f[1]] - x[f[0]]).cross(x[f[2]] - x[f[0]]).normalized();
        CHECK((targets[k] - (p + 0.02 * normal)).norm() < 1e-9);
      }
    }
  }
}

namespace {

// The two triangles of liftedSquare as a BindSurface whose corners are at positionsAt(t) at time t.
std::shared_ptr<const BindSurface> squareSurface(std::function<std::vector<Vec3>(double)> positionsAt) {
  auto surface = std::make_shared<BindSurface>();
  surface->name = "square";
  surface->faces = {{0, 1, 2}, {0, 2, 3}};
  surface->positionsAt = std::move(positionsAt);
  const std::vector<Tri> faces = surface->faces;
  surface->nearest = [faces](const std::vector<Vec3>& x, const std::vector<Vec3>& q) {
    return nearestOnTriangles(x, faces, q);
  };
  surface->within = [faces](const std::vector<Vec3>& x, const std::vector<Vec3>& q, const std::vector<double>& r) {
    return trianglesWithin(x, faces, q, r);
  };
  return surface;
}

// Flat at t <= 0, folded (corner 3 lifted 0.4 m) after.
std::shared_ptr<const BindSurface> foldingSquare() {
  return squareSurface([](double t) { return squareCorners(t > 0 ? 0.4 : 0.0); });
}

// Two nodes 10 cm above the fold line (the diagonal) of liftedSquare, 5 mm apart across it, bound with
// `smoothing`; their distance once the square has folded by lifting its corner 0.4 m.
double separationAfterFold(double smoothing) {
  const std::vector<Vec3> flat = squareCorners(0.0), folded = squareCorners(0.4);
  const std::shared_ptr<const BindSurface> surface = foldingSquare();
  const std::vector<Vec3> nodes = {{0.5 + 0.0025, 0.5 - 0.0025, 0.1}, {0.5 - 0.0025, 0.5 + 0.0025, 0.1}};
  const std::vector<SurfaceBinding> b = bindToSurface(*surface, flat, nodes, smoothing);
  REQUIRE((boundPositions(*surface, flat, b)[0] - nodes[0]).norm() < 1e-12);  // bound where they are
  REQUIRE((boundPositions(*surface, flat, b)[1] - nodes[1]).norm() < 1e-12);
  const std::vector<Vec3> after = boundPositions(*surface, folded, b);
  return (after[0] - after[1]).norm();
}

}  // namespace

TEST_CASE("bound neighbours over a fold of the surface move together with smoothing", "[bind]") {
  // Each node alone follows the triangle under it: the two triangles turn opposite ways by ~16 degrees and carry
  // nodes 10 cm off the surface ~3 cm apart. Blended over the triangles within 5 cm more, they stay close.
  const double nearestOnly = separationAfterFold(0.0), smoothed = separationAfterFold(0.05);
  CHECK(nearestOnly > 0.02);
  CHECK(smoothed < 0.0075);
}

TEST_CASE("bad bindings are input errors naming the place", "[bind]") {
  using test::shotErrorOf;
  const std::string region = R"("region": {"min": [0, 0.39], "max": [0.4, 0.41]})";
  CHECK(shotErrorOf(shotWithHandle("{" + region + R"(, "bind_to": "box"})", kBoxAndFloor)).empty());

  std::string unknown = shotErrorOf(shotWithHandle("{" + region + R"(, "bind_to": "bax"})", kBoxAndFloor));
  CHECK_THAT(unknown, Catch::Contains("/cloths/0/handles/0/bind_to") && Catch::Contains("unknown obstacle \"bax\"") &&
                          Catch::Contains("did you mean \"box\"") && Catch::Contains("obstacles: box, floor"));
  std::string none = shotErrorOf(shotWithHandle("{" + region + R"(, "bind_to": "box"})", ""));
  CHECK_THAT(none, Catch::Contains("/cloths/0/handles/0/bind_to") && Catch::Contains("none in this shot"));

  std::string rigid = shotErrorOf(shotWithHandle("{" + region + R"(, "bind_to": "box", "bind_rigidity": 1.5})",
                                                 kBoxAndFloor));
  CHECK_THAT(rigid, Catch::Contains("/cloths/0/handles/0/bind_rigidity"));

  std::string ground = shotErrorOf(shotWithHandle("{" + region + R"(, "bind_to": "floor"})", kBoxAndFloor));
  CHECK_THAT(ground, Catch::Contains("/cloths/0/handles/0/bind_to") && Catch::Contains("ground plane"));

  std::string moving = shotErrorOf(shotWithHandle(
      "{" + region + R"(, "bind_to": "box", "motion": [{"time": 0, "translate": [0, 0, 0]}]})", kBoxAndFloor));
  CHECK_THAT(moving, Catch::Contains("/cloths/0/handles/0/motion") && Catch::Contains("bind_to"));

  // 1 cm above the box: fine with the default max_distance, too far with 5 mm (found when the scene is built).
  CHECK_NOTHROW(buildScene(parseShot(shotWithHandle("{" + region + R"(, "bind_to": "box"})", kBoxAndFloor),
                                     "conf/s.json")));
  const Shot tooFar = parseShot(shotWithHandle("{" + region + R"(, "bind_to": "box", "max_distance": 0.005})",
                                               kBoxAndFloor),
                                "conf/s.json");
  try {
    buildScene(tooFar);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("conf/s.json: /cloths/0/handles/0/bind_to: node 6 is 0.01 m") &&
                                          Catch::Contains("obstacle \"box\"") &&
                                          Catch::Contains("max_distance 0.005 m"));
  }
}

TEST_CASE("bound nodes stay on the surface across remeshes", "[bind]") {
  const Obstacle box = movingBox();
  Mesh mesh = gridOverBox(4, 0.01);
  DynamicsState state;
  state.handles = resolveHandles({boundRegion({-1, 0.39}, {1, 1})}, mesh, "s.json", {{"box", makeBindSurface(box)}});
  ClothSpec cloth;
  rebuildDynamics(state, mesh, cloth.material);
  const size_t heldAtStart = state.handles[0].nodes.size();
  size_t mostHeld = heldAtStart;
  // Fine, then coarse, then fine again: splits add held nodes on the bound row, collapses remove free ones.
  const double sizes[] = {0.04, 0.2, 0.05};
  for (double size : sizes) {
    for (int step = 0; step < 6; ++step) stepCloth(mesh, state, cloth.material, StepSettings(), 1.0 / 48);
    mesh.updateGeometry();
    std::vector<Mat2> sizing(mesh.verts.size(), Mat2::Identity() / (size * size));
    RemeshResult r = remesh(mesh, sizing, RemeshParams(), pinnedMask(state.handles, mesh.nodes.size()));
    mesh.computeMasses(cloth.material.density);
    remapHandles(state.handles, mesh, r.nodeMap, state.time);
    rebuildDynamics(state, mesh, cloth.material);
    mostHeld = std::max(mostHeld, state.handles[0].nodes.size());
    // Newly held nodes are bound where they are; every held node is 1 cm off the box's face, now and later.
    CHECK(maxDeviation(mesh, state.handles[0], state.time) < 1e-9);
    for (int step = 0; step < 6; ++step) stepCloth(mesh, state, cloth.material, StepSettings(), 1.0 / 48);
    const std::vector<Vec3> boxX = box.positionsAt(state.time);
    std::vector<Vec3> held;
    for (int i : state.handles[0].nodes) held.push_back(mesh.nodes[i].x);
    for (const SurfacePoint& p : nearestOnTriangles(boxX, box.faces(), held)) CHECK(p.distance == Approx(0.01));
    CHECK(maxDeviation(mesh, state.handles[0], state.time) < 1e-9);
  }
  CHECK(mostHeld > heldAtStart);  // the test did exercise new bound nodes
}

TEST_CASE("a held node split from a held edge stays between its ends on a deforming surface", "[bind]") {
  // A 0.4 m sheet 2 cm over liftedSquare, held along its top row (3 nodes); a finer remesh splits the held edges.
  // The square then folds: a node bound afresh to it would follow its own smoothed motion; a split node must stay
  // exactly between the two held nodes it was split from, so the held row keeps its shape.
  const std::vector<Vec3> flat = squareCorners(0.0), folded = squareCorners(0.4);
  const std::shared_ptr<const BindSurface> surface = foldingSquare();
  Mesh mesh = makeGrid(0.4, 0.4, 2, 2);
  for (Node& n : mesh.nodes) n.x = Vec3(n.x.x() + 0.3, n.x.y() + 0.3, 0.02);
  mesh.updateGeometry();
  std::vector<HandleState> handles = resolveHandles({boundRegion({-1, 0.39}, {1, 1}, "square")}, mesh, "s.json",
                                                    {{"square", surface}});
  REQUIRE(handles[0].nodes.size() == 3);
  const std::vector<int> heldBefore = handles[0].nodes;
  std::vector<Mat2> sizing(mesh.verts.size(), Mat2::Identity() / (0.06 * 0.06));
  const RemeshResult r = remesh(mesh, sizing, RemeshParams(), pinnedMask(handles, mesh.nodes.size()));
  remapHandles(handles, mesh, r.nodeMap, 0.0);
  std::vector<char> original(mesh.nodes.size(), 0);
  for (int i : heldBefore) original[r.nodeMap[i]] = 1;
  const HandleState& h = handles[0];
  REQUIRE(h.nodes.size() >= 7);  // 0.4 m at most 6 cm apart
  CHECK(maxDeviation(mesh, h, 0.0) < 1e-12);
  // Held nodes by material x along the row. A new one and its two neighbours there lie between the same two original
  // held nodes, so its target must be the material-space interpolation of theirs.
  std::vector<std::pair<double, size_t>> row;
  for (size_t k = 0; k < h.nodes.size(); ++k) row.push_back({materialPoint(mesh, h.nodes[k]).x(), k});
  std::sort(row.begin(), row.end());
  const std::vector<Vec3> targets = handleTargets(h, 1.0), fresh = [&] {
    std::vector<Vec3> x;
    for (int i : h.nodes) x.push_back(mesh.nodes[i].x);
    return boundPositions(*surface, folded, bindToSurface(*surface, flat, x, h.spec.bindSmoothing));
  }();
  double offLine = 0, freshOffLine = 0;
  for (size_t k = 1; k + 1 < row.size(); ++k) {
    const size_t a = row[k - 1].second, m = row[k].second, b = row[k + 1].second;
    if (original[h.nodes[m]]) continue;
    const double t = (row[k].first - row[k - 1].first) / (row[k + 1].first - row[k - 1].first);
    offLine = std::max(offLine, (targets[m] - ((1 - t) * targets[a] + t * targets[b])).norm());
    freshOffLine = std::max(freshOffLine, (fresh[m] - ((1 - t) * fresh[a] + t * fresh[b])).norm());
  }
  CHECK(offLine < 1e-12);
  CHECK(freshOffLine > 1e-4);  // what binding each node afresh would give: the test can tell the two apart
}

TEST_CASE("simulate: a cloth bound to a moving sphere follows it in the written frames", "[bind]") {
  TempDir dir("bind-shot");
  // A 20 cm square over the sphere's +Z pole, bound along its middle row; the sphere moves and turns about its
  // centre, so the held nodes must move by the same rigid motion as the sphere's vertices.
  test::writeText(dir / "shot.json", R"({
    "frames": 3,
    "cloths": [{"name": "patch", "mesh": {"grid": {"size": [0.2, 0.2], "cells": [4, 4]}},
                "transform": {"translate": [-0.1, -0.1, 0.31]},
                "handles": [{"region": {"min": [0, 0.09], "max": [0.2, 0.11]}, "bind_to": "ball"}]}],
    "obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.3, "subdivisions": 2}},
                   "motion": [{"time": 0, "translate": [0, 0, 0]},
                              {"time": 0.125, "translate": [0.06, 0.03, 0], "rotate_deg": [0, 0, 40]}]}]
  })");
  const fs::path out = dir / "out";
  test::RunResult r = test::runAdacloth("simulate '" + (dir / "shot.json").string() + "' -o '" + out.string() + "'");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  const Mesh cloth0 = readObj(out / "frames" / "patch_00000.obj");
  std::vector<Vec3> ballStart, ballNow;
  std::vector<Tri> ballFaces;
  readObstacleObj((out / "obstacles" / "ball_00000.obj").string(), ballStart, ballFaces);
  for (int frame = 1; frame <= 3; ++frame) {
    char name[32];
    std::snprintf(name, sizeof name, "_%05d.obj", frame);
    const Mesh cloth = readObj(out / "frames" / ("patch" + std::string(name)));
    readObstacleObj((out / "obstacles" / ("ball" + std::string(name))).string(), ballNow, ballFaces);
    const Affine motion = affineBetween(ballStart, ballNow, {0, 1, 2, 5});
    REQUIRE(motion.a.determinant() == Approx(1.0).epsilon(1e-6));  // a rotation: the four vertices span space
    INFO("frame " << frame);
    for (int i = 10; i <= 14; ++i) CHECK((cloth.nodes[i].x - motion(cloth0.nodes[i].x)).norm() < 1e-6);
    CHECK((cloth.nodes[12].x - cloth0.nodes[12].x).norm() > 0.01);  // it did move
  }
}

namespace {

// liftedSquare's corners (flat) as a BindSurface that at time t (s) is stretched by 1 + stretch t along x, then
// turned by 0.6 t rad about an axis (1, 2, 2) / 3 and moved by (0.1, -0.2, 0.3) t.
Vec3 squareMotion(double stretch, double t, const Vec3& p) {
  const Mat3 turn = Eigen::AngleAxisd(0.6 * t, Vec3(1, 2, 2) / 3.0).toRotationMatrix();
  return turn * Vec3((1 + stretch * t) * p.x(), p.y(), p.z()) + t * Vec3(0.1, -0.2, 0.3);
}

std::shared_ptr<const BindSurface> stretchingSquare(double stretch) {
  return squareSurface([stretch](double t) {
    std::vector<Vec3> x = squareCorners(0.0);
    for (Vec3& p : x) p = squareMotion(stretch, t, p);
    return x;
  });
}

// The largest relative change of the distance between any two targets from time 0 to time t.
double largestShapeChange(const HandleState& h, double t) {
  const std::vector<Vec3> a = handleTargets(h, 0.0), b = handleTargets(h, t);
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = i + 1; j < a.size(); ++j)
      worst = std::max(worst, std::abs((b[i] - b[j]).norm() / (a[i] - a[j]).norm() - 1));
  return worst;
}

// A 0.4 m sheet (4 x 4 cells) 2 cm over the square, held from material v = `from` up (0.19: its top three rows)
// and bound with `rigidity`.
std::vector<HandleState> rigidBand(Mesh& mesh, const std::shared_ptr<const BindSurface>& surface, double rigidity,
                                   double from = 0.19) {
  mesh = makeGrid(0.4, 0.4, 4, 4);
  for (Node& n : mesh.nodes) n.x = Vec3(n.x.x() + 0.3, n.x.y() + 0.3, 0.02);
  mesh.updateGeometry();
  HandleSpec spec = boundRegion({-1, from}, {1, 1}, "square");
  spec.bindRigidity = rigidity;
  return resolveHandles({spec}, mesh, "s.json", {{"square", surface}});
}

}  // namespace

TEST_CASE("bind_rigidity 1: a band bound to a stretching surface keeps its shape and follows its motion",
          "[bind]") {
  Mesh mesh;
  const auto stretching = stretchingSquare(0.5);
  const std::vector<HandleState> follow = rigidBand(mesh, stretching, 0.0), rigid = rigidBand(mesh, stretching, 1.0),
                                 half = rigidBand(mesh, stretching, 0.5);
  REQUIRE(rigid[0].nodes.size() == 15);
  CHECK(maxDeviation(mesh, rigid[0], 0.0) < 1e-12);  // bound where they are
  CHECK(largestShapeChange(follow[0], 1.0) > 0.3);    // the surface stretches the band by 1.5x along x
  CHECK(largestShapeChange(rigid[0], 1.0) < 1e-9);
  // Between: the blend of the two, node by node.
  const std::vector<Vec3> f = handleTargets(follow[0], 1.0), r = handleTargets(rigid[0], 1.0),
                          h = handleTargets(half[0], 1.0);
  for (size_t k = 0; k < f.size(); ++k) CHECK((h[k] - 0.5 * (f[k] + r[k])).norm() < 1e-12);
  // The rigid fit follows the surface's mean motion: the band's centre stays within the stretch's reach of the
  // followed one, and the band turns with the surface.
  Vec3 fc = Vec3::Zero(), rc = Vec3::Zero();
  for (size_t k = 0; k < f.size(); ++k) fc += f[k] / double(f.size()), rc += r[k] / double(r.size());
  CHECK((fc - rc).norm() < 1e-9);  // least squares: the centroids coincide
  // A surface that only moves and turns moves a rigid band as it moves a followed one.
  const auto moving = stretchingSquare(0.0);
  const std::vector<HandleState> followRigid = rigidBand(mesh, moving, 0.0), rigidRigid = rigidBand(mesh, moving, 1.0);
  for (double t : {0.3, 1.0, 2.0}) {
    const std::vector<Vec3> a = handleTargets(followRigid[0], t), b = handleTargets(rigidRigid[0], t);
    for (size_t k = 0; k < a.size(); ++k) CHECK((a[k] - b[k]).norm() < 1e-9);
  }
}

TEST_CASE("bind_rigidity 1: nodes a remesh adds to a rigid band keep the band rigid and do not jump", "[bind]") {
  Mesh mesh;
  const auto stretching = stretchingSquare(0.5);
  // Held from v = 0.14: the top three rows, and the nodes that splits between rows 2 and 3 will add at v = 0.15.
  std::vector<HandleState> handles = rigidBand(mesh, stretching, 1.0, 0.14);
  const size_t before = handles[0].nodes.size();
  // Remeshed at t = 0.5, when the surface is stretched and turned: split nodes lie between held ones, and nodes
  // that come into the region otherwise are bound where they are.
  for (Node& n : mesh.nodes) n.x = squareMotion(0.5, 0.5, n.x);
  const std::vector<Vec3> targets = handleTargets(handles[0], 0.5);
  for (size_t k = 0; k < handles[0].nodes.size(); ++k) mesh.nodes[handles[0].nodes[k]].x = targets[k];
  mesh.updateGeometry();
  std::vector<Mat2> sizing(mesh.verts.size(), Mat2::Identity() / (0.04 * 0.04));
  const RemeshResult r = remesh(mesh, sizing, RemeshParams(), pinnedMask(handles, mesh.nodes.size()));
  remapHandles(handles, mesh, r.nodeMap, 0.5);
  REQUIRE(handles[0].nodes.size() > before);
  REQUIRE(handles[0].rigidRest.size() == handles[0].nodes.size());
  int boundAfresh = 0;  // held nodes below the top three rows: no held line runs through them
  for (int i : handles[0].nodes) boundAfresh += materialPoint(mesh, i).y() < 0.19;
  REQUIRE(boundAfresh > 0);
  CHECK(maxDeviation(mesh, handles[0], 0.5) < 1e-9);
  // Later the whole band, new nodes included, has the shape it had at the remesh.
  const std::vector<Vec3> a = handleTargets(handles[0], 0.5), b = handleTargets(handles[0], 1.5);
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = i + 1; j < a.size(); ++j)
      worst = std::max(worst, std::abs((b[i] - b[j]).norm() - (a[i] - a[j]).norm()));
  CHECK(worst < 1e-9);
}
