// The collision mesh (collision_mesh.h): the numbering of cloths and obstacles, node and edge owners, and when the
// collision phase keeps it (positions moved) or rebuilds it (faces changed, even at the same face count).
#include <algorithm>
#include <catch2/catch.hpp>

#include "collision/collision_mesh.h"
#include "collision_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

std::vector<ClothStep> stepsOf(std::vector<Mesh*> meshes) {
  std::vector<ClothStep> steps;
  for (Mesh* m : meshes) steps.push_back(stepOf(*m, Vec3(0, -0.1, 0), 0.01));
  return steps;
}

}  // namespace

TEST_CASE("the collision mesh numbers cloths first, then the obstacles that are not grounds", "[collision]") {
  Mesh a = makeFlatGrid(2, 1.0, 0.5, false), b = makeFlatGrid(3, 1.0, 0.8, true);
  const Obstacle ball(sphereSpec(0.2, Vec3(0.5, 0.2, -0.5)), "test"), floor(groundSpec(), "test");
  const std::vector<ObstaclePose> obstacles = {poseAt(floor, 0), poseAt(ball, 0)};
  const CollisionMesh w = buildCollisionMesh(stepsOf({&a, &b}), obstacles);

  REQUIRE(w.bodies.size() == 3);
  CHECK(w.bodies[0].cloth == 0);
  CHECK(w.bodies[1].cloth == 1);
  CHECK(w.bodies[2].cloth == -1);
  CHECK(w.bodies[1].firstNode == int(a.nodes.size()));
  CHECK(w.bodies[2].firstNode == int(a.nodes.size() + b.nodes.size()));
  CHECK(w.bodies[2].faceCount == int(ball.faces().size()));
  CHECK(w.nodeCount() == a.nodes.size() + b.nodes.size() + ball.nodeCount());
  CHECK(w.edges.size() == a.edges.size() + b.edges.size() + ball.edges().size());
  for (const auto& body : w.bodies)
    for (int i = body.firstNode; i < body.firstNode + body.nodeCount; ++i) CHECK(w.nodeCloth[i] == body.cloth);
  // The cloths' nodes, edges and faces are counted up to the obstacle's first; with no obstacle, all are the cloths'.
  const ClothCounts cloth = clothCounts(w);
  CHECK(cloth.nodes == int(a.nodes.size() + b.nodes.size()));
  CHECK(cloth.edges == int(a.edges.size() + b.edges.size()));
  CHECK(cloth.faces == int(a.faces.size() + b.faces.size()));
  const CollisionMesh clothOnly = buildCollisionMesh(stepsOf({&a, &b}), {poseAt(floor, 0)});
  CHECK(clothCounts(clothOnly).nodes == cloth.nodes);
  CHECK(clothCounts(clothOnly).edges == cloth.edges);
  CHECK(clothCounts(clothOnly).faces == cloth.faces);
  // Cloth 1's faces are its own, shifted past cloth 0's nodes.
  for (size_t f = 0; f < b.faces.size(); ++f) {
    const Tri t = b.faceNodes(int(f));
    const int n0 = w.bodies[1].firstNode;
    CHECK(w.faces[w.bodies[1].firstFace + f] == Tri{n0 + t[0], n0 + t[1], n0 + t[2]});
  }
  // Face edge k joins corners k and k + 1, for cloths and obstacles alike.
  for (size_t f = 0; f < w.faces.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      auto e = w.edges[w.faceEdges[f][k]];
      std::array<int, 2> corners = {w.faces[f][k], w.faces[f][(k + 1) % 3]};
      if (e[0] > e[1]) std::swap(e[0], e[1]);
      if (corners[0] > corners[1]) std::swap(corners[0], corners[1]);
      CHECK(e == corners);
    }
}

TEST_CASE("every node and edge of the collision mesh is owned once, by its lowest-numbered face", "[collision]") {
  Mesh a = makeFlatGrid(3, 1.0, 0.5, false);
  const Obstacle ball(sphereSpec(0.2, Vec3(0.5, 0.2, -0.5), 1), "test");
  const CollisionMesh w = buildCollisionMesh(stepsOf({&a}), {poseAt(ball, 0)});
  std::vector<int> lowestOfNode(w.nodeCount(), -1), lowestOfEdge(w.edges.size(), -1);
  std::vector<int> nodeOwned(w.nodeCount(), 0), edgeOwned(w.edges.size(), 0);
  for (int f = 0; f < int(w.faces.size()); ++f)
    for (int k = 0; k < 3; ++k) {
      if (lowestOfNode[w.faces[f][k]] < 0) lowestOfNode[w.faces[f][k]] = f;
      if (lowestOfEdge[w.faceEdges[f][k]] < 0) lowestOfEdge[w.faceEdges[f][k]] = f;
      if (w.owned[f] & (1u << k)) ++nodeOwned[w.faces[f][k]];
      if (w.owned[f] & (8u << k)) ++edgeOwned[w.faceEdges[f][k]];
    }
  CHECK(w.nodeOwner == lowestOfNode);
  CHECK(w.edgeOwner == lowestOfEdge);
  CHECK(std::all_of(nodeOwned.begin(), nodeOwned.end(), [](int n) { return n == 1; }));
  CHECK(std::all_of(edgeOwned.begin(), edgeOwned.end(), [](int n) { return n == 1; }));
}

TEST_CASE("the collision mesh matches while only positions change, not after a face change", "[collision]") {
  Mesh a = makeFlatGrid(3, 1.0, 0.5, false), b = makeFlatGrid(2, 1.0, 0.8, false);
  const Obstacle ball(sphereSpec(0.2, Vec3(0.5, 0.2, -0.5)), "test");
  const Obstacle otherBall(sphereSpec(0.2, Vec3(0.5, 0.2, -0.5), 1), "test");
  const std::vector<ObstaclePose> obstacles = {poseAt(ball, 0)};
  const CollisionMesh w = buildCollisionMesh(stepsOf({&a, &b}), obstacles);

  // Later steps: the nodes and the obstacle moved, nothing else.
  CHECK(matchesTopology(w, stepsOf({&a, &b}), {poseAt(ball, 1.0)}));

  SECTION("a remesh that keeps the node and face counts but flips every diagonal") {
    Mesh flipped = makeFlatGrid(3, 1.0, 0.5, true);
    REQUIRE(flipped.faces.size() == a.faces.size());
    REQUIRE(flipped.edges.size() == a.edges.size());
    const auto cloths = stepsOf({&flipped, &b});
    CHECK_FALSE(matchesTopology(w, cloths, obstacles));
    // Only the flipped cloth's faces changed: the other bodies keep their global indices and their trees.
    CHECK(changedBodies(w, buildCollisionMesh(cloths, obstacles)) == std::vector<char>{1, 0, 0});
  }
  SECTION("a remesh that adds nodes renumbers every later body, which keeps its faces") {
    Mesh finer = makeFlatGrid(4, 1.0, 0.5, false);
    const auto cloths = stepsOf({&finer, &b});
    CHECK_FALSE(matchesTopology(w, cloths, obstacles));
    CHECK(changedBodies(w, buildCollisionMesh(cloths, obstacles)) == std::vector<char>{1, 0, 0});
    // The other cloth in the first place: every body's faces change, in its own numbering too.
    CHECK(changedBodies(w, buildCollisionMesh(stepsOf({&b, &a}), obstacles)) == std::vector<char>{1, 1, 0});
  }
  SECTION("the same face list with other edge numbers") {
    Mesh renumbered = a;
    std::swap(renumbered.edges[0], renumbered.edges[1]);
    for (Face& f : renumbered.faces)
      for (int& e : f.edges) e = e == 0 ? 1 : e == 1 ? 0 : e;
    CHECK_FALSE(matchesTopology(w, stepsOf({&renumbered, &b}), obstacles));
  }
  SECTION("another obstacle mesh, a missing obstacle, a missing cloth") {
    CHECK_FALSE(matchesTopology(w, stepsOf({&a, &b}), {poseAt(otherBall, 0)}));
    CHECK_FALSE(matchesTopology(w, stepsOf({&a, &b}), {}));
    CHECK_FALSE(matchesTopology(w, stepsOf({&a}), obstacles));
  }
  SECTION("a copy of the obstacle, and one built again from its spec (the same faces in another list), match") {
    const Obstacle copy = ball, again(sphereSpec(0.2, Vec3(0.5, 0.2, -0.5)), "test");
    REQUIRE(copy.faceList() == ball.faceList());
    REQUIRE(again.faceList() != ball.faceList());
    CHECK(matchesTopology(w, stepsOf({&a, &b}), {poseAt(copy, 0.5)}));
    CHECK(matchesTopology(w, stepsOf({&a, &b}), {poseAt(again, 0.5)}));
  }
  SECTION("a ground does not take part") {
    const Obstacle floor(groundSpec(), "test");
    CHECK(matchesTopology(w, stepsOf({&a, &b}), {poseAt(floor, 0), poseAt(ball, 0)}));
  }
}

TEST_CASE("a collision mesh built from the previous one's obstacles equals one built afresh", "[collision]") {
  Mesh a = makeFlatGrid(2, 1.0, 0.5, false), finer = makeFlatGrid(4, 1.0, 0.5, false);
  Mesh b = makeFlatGrid(3, 1.0, 0.8, true);
  const Obstacle ball(sphereSpec(0.2, Vec3(0.5, 0.2, -0.5)), "test"), floor(groundSpec(), "test");
  const Obstacle small(sphereSpec(0.1, Vec3(-0.5, 0.2, 0.5), 1), "test");
  const std::vector<ObstaclePose> obstacles = {poseAt(ball, 0), poseAt(floor, 0), poseAt(small, 0)};
  const CollisionMesh before = buildCollisionMesh(stepsOf({&a, &b}), obstacles);
  auto same = [](const CollisionMesh& x, const CollisionMesh& y) {
    bool bodies = x.bodies.size() == y.bodies.size();
    for (size_t i = 0; bodies && i < x.bodies.size(); ++i) {
      const CollisionMesh::Body &p = x.bodies[i], &q = y.bodies[i];
      bodies = p.cloth == q.cloth && p.firstNode == q.firstNode && p.nodeCount == q.nodeCount &&
               p.firstEdge == q.firstEdge && p.edgeCount == q.edgeCount && p.firstFace == q.firstFace &&
               p.faceCount == q.faceCount;
    }
    bool material = x.faceMaterial.size() == y.faceMaterial.size();
    for (size_t f = 0; material && f < x.faceMaterial.size(); ++f) material = x.faceMaterial[f] == y.faceMaterial[f];
    return bodies && material && x.nodeCloth == y.nodeCloth && x.faces == y.faces && x.faceEdges == y.faceEdges &&
           x.edges == y.edges && x.nodeOwner == y.nodeOwner && x.edgeOwner == y.edgeOwner && x.owned == y.owned &&
           x.faceChart == y.faceChart;
  };
  // A cloth remeshed finer: both obstacles move up in the numbering and are copied.
  const auto remeshed = stepsOf({&finer, &b});
  CHECK(same(buildCollisionMesh(remeshed, obstacles, &before), buildCollisionMesh(remeshed, obstacles)));
  // The obstacles in another order: neither matches its place in the previous mesh, both are built.
  const std::vector<ObstaclePose> swapped = {poseAt(small, 0), poseAt(ball, 0)};
  CHECK(same(buildCollisionMesh(remeshed, swapped, &before), buildCollisionMesh(remeshed, swapped)));
  // One cloth fewer.
  CHECK(same(buildCollisionMesh(stepsOf({&b}), obstacles, &before), buildCollisionMesh(stepsOf({&b}), obstacles)));
}

TEST_CASE("the collision phase rebuilds its mesh only when faces change, and a kept mesh answers as a new one",
          "[collision]") {
  // A sheet falling onto a sphere, stepped twice side by side: once with one cache for all steps (the collision mesh
  // and trees kept, rebuilt after the faces change), once with a new cache every step (everything built afresh).
  const Obstacle ball(sphereSpec(0.25, Vec3(0.5, 0.2, -0.5)), "test"), floor(groundSpec(), "test");
  const std::vector<ObstaclePose> obstacles = {poseAt(ball, 0), poseAt(floor, 0)};
  CollisionParams p;
  Mesh kept = makeFlatGrid(8, 1.0, 0.47, false);
  kept.computeMasses(0.15);
  Mesh fresh = kept;
  CollisionCache cache;
  const double dt = 0.01;
  std::vector<bool> rebuilt;
  int contacts = 0;
  for (int step = 0; step < 12; ++step) {
    if (step == 6) {
      // A "remesh": the same nodes where they are now, the other diagonals.
      for (Mesh* m : {&kept, &fresh}) {
        Mesh flipped = makeFlatGrid(8, 1.0, 0.47, true);
        for (size_t i = 0; i < m->nodes.size(); ++i) {
          flipped.nodes[i].x = m->nodes[i].x;
          flipped.nodes[i].v = m->nodes[i].v;
        }
        flipped.computeMasses(0.15);
        *m = flipped;
      }
    }
    std::vector<ClothStep> a = {stepOf(kept, Vec3(0, -1.0, 0.1), dt)}, b = {stepOf(fresh, Vec3(0, -1.0, 0.1), dt)};
    const CollisionStepStats st = resolveCollisions(a, obstacles, obstacles, p, dt, cache);
    CollisionCache once;
    resolveCollisions(b, obstacles, obstacles, p, dt, once);
    rebuilt.push_back(st.meshRebuilt);
    contacts += st.contacts[0];
    for (size_t i = 0; i < kept.nodes.size(); ++i) {
      REQUIRE(kept.nodes[i].x == fresh.nodes[i].x);
      REQUIRE(kept.nodes[i].v == fresh.nodes[i].v);
    }
  }
  CHECK(contacts > 0);
  CHECK(rebuilt == std::vector<bool>{true, false, false, false, false, false, true, false, false, false, false, false});
}
