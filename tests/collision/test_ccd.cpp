// CCD primitives on exact cases (issue 7, test d): contact at t = 0 and t = 1, grazing, parallel edges, coplanar but
// separate, and plain misses.
#include <algorithm>
#include <random>

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

TEST_CASE("pairs found apart along a fixed axis never come within the tolerance, and beside-in-plane pairs are",
          "[collision]") {
  const double near = 1e-3;  // m
  // Side by side in one plane, 2 cm apart: apart (the in-plane normal of the triangle's edge separates them).
  CHECK(vertexFaceApartForStep(vertexOverTriangle(Vec3(1.02, 0.5, 0), Vec3(1.03, 0.5, 0)), near));
  CHECK(edgeEdgeApartForStep(edges({0, 0, 0}, {1, 0, 0}, {0.2, 0.02, 0}, {0.2, 1, 0}, {0.3, 0.03, 0}, {0.3, 1, 0}),
                             near));
  // Over the face, 0.5 mm above it, or crossing it: not apart.
  CHECK_FALSE(vertexFaceApartForStep(vertexOverTriangle(Vec3(0.2, 0.2, 5e-4), Vec3(0.2, 0.2, 5e-4)), near));
  CHECK_FALSE(vertexFaceApartForStep(vertexOverTriangle(Vec3(0.2, 0.2, 1), Vec3(0.2, 0.2, -1)), near));
  CHECK_FALSE(edgeEdgeApartForStep(edges({-1, 0, 0}, {1, 0, 0}, {0, -1, 1}, {0, 1, 1}, {0, -1, -1}, {0, 1, -1}), near));

  // Random moving pairs within a few centimetres: every pair found apart stays farther than the tolerance at 400
  // times over the step, and the CCD finds no contact for it; a fair share of them is found apart.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> position(-0.02, 0.02), motion(-0.01, 0.01);
  int apart = 0, total = 0;
  for (int k = 0; k < 4000; ++k) {
    MovingPoints m;
    for (int i = 0; i < 4; ++i) {
      m.x0[i] = Vec3(position(random), position(random), position(random));
      m.x1[i] = m.x0[i] + Vec3(motion(random), motion(random), motion(random));
    }
    const bool edgeEdge = k % 2 == 1;
    const bool found = edgeEdge ? edgeEdgeApartForStep(m, near) : vertexFaceApartForStep(m, near);
    ++total;
    if (!found) continue;
    ++apart;
    double least = 1e300;
    for (int s = 0; s <= 400; ++s) {
      const double t = s / 400.0;
      std::array<Vec3, 4> x;
      for (int i = 0; i < 4; ++i) x[i] = (1 - t) * m.x0[i] + t * m.x1[i];
      least = std::min(least, edgeEdge ? closestBetweenSegments(x[0], x[1], x[2], x[3]).distance
                                       : closestOnTriangle(x[0], x[1], x[2], x[3]).distance);
    }
    INFO("pair " << k);
    CHECK(least > near);
    const bool contact = edgeEdge ? bool(edgeEdgeCCD(m, near)) : bool(vertexFaceCCD(m, near));
    CHECK_FALSE(contact);
  }
  INFO(apart << " of " << total << " found apart");
  CHECK(apart > total / 4);
  CHECK(apart < total);
}
