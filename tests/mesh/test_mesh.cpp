#include <catch2/catch.hpp>
#include <cmath>

#include "mesh/generators.h"
#include "mesh/mesh.h"

using namespace adacloth;

namespace {

int countSeamEdges(const Mesh& m) {
  int n = 0;
  for (size_t e = 0; e < m.edges.size(); ++e) n += m.isSeam(int(e));
  return n;
}

}  // namespace

TEST_CASE("generated grids are valid and keep their material area", "[mesh]") {
  Mesh m = makeGrid(2.0, 1.0, 8, 4);
  CHECK(validate(m).empty());
  CHECK(m.nodes.size() == 9 * 5);
  CHECK(m.faces.size() == 2 * 8 * 4);
  CHECK(m.edges.size() == size_t(9 * 4 + 8 * 5 + 8 * 4));  // verticals + horizontals + diagonals
  CHECK(m.totalMaterialArea() == Approx(2.0).epsilon(1e-14));
  CHECK(m.totalWorldArea() == Approx(2.0).epsilon(1e-14));
  CHECK(countSeamEdges(m) == 0);
  int boundaryEdges = 0;
  for (const Edge& e : m.edges) boundaryEdges += e.isBoundary();
  CHECK(boundaryEdges == 2 * (8 + 4));
  for (const Face& f : m.faces) CHECK(f.normal.z() == Approx(1.0));
}

TEST_CASE("a tube is sewn with one seam and faces outwards", "[mesh]") {
  const int around = 12, along = 5;
  Mesh m = makeTube(0.3, 1.0, around, along);
  CHECK(validate(m).empty());
  CHECK(m.nodes.size() == size_t(around * (along + 1)));
  CHECK(m.verts.size() == size_t((around + 1) * (along + 1)));
  CHECK(countSeamEdges(m) == along);
  int seamNodes = 0;
  for (const Node& n : m.nodes) seamNodes += n.seam;
  CHECK(seamNodes == along + 1);
  CHECK(m.totalMaterialArea() == Approx(2 * M_PI * 0.3 * 1.0).epsilon(1e-12));
  for (size_t f = 0; f < m.faces.size(); ++f) {
    Tri n = m.faceNodes(int(f));
    Vec3 centre = (m.nodes[n[0]].x + m.nodes[n[1]].x + m.nodes[n[2]].x) / 3.0;
    Vec3 radial(centre.x(), 0.0, centre.z());
    CHECK(m.faces[f].normal.dot(radial) > 0.0);
  }
  // Only the two rims are boundaries: the seam closes the tube.
  for (const Node& n : m.nodes) CHECK(n.boundary == (n.x.y() == 0.0 || n.x.y() == 1.0));
}

TEST_CASE("a disc is a valid fan of rings", "[mesh]") {
  Mesh m = makeDisc(0.5, 6);
  CHECK(validate(m).empty());
  CHECK(m.nodes.size() == size_t(1 + 3 * 6 * 7));
  CHECK(m.totalMaterialArea() == Approx(M_PI * 0.25).epsilon(0.05));
  auto [lo, hi] = edgeLengthRange(m);
  CHECK(lo > 0.4 * 0.5 / 6);
  CHECK(hi < 2.0 * 0.5 / 6);
}

TEST_CASE("lumped masses add up to density times area", "[mesh]") {
  Mesh m = makeTube(0.2, 0.5, 10, 4);
  m.computeMasses(0.3);
  double total = 0.0;
  for (const Node& n : m.nodes) {
    CHECK(n.mass > 0.0);
    total += n.mass;
  }
  CHECK(total == Approx(0.3 * m.totalMaterialArea()).epsilon(1e-12));
}

TEST_CASE("validate() reports broken invariants", "[mesh]") {
  SECTION("a face turned over in material space") {
    Mesh m = makeGrid(1, 1, 2, 2);
    std::swap(m.faces[0].verts[1], m.faces[0].verts[2]);
    CHECK_FALSE(validate(m).empty());
  }
  SECTION("stale adjacency") {
    Mesh m = makeGrid(1, 1, 2, 2);
    m.verts[0].faces.clear();
    CHECK_FALSE(validate(m).empty());
  }
  SECTION("stale geometry") {
    Mesh m = makeGrid(1, 1, 2, 2);
    m.verts[4].u += Vec2(0.1, 0.0);
    CHECK_FALSE(validate(m).empty());
    m.updateGeometry();
    CHECK(validate(m).empty());
  }
  SECTION("an orphan node") {
    Mesh m = makeGrid(1, 1, 2, 2);
    m.nodes.emplace_back();
    CHECK_FALSE(validate(m).empty());
  }
  SECTION("a wrong boundary flag") {
    Mesh m = makeGrid(1, 1, 2, 2);
    m.nodes[4].boundary = true;  // the centre node
    CHECK_FALSE(validate(m).empty());
  }
}

TEST_CASE("makeMesh rejects non-manifold and inconsistently oriented input", "[mesh]") {
  std::vector<Vec2> u = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0.5, -1}};
  std::vector<Vec3> x = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, -1, 0}};
  std::vector<int> node = {0, 1, 2, 3, 4};
  SECTION("an edge with three faces") {
    std::vector<Vec2> u5 = u;
    u5.emplace_back(0.5, 0.5);
    std::vector<Vec3> x5 = x;
    x5.emplace_back(0.5, 0.5, 1.0);
    std::vector<int> node5 = {0, 1, 2, 3, 4, 5};
    // Faces (0,1,2), (1,0,4) and a third face on edge 0-1 (0,1,5).
    REQUIRE_THROWS_AS(makeMesh(u5, node5, x5, {{0, 1, 2}, {1, 0, 4}, {0, 1, 5}}), MeshError);
  }
  SECTION("two faces traversing their shared edge the same way") {
    REQUIRE_THROWS_WITH(makeMesh(u, node, x, {{0, 1, 2}, {0, 1, 4}}), Catch::Contains("oriented inconsistently"));
  }
  SECTION("a face using a node twice") {
    REQUIRE_THROWS_WITH(makeMesh(u, node, x, {{0, 1, 1}}), Catch::Contains("degenerate"));
  }
}
