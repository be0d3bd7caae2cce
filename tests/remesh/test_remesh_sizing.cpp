// The remeshed mesh follows the sizing field: with a constant anisotropic tensor every edge is valid and the mesh is
// not over-refined; with the curvature of a sheet folded over an edge, the fold is refined and the flat parts are not.
#include <algorithm>
#include <catch2/catch.hpp>

#include "remesh/remesh.h"
#include "remesh_fixtures.h"
#include "sizing/sizing_field.h"
#include "sizing/tensor.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// Lengths 0.04 m along a direction 30 degrees from u0 and 0.15 m across it.
Mat2 anisotropicTensor() {
  Vec2 d(std::cos(M_PI / 6), std::sin(M_PI / 6));
  Mat2 along = d * d.transpose();
  return along / (0.04 * 0.04) + (Mat2::Identity() - along) / (0.15 * 0.15);
}

std::vector<double> edgeSizes(const Mesh& mesh, const Mat2& M) {
  std::vector<double> out;
  for (const Edge& e : mesh.edges) {
    // Material vector of the edge, from its first face.
    int f = e.faces[0];
    Vec2 ua = Vec2::Zero(), ub = Vec2::Zero();
    for (int c = 0; c < 3; ++c) {
      if (mesh.nodeOf(f, c) == e.nodes[0]) ua = mesh.verts[mesh.faces[f].verts[c]].u;
      if (mesh.nodeOf(f, c) == e.nodes[1]) ub = mesh.verts[mesh.faces[f].verts[c]].u;
    }
    out.push_back(edgeSizeSquared(ub - ua, M, M));
  }
  return out;
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

void checkFollowsConstantField(Mesh mesh) {
  const Mat2 M = anisotropicTensor();
  const double area0 = mesh.totalMaterialArea();
  RemeshResult r = remesh(mesh, std::vector<Mat2>(mesh.verts.size(), M), RemeshParams(), {});
  REQUIRE(problems(mesh) == "");
  CHECK(std::abs(mesh.totalMaterialArea() - area0) <= 1e-12 * area0);
  std::vector<double> s2 = edgeSizes(mesh, M);
  CHECK(*std::max_element(s2.begin(), s2.end()) <= 1.0 + 1e-9);
  double med = median(s2);
  INFO("faces " << mesh.faces.size() << ", median s^2 " << med << ", splits " << r.splits << ", collapses "
                << r.collapses << ", flips " << r.flips);
  CHECK(med >= 0.3);
  CHECK(med <= 1.0);
}

// World position of a 1 m sheet folded over a table edge along the line u0 = 0.5: flat for u0 < 0.5, then a
// quarter circle of radius r, then hanging straight down.
Vec3 folded(const Vec2& u, double r) {
  double s = u.x() - 0.5, arc = M_PI * r / 2;
  if (s <= 0) return Vec3(u.x(), u.y(), 0);
  if (s <= arc) return Vec3(0.5 + r * std::sin(s / r), u.y(), -r + r * std::cos(s / r));
  return Vec3(0.5 + r, u.y(), -r - (s - arc));
}

}  // namespace

TEST_CASE("constant anisotropic sizing: refinement from a coarse grid", "[remesh]") {
  checkFollowsConstantField(makeGrid(1, 1, 3, 3));
}

TEST_CASE("constant anisotropic sizing: coarsening from a fine grid", "[remesh]") {
  checkFollowsConstantField(makeGrid(1, 1, 60, 60));
}

TEST_CASE("constant anisotropic sizing: a tube with a seam", "[remesh]") {
  checkFollowsConstantField(makeTube(0.15, 0.6, 6, 3));
}

TEST_CASE("refinement follows curvature on a folded sheet", "[remesh]") {
  const double radius = 0.05;
  Mesh mesh = makeGrid(1, 1, 8, 8);
  SizingParams sizing;
  sizing.sizeMin = 0.01;
  sizing.sizeMax = 0.1;
  RemeshParams params;
  params.aspectMin = sizing.aspectMin;
  // Hand-moved sheet: every node sits where the fold puts its material point, before each sizing + remesh.
  for (int round = 0; round < 4; ++round) {
    for (Node& n : mesh.nodes) n.x = folded(mesh.verts[n.verts[0]].u, radius);
    mesh.updateGeometry();
    remesh(mesh, computeVertexSizing(mesh, sizing, NoObstacles()), params, {});
    REQUIRE(problems(mesh) == "");
  }
  // Mean world length of the edges, and mean extent across the fold (|du0|): curvature refines across the fold only,
  // so edges along it may stay up to 1/aspect_min times longer.
  double bandSum = 0, flatSum = 0, bandAcross = 0, flatAcross = 0;
  int bandCount = 0, flatCount = 0;
  for (const Edge& e : mesh.edges) {
    Vec2 u0 = mesh.verts[mesh.nodes[e.nodes[0]].verts[0]].u, u1 = mesh.verts[mesh.nodes[e.nodes[1]].verts[0]].u;
    Vec2 mid = 0.5 * (u0 + u1);
    double len = (mesh.nodes[e.nodes[1]].x - mesh.nodes[e.nodes[0]].x).norm(), across = std::abs(u1.x() - u0.x());
    if (mid.x() > 0.5 && mid.x() < 0.5 + M_PI * radius / 2) {
      bandSum += len;
      bandAcross += across;
      ++bandCount;
    } else if (mid.x() < 0.35 || mid.x() > 0.75) {
      flatSum += len;
      flatAcross += across;
      ++flatCount;
    }
  }
  REQUIRE(bandCount > 0);
  REQUIRE(flatCount > 0);
  double band = bandSum / bandCount, flat = flatSum / flatCount;
  INFO("mean edge: fold " << band << " m over " << bandCount << " edges, flat " << flat << " m over " << flatCount
                          << "; across the fold: " << bandAcross / bandCount << " m vs " << flatAcross / flatCount);
  CHECK(band < 0.6 * flat);
  CHECK(bandAcross / bandCount < 0.3 * flatAcross / flatCount);
  CHECK(flat > 0.5 * sizing.sizeMax);  // the flat parts stay coarse
}
