// Cloth that starts through itself or another cloth is named at the start of a run (app/start_crossed.h).
#include <catch2/catch.hpp>

#include "app/start_crossed.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

// A 1 m grid in the XY plane turned about Y by `degrees` and moved by `offset` (m).
Mesh sheet(double degrees, const Vec3& offset) {
  Mesh mesh = makeGrid(1.0, 1.0, 4, 4);
  const Eigen::AngleAxisd turn(degrees * M_PI / 180.0, Vec3::UnitY());
  for (Node& node : mesh.nodes) node.x = turn * node.x + offset;
  mesh.updateGeometry();
  return mesh;
}

}  // namespace

TEST_CASE("cloths placed through each other are named at the start, and cloths apart are not", "[app]") {
  const Mesh a = sheet(0, Vec3::Zero()), across = sheet(90, Vec3(0.5, 0, 0.5)), beside = sheet(0, Vec3(0, 0, 0.1));
  const StartCrossed crossed = startCrossed({"a", "across", "beside"}, {&a, &across, &beside});
  // `across` cuts both parallel sheets along x = 0.5 m; `a` and `beside` lie 10 cm apart.
  CHECK(crossed.cloths == std::vector<size_t>{0, 1, 2});
  CHECK_THAT(crossed.note, Catch::Contains("cloths \"a\" and \"across\" start through each other ("));
  CHECK_THAT(crossed.note, Catch::Contains("cloths \"across\" and \"beside\" start through each other ("));
  CHECK_THAT(crossed.note, !Catch::Contains("cloths \"a\" and \"beside\""));
  CHECK_THAT(crossed.note, !Catch::Contains("through itself"));
  CHECK_THAT(crossed.note, Catch::Contains("place the cloths apart"));

  const StartCrossed apart = startCrossed({"a", "beside"}, {&a, &beside});
  CHECK(apart.cloths.empty());
  CHECK(apart.note.empty());
}

TEST_CASE("a cloth folded through itself is named as crossing itself", "[app]") {
  // Two grids' worth of faces in one mesh: the second half turned across the first.
  const Mesh flat = sheet(0, Vec3::Zero()), turned = sheet(90, Vec3(0.5, 0, 0.5));
  std::vector<Vec2> u;
  std::vector<int> vertNode;
  std::vector<Vec3> x;
  std::vector<Tri> faces;
  for (const Mesh* part : {&flat, &turned}) {
    const int base = int(x.size());
    for (const Vert& v : part->verts) {
      u.push_back(v.u + Vec2(base > 0 ? 2.0 : 0.0, 0.0));  // the halves side by side in material space
      vertNode.push_back(base + v.node);
    }
    for (const Node& n : part->nodes) x.push_back(n.x);
    for (const Face& f : part->faces) faces.push_back({base + f.verts[0], base + f.verts[1], base + f.verts[2]});
  }
  const Mesh folded = makeMesh(u, vertNode, x, faces);
  const StartCrossed crossed = startCrossed({"sheet"}, {&folded});
  CHECK(crossed.cloths == std::vector<size_t>{0});
  CHECK_THAT(crossed.note, Catch::StartsWith("cloth \"sheet\" starts through itself ("));
}
