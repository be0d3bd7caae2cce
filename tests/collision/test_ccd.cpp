// CCD primitives on exact cases (issue 7, test d): contact at t = 0 and t = 1, grazing, parallel edges, coplanar but
// separate, and plain misses.
#include <catch2/catch.hpp>

#include "collision/ccd.h"
#include "collision/geometry.h"

using namespace adacloth;

namespace {

// A unit right triangle in the plane z = 0, static; the vertex moves from p0 to p1.
MovingPoints vertexOverTriangle(const Vec3& p0, const Vec3& p1) {
  MovingPoints m;
  m.x0 = {p0, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  m.x1 = {p1, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  return m;
}

MovingPoints edges(const Vec3& p0, const Vec3& p1, const Vec3& q0a, const Vec3& q1a, const Vec3& q0b,
                   const Vec3& q1b) {
  MovingPoints m;
  m.x0 = {p0, p1, q0a, q1a};
  m.x1 = {p0, p1, q0b, q1b};
  return m;
}

const double tol = 1e-6;

}  // namespace

TEST_CASE("vertex-face CCD finds a crossing at the right time and side", "[collision]") {
  auto hit = vertexFaceCCD(vertexOverTriangle(Vec3(0.2, 0.2, 1), Vec3(0.2, 0.2, -1)), tol);
  REQUIRE(hit);
  CHECK(hit->t == Approx(0.5).margin(1e-9));
  CHECK(hit->normal.z() == Approx(1.0));  // from the face towards where the vertex came from
  CHECK(hit->weights[1] == Approx(-0.6));
  CHECK(hit->weights[2] == Approx(-0.2));
}

TEST_CASE("vertex-face CCD: contact at t = 0 and at t = 1", "[collision]") {
  auto atStart = vertexFaceCCD(vertexOverTriangle(Vec3(0.2, 0.2, 0), Vec3(0.2, 0.2, -1)), tol);
  REQUIRE(atStart);
  CHECK(atStart->t == 0.0);
  auto atEnd = vertexFaceCCD(vertexOverTriangle(Vec3(0.2, 0.2, 1), Vec3(0.2, 0.2, 0)), tol);
  REQUIRE(atEnd);
  CHECK(atEnd->t == Approx(1.0));
  // Staying at a distance and moving away is not a collision.
  CHECK_FALSE(vertexFaceCCD(vertexOverTriangle(Vec3(0.2, 0.2, 0.01), Vec3(0.2, 0.2, 1)), tol));
}

TEST_CASE("vertex-face CCD: misses beside the face and grazing an edge", "[collision]") {
  CHECK_FALSE(vertexFaceCCD(vertexOverTriangle(Vec3(0.8, 0.8, 1), Vec3(0.8, 0.8, -1)), tol));
  // Passes down through the edge x + y = 1 exactly: a contact (on the edge) at t = 0.5.
  auto graze = vertexFaceCCD(vertexOverTriangle(Vec3(0.5, 0.5, 1), Vec3(0.5, 0.5, -1)), tol);
  REQUIRE(graze);
  CHECK(graze->t == Approx(0.5).margin(1e-9));
  // A vertex sliding over the face at a fixed height never touches it.
  CHECK_FALSE(vertexFaceCCD(vertexOverTriangle(Vec3(0.1, 0.1, 0.01), Vec3(0.6, 0.1, 0.01)), tol));
}

TEST_CASE("vertex-face CCD: coplanar but separate is not a contact", "[collision]") {
  // The vertex moves in the triangle's plane, outside it all the time.
  CHECK_FALSE(vertexFaceCCD(vertexOverTriangle(Vec3(2, 2, 0), Vec3(1, 1, 0)), tol));
}

TEST_CASE("edge-edge CCD: crossing edges, parallel edges, misses", "[collision]") {
  // Edge along x at z = 0; edge along y moving down from z = 1 to z = -1 across it.
  auto cross = edgeEdgeCCD(edges({-1, 0, 0}, {1, 0, 0}, {0, -1, 1}, {0, 1, 1}, {0, -1, -1}, {0, 1, -1}), tol);
  REQUIRE(cross);
  CHECK(cross->t == Approx(0.5).margin(1e-9));
  CHECK(std::abs(cross->normal.z()) == Approx(1.0));
  // Parallel edges approaching each other: contact when the gap closes, at t = 0.5.
  auto parallel = edgeEdgeCCD(edges({0, 0, 0}, {1, 0, 0}, {0.2, 0, 1}, {1.2, 0, 1}, {0.2, 0, -1}, {1.2, 0, -1}), tol);
  REQUIRE(parallel);
  CHECK(parallel->t == Approx(0.5).margin(1e-9));
  CHECK(std::abs(parallel->normal.z()) == Approx(1.0));
  // Parallel and kept apart: nothing.
  CHECK_FALSE(edgeEdgeCCD(edges({0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0, 0, 0.5}, {1, 0, 0.5}), tol));
  // Moving down beside the other edge's end: nothing.
  CHECK_FALSE(edgeEdgeCCD(edges({-1, 0, 0}, {1, 0, 0}, {2, -1, 1}, {2, 1, 1}, {2, -1, -1}, {2, 1, -1}), tol));
  // Touching at t = 1 exactly.
  auto end = edgeEdgeCCD(edges({-1, 0, 0}, {1, 0, 0}, {0, -1, 1}, {0, 1, 1}, {0, -1, 0}, {0, 1, 0}), tol);
  REQUIRE(end);
  CHECK(end->t == Approx(1.0));
}

TEST_CASE("cubic candidate times include roots, critical points and both ends", "[collision]") {
  // (t - 0.25)(t - 0.75)(t - 2) has roots 0.25 and 0.75 in [0, 1].
  auto times = cubicCandidateTimes(-0.375, 2.1875, -3.0, 1.0);
  auto has = [&](double x) {
    for (double t : times)
      if (std::abs(t - x) < 1e-9) return true;
    return false;
  };
  CHECK(has(0.0));
  CHECK(has(0.25));
  CHECK(has(0.75));
  CHECK(has(1.0));
}

TEST_CASE("closest points on triangles and segments", "[collision]") {
  auto c = closestOnTriangle(Vec3(0.2, 0.2, 3), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0));
  CHECK(c.feature == TriFeature::Face);
  CHECK(c.distance == Approx(3));
  auto v = closestOnTriangle(Vec3(-1, -1, 0), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0));
  CHECK(v.feature == TriFeature::Vert0);
  auto s = closestBetweenSegments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, -1, 2), Vec3(0.5, 1, 2));
  CHECK(s.s == Approx(0.5));
  CHECK(s.u == Approx(0.5));
  CHECK(s.distance == Approx(2));
  CHECK(trianglesIntersect(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1),
                           Vec3(0.3, 0.5, 1)));
  CHECK_FALSE(trianglesIntersect(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 0, 1),
                                 Vec3(0, 1, 1)));
}
