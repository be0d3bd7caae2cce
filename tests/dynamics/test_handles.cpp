// Handles: selection, motion, and carrying them over a remesh through a node map.
#include <catch2/catch.hpp>
#include <algorithm>

#include "dynamics/handles.h"
#include "io/error.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

HandleSpec regionHandle(Vec2 lo, Vec2 hi) {
  HandleSpec h;
  h.select = HandleSpec::Select::Region;
  h.regionMin = lo;
  h.regionMax = hi;
  h.place = "/cloths/0/handles/0";
  return h;
}

// The same grid with its nodes renumbered in reverse, as a remesher might; nodeMap[old] = new.
Mesh reversed(const Mesh& mesh, std::vector<int>& nodeMap) {
  const int n = int(mesh.nodes.size());
  nodeMap.resize(n);
  std::vector<Vec2> u;
  std::vector<int> vertNode;
  std::vector<Vec3> x(n);
  for (int i = 0; i < n; ++i) nodeMap[i] = n - 1 - i, x[n - 1 - i] = mesh.nodes[i].x;
  for (const Vert& v : mesh.verts) u.push_back(v.u), vertNode.push_back(nodeMap[v.node]);
  std::vector<Tri> faces;
  for (const Face& f : mesh.faces) faces.push_back(f.verts);
  return makeMesh(u, vertNode, x, faces);
}

}  // namespace

TEST_CASE("handles select nodes by index, region and nearest point", "[dynamics]") {
  Mesh mesh = makeGrid(1, 1, 4, 4);  // 5 x 5 nodes, spacing 0.25 m
  HandleSpec byIndex;
  byIndex.nodes = {3, 1, 3};
  HandleSpec byPoint;
  byPoint.select = HandleSpec::Select::Points;
  byPoint.points = {Vec3(0.02, 0.98, 0.1)};
  auto handles = resolveHandles({byIndex, regionHandle({-0.01, 0.99}, {1.01, 1.01}), byPoint}, mesh, "s.json");
  CHECK(handles[0].nodes == std::vector<int>{1, 3});
  REQUIRE(handles[1].nodes.size() == 5);  // the top row
  for (int i : handles[1].nodes) CHECK(mesh.nodes[i].x.y() == Approx(1.0));
  REQUIRE(handles[2].nodes.size() == 1);
  CHECK((mesh.nodes[handles[2].nodes[0]].x - Vec3(0, 1, 0)).norm() < 1e-12);
  auto mask = pinnedMask(handles, mesh.nodes.size());
  int held = 0;
  for (char m : mask) held += m;
  CHECK(held == 2 + 5);  // the point's node is a corner of the top row
}

TEST_CASE("bad handles are input errors naming the place", "[dynamics]") {
  Mesh mesh = makeGrid(1, 1, 2, 2);
  HandleSpec byIndex;
  byIndex.nodes = {99};
  byIndex.place = "/cloths/0/handles/1";
  CHECK_THROWS_WITH(resolveHandles({byIndex}, mesh, "s.json"),
                    "s.json: /cloths/0/handles/1/nodes/0: node 99 does not exist (the mesh has 9 nodes)");
  CHECK_THROWS_AS(resolveHandles({regionHandle({5, 5}, {6, 6})}, mesh, "s.json"), InputError);
}

TEST_CASE("motion is linear between keys and held outside them", "[dynamics]") {
  HandleSpec h;
  h.motion = {{1.0, Vec3(0, 0, 0)}, {3.0, Vec3(2, 0, 0)}};
  CHECK(handleOffset(h, 0.0) == Vec3(0, 0, 0));
  CHECK(handleOffset(h, 2.0).isApprox(Vec3(1, 0, 0)));
  CHECK(handleOffset(h, 9.0) == Vec3(2, 0, 0));
}

TEST_CASE("handles follow a renumbering of the nodes with their anchors", "[dynamics]") {
  Mesh mesh = makeGrid(1, 1, 4, 4);
  HandleSpec byIndex;
  byIndex.nodes = {0, 7};
  byIndex.motion = {{0.0, Vec3::Zero()}, {1.0, Vec3(0, 1, 0)}};
  HandleSpec byPoint;
  byPoint.select = HandleSpec::Select::Points;
  byPoint.points = {Vec3(1, 1, 0)};
  auto handles = resolveHandles({byIndex, regionHandle({-0.01, -0.01}, {1.01, 0.01}), byPoint}, mesh, "s.json");
  const auto before = handles;
  std::vector<int> nodeMap;
  Mesh next = reversed(mesh, nodeMap);
  remapHandles(handles, next, nodeMap, 0.5);
  for (size_t h = 0; h < handles.size(); ++h) {
    REQUIRE(handles[h].nodes.size() == before[h].nodes.size());
    for (size_t k = 0; k < before[h].nodes.size(); ++k) {
      int moved = nodeMap[before[h].nodes[k]];
      auto it = std::find(handles[h].nodes.begin(), handles[h].nodes.end(), moved);
      REQUIRE(it != handles[h].nodes.end());
      CHECK(handles[h].anchors[it - handles[h].nodes.begin()] == before[h].anchors[k]);
    }
  }
  // Nodes a remesh removes leave by-index handles; the others are found again from material coordinates.
  std::vector<int> dropFirst = nodeMap;
  dropFirst[0] = -1;
  auto again = before;
  remapHandles(again, next, dropFirst, 0.5);
  CHECK(again[0].nodes == std::vector<int>{nodeMap[7]});
  CHECK(again[1].nodes.size() == 5);
}

TEST_CASE("pinnedMask flags every held node, boundMask only those of handles bound to a surface", "[dynamics]") {
  HandleState pinned, bound;
  pinned.nodes = {0, 2};
  bound.nodes = {2, 5};
  bound.surface = std::make_shared<BindSurface>();
  const std::vector<HandleState> handles = {pinned, bound};
  CHECK(pinnedMask(handles, 7) == std::vector<char>{1, 0, 1, 0, 0, 1, 0});
  CHECK(boundMask(handles, 7) == std::vector<char>{0, 0, 1, 0, 0, 1, 0});
  CHECK(boundMask({pinned}, 7) == std::vector<char>(7, 0));
}
