// Edge splits (src/remesh/split.h): which edge a split pass splits for an edge the sizing finds too long.
#include <catch2/catch.hpp>

#include <random>

#include "remesh/remesh.h"
#include "remesh/split.h"
#include "remesh_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// One face (a, c, b), counter-clockwise, flat in the world: a = (0, 0), b = (0, 1) and c to the right of a-b.
Mesh makeFace(const Vec2& c) {
  const std::vector<Vec2> u = {{0, 0}, c, {0, 1}};
  std::vector<Vec3> x;
  for (const Vec2& p : u) x.emplace_back(p.x(), p.y(), 0.0);
  return makeMesh(u, {0, 1, 2}, x, {{0, 1, 2}});
}

// The smallest metric aspect of the mesh's faces, each in the mean of its verts' tensors (as the remesher judges).
double worstAspect(const Mesh& m, const std::vector<Mat2>& sizing) {
  double worst = 1.0;
  for (const Face& f : m.faces) {
    const Mat2 M = (sizing[f.verts[0]] + sizing[f.verts[1]] + sizing[f.verts[2]]) / 3.0;
    worst = std::min(worst, metricAspect(m.verts[f.verts[0]].u, m.verts[f.verts[1]].u, m.verts[f.verts[2]].u, M));
  }
  return worst;
}

}  // namespace

TEST_CASE("an edge whose split would make a sliver has its face's longest edge split instead", "[remesh]") {
  // Fine sizing at c (0.4 m), coarse at a and b (2 m): a-c (0.62 m) is too long, the 1 m edge a-b is not. Splitting
  // a-c would make (a, m, b) thinner than aspect_min (0.19); splitting a-b makes two thicker faces (0.46, 0.64).
  Mesh mesh = makeFace({0.15, 0.6});
  RemeshState s = uniformSizingState(mesh, 2.0);
  s.sizing[1] = Mat2::Identity() / (0.4 * 0.4);
  const int ac = edgeBetween(mesh, 0, 1), ab = edgeBetween(mesh, 0, 2);
  REQUIRE(meshEdgeSizeSquared(s, ac) > 1.0);
  REQUIRE(meshEdgeSizeSquared(s, ab) <= 1.0);
  CHECK(edgeToSplit(s, ac, RemeshParams()) == ab);
  // With a thinner limit the split of a-c is good enough and is the one made.
  RemeshParams lenient;
  lenient.aspectMin = 0.1;
  CHECK(edgeToSplit(s, ac, lenient) == ac);
}

TEST_CASE("an edge whose split makes faces thick enough is split itself", "[remesh]") {
  // A well-shaped face under uniform sizing: its own longest edge is the one too long.
  Mesh mesh = makeFace({0.8, 0.5});
  RemeshState s = uniformSizingState(mesh, 0.5);
  for (int e = 0; e < int(mesh.edges.size()); ++e)
    if (meshEdgeSizeSquared(s, e) > 1.0) CHECK(edgeToSplit(s, e, RemeshParams()) == e);
}

TEST_CASE("refining toward a fine corner does not thin a face batch after batch", "[remesh]") {
  // The face of the first test under sizing 50x finer at c than at a and b: split after split of the edge at c, each
  // new face keeps the long edge a-b (valid at the coarse ends) and half the area of the last. The faces of the
  // refined mesh stay near aspect_min; splitting the invalid edge whatever it makes left faces of aspect ~0.02.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> across(0.05, 0.3), along(0.2, 0.8);
  for (int trial = 0; trial < 8; ++trial) {
    Mesh mesh = makeFace({across(rng), along(rng)});
    std::vector<Mat2> sizing(mesh.verts.size(), Mat2::Identity() / (2.0 * 2.0));
    sizing[1] = Mat2::Identity() / (0.04 * 0.04);
    remesh(mesh, sizing, RemeshParams(), std::vector<char>(mesh.nodes.size(), 0));
    REQUIRE(problems(mesh) == "");
    INFO("trial " << trial);
    CHECK(worstAspect(mesh, std::vector<Mat2>(mesh.verts.size(), Mat2::Identity())) > 0.05);
  }
}
