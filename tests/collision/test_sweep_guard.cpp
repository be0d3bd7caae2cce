// The remesh sweep guard (collision/sweep_guard.h): its separating-axis tests, a remesh that would cut through an
// obstacle without it, and flips and collapses that would fold the cloth through itself around a node.
#include <catch2/catch.hpp>

#include <random>

#include "collision/geometry.h"
#include "collision/measure.h"
#include "collision/obstacle_field.h"
#include "collision/sweep_guard.h"
#include "collision_fixtures.h"
#include "mesh/generators.h"
#include "remesh/collapse.h"
#include "remesh/flip.h"
#include "remesh/remesh.h"
#include "remesh/split.h"

using namespace adacloth;
using adacloth::testing::groundSpec;
using adacloth::testing::sphereSpec;

namespace {

const Tet kUnitTet = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};

// A 1 x 1 grid folded into a roof along x = 0.5 (ridge height 0.3 m), and a small horizontal triangle tucked under
// the ridge: any coarsening across the ridge flattens it into a chord through the triangle.
Mesh roof(int cells) {
  Mesh mesh = makeGrid(1, 1, cells, cells);
  for (Node& n : mesh.nodes) n.x.z() = 0.3 * (1 - std::abs(2 * n.x.x() - 1));
  mesh.updateGeometry();
  return mesh;
}

const Triangle kUnderRidge = {Vec3(0.47, 0.2, 0.25), Vec3(0.53, 0.2, 0.25), Vec3(0.5, 0.8, 0.25)};

bool cutsUnderRidge(const Mesh& mesh) {
  for (size_t f = 0; f < mesh.faces.size(); ++f) {
    const Tri n = mesh.faceNodes(int(f));
    if (trianglesIntersect(mesh.nodes[n[0]].x, mesh.nodes[n[1]].x, mesh.nodes[n[2]].x, kUnderRidge[0],
                           kUnderRidge[1], kUnderRidge[2]))
      return true;
  }
  return false;
}

RemeshResult coarsen(Mesh& mesh, const SweepCheck* check) {
  const Mat2 coarse = Mat2::Identity() / (0.6 * 0.6);  // edges up to 0.6 m
  return remesh(mesh, std::vector<Mat2>(mesh.verts.size(), coarse), RemeshParams(), {}, check);
}

// The remesher's check answered by `guard`, as the frame loop wires it (src/app/simulate.cpp).
SweepCheck checkWith(SweepGuard& guard) {
  SweepCheck check;
  check.beginBatch = [&guard](const Mesh& mesh, int batch, const std::vector<int>& faceMap) {
    guard.beginBatch(mesh, batch, faceMap);
  };
  check.allow = [&guard](const std::vector<Tet>& sweep, const std::vector<Triangle>& made) {
    return guard.allow(sweep, made);
  };
  return check;
}

}  // namespace

TEST_CASE("a tetrahedron and a triangle: crossing, apart, touching at a shared corner, inside", "[collision]") {
  CHECK(tetIntersectsTriangle(kUnitTet, {Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), Vec3(-1, 5, 0.1)}));  // through it
  CHECK_FALSE(tetIntersectsTriangle(kUnitTet, {Vec3(2, 2, 2), Vec3(3, 2, 2), Vec3(2, 3, 2)}));
  // Shares corner (1,0,0) and leaves away from the tetrahedron: apart (touching is not an intersection).
  CHECK_FALSE(tetIntersectsTriangle(kUnitTet, {Vec3(1, 0, 0), Vec3(2, -1, 0), Vec3(2, 0, -1)}));
  // Lies against the face z = 0 from outside, in its plane: apart.
  CHECK_FALSE(tetIntersectsTriangle(kUnitTet, {Vec3(0, 0, 0), Vec3(-1, 0, 0), Vec3(0, -1, 0)}));
  // A small triangle inside.
  CHECK(tetIntersectsTriangle(kUnitTet, {Vec3(0.1, 0.1, 0.1), Vec3(0.2, 0.1, 0.1), Vec3(0.1, 0.2, 0.1)}));
  // Shares a corner and dips into the tetrahedron: an intersection.
  CHECK(tetIntersectsTriangle(kUnitTet, {Vec3(1, 0, 0), Vec3(0.1, 0.1, 0.1), Vec3(0.1, 0.2, 0.2)}));
}

TEST_CASE("two tetrahedra: overlapping, sharing a corner only", "[collision]") {
  Tet shifted = kUnitTet;
  for (Vec3& p : shifted) p += Vec3(0.1, 0.1, 0.1);
  CHECK(tetsIntersect(kUnitTet, shifted));
  Tet mirrored = kUnitTet;
  for (Vec3& p : mirrored) p = -p;  // meets kUnitTet at the origin only
  CHECK_FALSE(tetsIntersect(kUnitTet, mirrored));
}

TEST_CASE("a triangle set answers the same with and without its tree", "[collision]") {
  // 400 small triangles scattered in a 1 m box, some sharing corners with the tetrahedra asked about.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0), small(-0.08, 0.08);
  auto near = [&](const Vec3& p) { return Vec3(p + Vec3(small(random), small(random), small(random))); };
  std::vector<Triangle> triangles;
  std::vector<Vec3> corners;
  for (int k = 0; k < 400; ++k) {
    const Vec3 p(unit(random), unit(random), unit(random));
    triangles.push_back({p, near(p), near(p)});
    corners.push_back(p);
  }
  const TriangleSet indexed(triangles), scanned(triangles, false);
  TriangleSet lazy(triangles, false);
  lazy.indexWhenNear();
  CHECK(indexed.indexed());
  CHECK_FALSE(scanned.indexed());
  // A query outside the set's bounds does not build its tree; the first one inside does.
  const Vec3 far(5, 5, 5);
  CHECK_FALSE(lazy.reaches({far, far + Vec3(0.01, 0, 0), far + Vec3(0, 0.01, 0), far + Vec3(0, 0, 0.01)}));
  CHECK_FALSE(lazy.indexed());
  int reached = 0;
  for (int k = 0; k < 300; ++k) {
    const Vec3 p = k % 3 == 0 ? corners[size_t(k)] : Vec3(unit(random), unit(random), unit(random));
    const Tet tet = {p, near(p), near(p), near(p)};
    const bool answer = indexed.reaches(tet);
    CHECK(scanned.reaches(tet) == answer);
    CHECK(lazy.reaches(tet) == answer);
    reached += answer;
  }
  CHECK(lazy.indexed());
  CHECK(reached > 10);   // both answers occur
  CHECK(reached < 290);
}

TEST_CASE("a triangle set read again from a changed cloth answers as one built from it", "[collision]") {
  // A crumpled sheet read with its tree, then moved and re-triangulated (every diagonal flipped: the same face count,
  // so the tree is refitted, not rebuilt), then coarser (another count: no tree until asked for one).
  Mesh sheet = testing::makeFlatGrid(12, 1.0, 0.0, false);
  std::mt19937 random(9);
  std::uniform_real_distribution<double> wobble(-0.05, 0.05), unit(0.0, 1.0), small(-0.06, 0.06);
  for (Node& n : sheet.nodes) n.x.y() += wobble(random);
  TriangleSet set = TriangleSet::of(sheet);
  REQUIRE(set.indexed());
  auto sameAnswers = [&](const Mesh& mesh) {
    const TriangleSet fresh = TriangleSet::of(mesh);
    int reached = 0;
    for (int k = 0; k < 400; ++k) {
      const Vec3 p(unit(random) - 0.5, small(random), unit(random) - 0.5);
      const Tet tet = {p, Vec3(p + Vec3(small(random), small(random), small(random))),
                       Vec3(p + Vec3(small(random), small(random), small(random))),
                       Vec3(p + Vec3(small(random), small(random), small(random)))};
      const bool answer = fresh.reaches(tet);
      CHECK(set.reaches(tet) == answer);
      reached += answer;
    }
    CHECK(reached > 10);  // both answers occur
    CHECK(reached < 390);
  };
  Mesh flipped = testing::makeFlatGrid(12, 1.0, 0.0, true);
  for (size_t i = 0; i < flipped.nodes.size(); ++i) flipped.nodes[i].x = sheet.nodes[i].x + Vec3(0, 0.01, 0);
  set.reread(flipped);
  CHECK(set.indexed());
  sameAnswers(flipped);
  Mesh coarser = testing::makeFlatGrid(7, 1.0, 0.0, false);
  set.reread(coarser);
  CHECK_FALSE(set.indexed());
  set.buildIndex();
  sameAnswers(coarser);
}

TEST_CASE("an obstacle field's triangle sets, with the field's trees, answer as sets built from the poses",
          "[collision]") {
  // The frame loop hands the sweep guard the frame field's trees instead of building its own.
  std::vector<Obstacle> obstacles = {Obstacle(sphereSpec(0.3, Vec3(0.5, 0.5, 0.5)), "test"),
                                     Obstacle(groundSpec(), "test"),
                                     Obstacle(sphereSpec(0.2, Vec3(0.2, 0.8, 0.3)), "test")};
  const std::vector<ObstaclePose> poses = posesAt(obstacles, 0.0);
  const ObstacleField field(poses);  // the sets borrow its triangles and trees
  const std::vector<TriangleSet> fromField = obstacleTriangles(field);
  REQUIRE(fromField.size() == 2);  // the ground is left out
  std::vector<TriangleSet> built;
  for (const ObstaclePose& pose : poses) {
    if (pose.obstacle->isGround()) continue;
    std::vector<Triangle> triangles;
    for (const Tri& f : pose.obstacle->faces()) triangles.push_back({pose.x[f[0]], pose.x[f[1]], pose.x[f[2]]});
    built.emplace_back(std::move(triangles), false);
  }
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0), small(-0.1, 0.1);
  int reached = 0;
  for (int k = 0; k < 400; ++k) {
    const Vec3 p(unit(random), unit(random), unit(random));
    const Tet tet = {p, p + Vec3(small(random), small(random), small(random)),
                     p + Vec3(small(random), small(random), small(random)),
                     p + Vec3(small(random), small(random), small(random))};
    for (size_t o = 0; o < built.size(); ++o) {
      const bool answer = built[o].reaches(tet);
      CHECK(fromField[o].reaches(tet) == answer);
      reached += answer;
    }
  }
  CHECK(reached > 10);
  CHECK(reached < 790);
}

TEST_CASE("the sweep guard refuses sweeps into fixed triangles and into sweeps allowed earlier in the batch",
          "[collision]") {
  const TriangleSet obstacle({kUnderRidge});
  SweepGuard guard({&obstacle}, false);
  Mesh mesh = roof(4);
  guard.beginBatch(mesh, 0);
  const Tet throughTriangle = {Vec3(0.5, 0.5, 0.3), Vec3(0.5, 0.5, 0.1), Vec3(0.4, 0.4, 0.2), Vec3(0.6, 0.4, 0.2)};
  CHECK_FALSE(guard.allow({throughTriangle}));
  const Tet clear = {Vec3(2, 0, 0), Vec3(3, 0, 0), Vec3(2, 1, 0), Vec3(2, 0, 1)};
  CHECK(guard.allow({clear}));
  Tet overlapping = clear;
  for (Vec3& p : overlapping) p += Vec3(0.2, 0.2, 0.2);
  CHECK_FALSE(guard.allow({overlapping}));  // into the sweep just allowed
  CHECK(guard.refused() == 2);
  guard.beginBatch(mesh, 1);                // a new batch starts from the mesh as it then is
  CHECK(guard.allow({overlapping}));
}

namespace {

using namespace adacloth::testing::fold;

Mesh foldedQuad(const Vec3& z) { return adacloth::testing::fold::foldedQuad(z, kBeforeFlip); }

// Pairs of faces that share exactly one node and cross beyond it.
int crossingsAtSharedNodes(const Mesh& mesh) {
  int crossings = 0;
  for (size_t a = 0; a < mesh.faces.size(); ++a)
    for (size_t b = a + 1; b < mesh.faces.size(); ++b) {
      const Tri na = mesh.faceNodes(int(a)), nb = mesh.faceNodes(int(b));
      int shared = 0;
      for (int i : na)
        for (int j : nb) shared += i == j;
      const Triangle ta = {mesh.nodes[na[0]].x, mesh.nodes[na[1]].x, mesh.nodes[na[2]].x};
      const Triangle tb = {mesh.nodes[nb[0]].x, mesh.nodes[nb[1]].x, mesh.nodes[nb[2]].x};
      crossings += shared == 1 && trianglesOverlap(ta, tb);
    }
  return crossings;
}

}  // namespace

TEST_CASE("two triangles that share a corner: crossing beyond it, apart, sharing an edge", "[collision]") {
  CHECK(trianglesOverlap({kP, kC, kFoldedOver}, {kD, kQ, kC}));
  CHECK_FALSE(trianglesOverlap({kP, kC, kFlatOutside}, {kD, kQ, kC}));
  CHECK_FALSE(trianglesOverlap({kP, kC, kFoldedOver}, {kQ, kP, kD}));  // shares p, passes beside it
  CHECK_FALSE(trianglesOverlap({kP, kQ, kC}, {kQ, kP, kD}));           // shares pq: touching along it
  CHECK(trianglesOverlap({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)},
                         {Vec3(0.2, 0.2, -0.5), Vec3(0.2, 0.2, 0.5), Vec3(3, 3, 0)}));  // no corner shared
}

TEST_CASE("the sweep guard refuses a flip whose new face would lie through the neighbour of the other new face",
          "[collision]") {
  // The neighbour shares an edge with the flip's tetrahedron, so the tetrahedron test alone cannot tell a neighbour
  // folded through a new face from one lying beside it: the made faces decide.
  const Tet flip = {kP, kQ, kC, kD};
  const std::vector<Triangle> made = {{kC, kP, kD}, {kD, kQ, kC}};
  const Mesh folded = foldedQuad(kFoldedOver), flat = foldedQuad(kFlatOutside);
  SweepGuard guard({}, true);
  guard.beginBatch(folded, 0);
  CHECK(guard.allow({flip}));  // what the tetrahedron alone says
  guard.beginBatch(folded, 1);
  CHECK_FALSE(guard.allow({flip}, made));
  guard.beginBatch(flat, 2);
  CHECK(guard.allow({flip}, made));
  // A collapse's made faces share its kept node: two of them folded through each other are refused.
  SweepGuard collapse({}, true);
  collapse.beginBatch(flat, 0);
  CHECK_FALSE(collapse.allow({}, {{kC, kP, kFoldedOver}, {kC, kD, kQ}}));
  CHECK(collapse.allow({}, {{kC, kP, kFlatOutside}, {kC, kD, kQ}}));
}

TEST_CASE("a guarded flip pass leaves no faces crossing at a shared node; the flip it refuses is the folded one",
          "[collision]") {
  for (const bool foldedOver : {true, false}) {
    Mesh mesh = foldedQuad(foldedOver ? kFoldedOver : kFlatOutside);
    REQUIRE(crossingsAtSharedNodes(mesh) == 0);
    SweepGuard guard({}, true);
    const SweepCheck check = checkWith(guard);
    RemeshState s(mesh);
    s.sizing.assign(mesh.verts.size(), Mat2::Identity());
    s.protectedNode.assign(mesh.nodes.size(), 0);
    s.originalNode.assign(mesh.nodes.size(), 0);
    s.sweepCheck = &check;
    const int flips = flipPass(s, RemeshParams());
    CHECK(flips == (foldedOver ? 0 : 1));
    CHECK(s.refused == (foldedOver ? 1 : 0));
    CHECK(crossingsAtSharedNodes(mesh) == 0);
  }
}

TEST_CASE("remeshing with the sweep guard does not cut through an obstacle; without it, it does", "[collision]") {
  const TriangleSet obstacle({kUnderRidge});
  Mesh unguarded = roof(8);
  REQUIRE_FALSE(cutsUnderRidge(unguarded));
  const RemeshResult plain = coarsen(unguarded, nullptr);
  CHECK(plain.collapses > 0);
  CHECK(cutsUnderRidge(unguarded));  // what the guard is for

  Mesh guarded = roof(8);
  SweepGuard guard({&obstacle}, true);
  const SweepCheck check = checkWith(guard);
  const RemeshResult r = coarsen(guarded, &check);
  CHECK(r.collapses > 0);  // it still coarsens away from the ridge
  CHECK(r.refused > 0);
  CHECK(r.refused == guard.refused());
  CHECK_FALSE(cutsUnderRidge(guarded));
}

TEST_CASE("a cloth's triangle set followed through remesh batches answers as one read afresh", "[collision]") {
  // Split, flip and collapse batches under a sizing field that changes between batches; after each, the set that
  // followed the faces (keeping its tree while it can) and a set read afresh are asked about the same tetrahedra.
  Mesh mesh = roof(16);
  for (Node& n : mesh.nodes) n.x.z() += 0.05 * std::sin(13.0 * n.x.y());
  mesh.updateGeometry();
  RemeshState s(mesh);
  s.protectedNode.assign(mesh.nodes.size(), 0);
  s.originalNode.assign(mesh.nodes.size(), 0);
  TriangleSet followed = TriangleSet::of(mesh);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> offset(-0.015, 0.015), lift(-0.03, 0.03);
  int kept = 0, rebuilt = 0, hits = 0, misses = 0;
  for (int batch = 0; batch < 90; ++batch) {
    s.sizing.clear();
    for (const Vert& v : mesh.verts)  // 4-9 cm, a pattern that drifts from batch to batch
      s.sizing.push_back(Mat2::Identity() / std::pow(0.065 + 0.025 * std::sin(0.4 * batch + 9.0 * v.u.x()), 2));
    const size_t facesBefore = mesh.faces.size();
    const int changed = batch % 3 == 0 ? splitPass(s, RemeshParams()) : batch % 3 == 1 ? flipPass(s, RemeshParams()) :
                                                                         collapsePass(s, RemeshParams());
    if (changed == 0) continue;
    followed.followFaces(s.faceMap);
    followed.reread(mesh);
    if (mesh.faces.size() != facesBefore) (followed.indexed() ? kept : rebuilt) += 1;
    followed.buildIndex();
    const TriangleSet fresh = TriangleSet::of(mesh);
    std::uniform_int_distribution<int> pickFace(0, int(mesh.faces.size()) - 1);
    for (int q = 0; q < 200; ++q) {
      const int face = pickFace(rng);
      const Tri n = mesh.faceNodes(face);
      const Vec3 centre = (mesh.nodes[n[0]].x + mesh.nodes[n[1]].x + mesh.nodes[n[2]].x) / 3.0 +
                          lift(rng) * mesh.faces[size_t(face)].normal;
      Tet tet;
      for (Vec3& p : tet) p = centre + Vec3(offset(rng), offset(rng), offset(rng));
      const bool answer = fresh.reaches(tet);
      REQUIRE(followed.reaches(tet) == answer);
      (answer ? hits : misses) += 1;
    }
  }
  CHECK(kept > 10);  // batches that changed the face count and kept the tree
  CHECK(rebuilt > 0);
  CHECK(hits > 500);
  CHECK(misses > 500);
}

namespace {

// A 16 x 16 sheet folded flat into an accordion: panels of 2-4 cells, fold lines on grid lines, layers `gap` (m)
// apart, each node jittered by up to `jitter` (m) in height.
Mesh accordion(std::mt19937& rng, double gap, double jitter) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int n = 16;
  const double h = 1.0 / n, width = (2 + int(3 * unit(rng))) * h;
  Mesh mesh = makeGrid(1, 1, n, n);
  for (Node& node : mesh.nodes) {
    const double a = node.x.x() + 1e-9;
    const int panel = int(std::floor(a / width));
    const double s = a - panel * width, x = panel % 2 == 0 ? s : width - s;
    const double z = s < 1e-6 ? (panel - 0.5) * gap : panel * gap;  // a fold line sits between its two layers
    node.x = Vec3(x, node.x.y(), z + jitter * (unit(rng) - 0.5));
  }
  mesh.updateGeometry();
  return mesh;
}

// Moves every node by up to `jitter` (m) along each axis, as a step of physics would, unless that makes the cloth
// cross itself.
void jiggle(Mesh& mesh, std::mt19937& rng, double jitter) {
  std::uniform_real_distribution<double> unit(-0.5, 0.5);
  std::vector<Vec3> before;
  for (Node& node : mesh.nodes) {
    before.push_back(node.x);
    node.x += jitter * Vec3(unit(rng), unit(rng), unit(rng));
  }
  mesh.updateGeometry();
  if (countIntersections({&mesh})[0] == 0) return;
  for (size_t i = 0; i < before.size(); ++i) mesh.nodes[i].x = before[i];
  mesh.updateGeometry();
}

// Sheets whose remeshing (16 rounds each, moved between them) ever left the cloth crossing itself.
int crossedSheets(bool guarded, int sheets) {
  std::mt19937 rng(17);
  const double h = 1.0 / 16, gap = 0.3 * h;
  int crossed = 0;
  for (int made = 0; made < sheets;) {
    Mesh mesh = accordion(rng, gap, gap);
    if (countIntersections({&mesh})[0] != 0) continue;  // crossed as made: not a start
    ++made;
    for (int round = 0; round < 16; ++round) {
      jiggle(mesh, rng, gap);
      SweepGuard guard({}, true);
      const SweepCheck check = checkWith(guard);
      // Edges of 0.5 to 4 cells, drifting over the sheet and from round to round: splits, flips and collapses.
      std::vector<Mat2> sizing;
      for (const Vert& v : mesh.verts) {
        const double edge = h * (0.5 + 3.5 * (0.5 + 0.5 * std::sin(3.0 * round + 7.0 * v.u.x() + 5.0 * v.u.y())));
        sizing.push_back(Mat2::Identity() / (edge * edge));
      }
      remesh(mesh, sizing, RemeshParams(), {}, guarded ? &check : nullptr);
      mesh.updateGeometry();
      if (countIntersections({&mesh})[0] != 0) {
        ++crossed;
        break;
      }
    }
  }
  return crossed;
}

}  // namespace

TEST_CASE("remeshing sheets folded flat with the sweep guard never leaves the cloth crossing itself", "[collision]") {
  // Faces that share a node and cross beyond it count (collision/measure.h). Without the guard some sheets cross.
  CHECK(crossedSheets(false, 8) > 0);
  CHECK(crossedSheets(true, 8) == 0);
}
