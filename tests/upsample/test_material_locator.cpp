// Locating material points in a (remeshed) cloth mesh: the right face, exact barycentrics, snapping from outside.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "mesh/generators.h"
#include "remesh/remesh.h"
#include "upsample/material_locator.h"

using namespace adacloth;

namespace {

Vec2 pointOf(const Mesh& mesh, const MaterialLocation& m) {
  const Tri& t = mesh.faces[m.face].verts;
  return m.bary[0] * mesh.verts[t[0]].u + m.bary[1] * mesh.verts[t[1]].u + m.bary[2] * mesh.verts[t[2]].u;
}

// Brute force: does face f hold u (within round-off)?
bool faceHolds(const Mesh& mesh, int f, const Vec2& u) {
  const Tri& t = mesh.faces[f].verts;
  return nearestInTriangle(mesh.verts[t[0]].u, mesh.verts[t[1]].u, mesh.verts[t[2]].u, u).distance < 1e-12;
}

// Brute force: distance from u to the nearest face.
double nearestFaceDistance(const Mesh& mesh, const Vec2& u) {
  double best = 1e300;
  for (const Face& f : mesh.faces)
    best = std::min(best, nearestInTriangle(mesh.verts[f.verts[0]].u, mesh.verts[f.verts[1]].u,
                                            mesh.verts[f.verts[2]].u, u).distance);
  return best;
}

// A unit square remeshed to edges of ~3 cm at the left and ~30 cm at the right: small, large and thin faces.
Mesh remeshedSquare() {
  Mesh mesh = makeGrid(1.0, 1.0, 4, 4);
  std::vector<Mat2> sizing;
  for (const Vert& v : mesh.verts) {
    const double h = 0.03 + 0.27 * v.u.x();
    sizing.push_back(Mat2::Identity() / (h * h));
  }
  for (int round = 0; round < 3; ++round) {
    remesh(mesh, sizing, RemeshParams(), {});
    sizing.clear();
    for (const Vert& v : mesh.verts) {
      const double h = 0.03 + 0.27 * v.u.x();
      sizing.push_back(Mat2::Identity() / (h * h));
    }
  }
  return mesh;
}

void checkInside(const Mesh& mesh, const Vec2& lo, const Vec2& hi, int count) {
  const MaterialLocator locator(mesh);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> x(lo.x(), hi.x()), y(lo.y(), hi.y());
  for (int i = 0; i < count; ++i) {
    const Vec2 u(x(rng), y(rng));
    const MaterialLocation m = locator.locate(u);
    INFO("point " << u.transpose());
    REQUIRE(m.face >= 0);
    CHECK(m.distance == 0.0);
    CHECK(m.bary.minCoeff() >= 0.0);
    CHECK(m.bary.sum() == Approx(1.0).margin(1e-14));
    CHECK((pointOf(mesh, m) - u).norm() < 1e-12);
    CHECK(faceHolds(mesh, m.face, u));
  }
}

}  // namespace

TEST_CASE("locator finds the face and barycentrics of random points on a grid", "[upsample-output]") {
  checkInside(makeGrid(1.3, 0.7, 9, 5), Vec2(0, 0), Vec2(1.3, 0.7), 2000);
}

TEST_CASE("locator finds the face and barycentrics of random points on a remeshed mesh", "[upsample-output]") {
  const Mesh mesh = remeshedSquare();
  REQUIRE(validate(mesh).empty());
  REQUIRE(mesh.faces.size() > 100);  // the remesher refined the left side
  checkInside(mesh, Vec2(0, 0), Vec2(1, 1), 2000);
}

TEST_CASE("locator keeps the panels of a seamed tube apart", "[upsample-output]") {
  const double r = 0.2, length = 0.5;
  checkInside(makeTube(r, length, 12, 5), Vec2(0, 0), Vec2(2 * M_PI * r, length), 1000);
}

TEST_CASE("locator answers a point on a shared edge the same as a brute-force search", "[upsample-output]") {
  const Mesh mesh = makeGrid(1.0, 1.0, 4, 4);
  const MaterialLocator locator(mesh);
  for (const Vec2& u : {Vec2(0.25, 0.5), Vec2(0.5, 0.5), Vec2(0.125, 0.25), Vec2(0.0, 0.0), Vec2(1.0, 1.0)}) {
    const MaterialLocation m = locator.locate(u);
    INFO("point " << u.transpose());
    REQUIRE(m.face >= 0);
    CHECK(m.distance == 0.0);
    CHECK((pointOf(mesh, m) - u).norm() < 1e-14);
  }
}

TEST_CASE("locator snaps points outside every face to the nearest face", "[upsample-output]") {
  const Mesh mesh = makeGrid(1.0, 1.0, 4, 4);
  const MaterialLocator locator(mesh);
  struct Case { Vec2 query, expected; double distance; };
  for (const Case& c : {Case{Vec2(-1e-9, 0.3), Vec2(0, 0.3), 1e-9}, Case{Vec2(0.6, 1 + 1e-10), Vec2(0.6, 1), 1e-10},
                        Case{Vec2(1.5, 0.5), Vec2(1, 0.5), 0.5}, Case{Vec2(2, 2), Vec2(1, 1), std::sqrt(2.0)},
                        Case{Vec2(-3, 0.1), Vec2(0, 0.1), 3.0}}) {
    const MaterialLocation m = locator.locate(c.query);
    INFO("point " << c.query.transpose());
    REQUIRE(m.face >= 0);
    CHECK(m.bary.minCoeff() >= 0.0);
    CHECK(m.distance == Approx(c.distance).epsilon(1e-6));
    CHECK((pointOf(mesh, m) - c.expected).norm() < 1e-12);
  }
}

TEST_CASE("locator finds the nearest face of points outside a remeshed mesh", "[upsample-output]") {
  const Mesh mesh = remeshedSquare();
  const MaterialLocator locator(mesh);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> coord(-0.6, 1.6);
  for (int i = 0; i < 300; ++i) {
    const Vec2 u(coord(rng), coord(rng));
    const MaterialLocation m = locator.locate(u);
    INFO("point " << u.transpose());
    REQUIRE(m.face >= 0);
    CHECK(m.distance == Approx(nearestFaceDistance(mesh, u)).margin(1e-14));
    CHECK((pointOf(mesh, m) - u).norm() == Approx(m.distance).margin(1e-12));
  }
}
