// Invariants after every single operation over long random sequences (split, flip, collapse) on meshes with
// boundaries and seams: validate() passes, total material area is conserved, no face is inverted, protected nodes
// survive, seams stay seams.
#include <catch2/catch.hpp>
#include <random>

#include "remesh/collapse.h"
#include "remesh/flip.h"
#include "remesh/remesh.h"
#include "remesh/split.h"
#include "remesh_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

RemeshState startState(Mesh& mesh, double size, std::mt19937& rng) {
  RemeshState s = uniformSizingState(mesh, size);
  std::uniform_int_distribution<int> pick(0, 19);
  for (size_t i = 0; i < mesh.nodes.size(); ++i) s.protectedNode[i] = pick(rng) == 0;  // about 5% are handles
  return s;
}

int countSeamNodes(const Mesh& m) {
  int n = 0;
  for (const Node& node : m.nodes) n += node.seam;
  return n;
}

// Applies one random operation as its own batch; returns true when something changed.
bool randomOperation(RemeshState& s, std::mt19937& rng, const RemeshParams& params, int targetFaces) {
  std::uniform_int_distribution<int> pickEdge(0, int(s.mesh.edges.size()) - 1);
  std::uniform_real_distribution<double> coin(0, 1);
  int e = pickEdge(rng);
  double r = coin(rng);
  double splitChance = s.mesh.faces.size() < size_t(targetFaces) ? 0.45 : 0.2;
  s.beginBatch();
  if (r < splitChance) {
    splitEdge(s, e);
  } else if (r < 0.6) {
    if (!canFlip(s, e, params)) return false;
    flipEdge(s, e);
  } else {
    int removed = s.mesh.edges[e].nodes[coin(rng) < 0.5 ? 0 : 1];
    if (!canCollapse(s, e, removed, params)) return false;
    collapseEdge(s, e, removed);
  }
  finishBatch(s);
  return true;
}

void runRandomSequence(Mesh mesh, int operations, unsigned seed) {
  std::mt19937 rng(seed);
  RemeshState s = startState(mesh, 0.05, rng);
  RemeshParams params;
  params.collapseMaxSizeSq = 1e9;  // any collapse that keeps the mesh valid: stress the topology checks
  params.aspectMin = 0.02;
  params.flipMaxDihedral = M_PI;
  const double area0 = mesh.totalMaterialArea();
  const int seams0 = countSeamNodes(mesh);
  std::vector<int> handles;
  for (size_t i = 0; i < s.protectedNode.size(); ++i)
    if (s.protectedNode[i]) handles.push_back(int(i));
  const int targetFaces = int(mesh.faces.size()) * 2;
  int applied = 0;
  for (int op = 0; op < operations; ++op) {
    if (!randomOperation(s, rng, params, targetFaces)) continue;
    ++applied;
    INFO("operation " << op);
    REQUIRE(problems(mesh) == "");
    REQUIRE(std::abs(mesh.totalMaterialArea() - area0) <= 1e-12 * area0);
    REQUIRE(minMaterialArea(mesh) > 0.0);
    if (seams0 > 0) REQUIRE(countSeamNodes(mesh) > 0);
  }
  CHECK(applied > operations / 3);
  // Every handle is still there, and protected.
  std::vector<int> where(s.originalNode.size() + 100000, -1);
  for (size_t i = 0; i < s.originalNode.size(); ++i)
    if (s.originalNode[i] >= 0) where[s.originalNode[i]] = int(i);
  for (int h : handles) {
    REQUIRE(where[h] >= 0);
    CHECK(s.protectedNode[where[h]]);
  }
}

}  // namespace

TEST_CASE("random operations keep every invariant: grid", "[remesh]") {
  runRandomSequence(makeGrid(1.0, 0.6, 10, 6), 2000, 1);
}

TEST_CASE("random operations keep every invariant: tube with a seam", "[remesh]") {
  runRandomSequence(makeTube(0.1, 0.5, 12, 6), 2000, 2);
}

TEST_CASE("random operations keep every invariant: sewn panels", "[remesh]") {
  runRandomSequence(makeSeamedSheet(0.5, 0.5, 6, 6), 2000, 3);
}

TEST_CASE("random operations keep every invariant: disc", "[remesh]") {
  runRandomSequence(makeDisc(0.5, 5), 2000, 4);
}

TEST_CASE("remesh keeps invariants under random sizing fields", "[remesh]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> size(0.03, 0.3), angle(0, M_PI);
  for (Mesh mesh : {makeGrid(1, 1, 8, 8), makeTube(0.15, 0.6, 10, 5), makeSeamedSheet(0.5, 0.5, 5, 5),
                    makeDisc(0.5, 4)}) {
    const double area0 = mesh.totalMaterialArea();
    std::vector<char> prot(mesh.nodes.size(), 0);
    prot[0] = prot[mesh.nodes.size() / 2] = 1;
    for (int round = 0; round < 4; ++round) {
      // A smoothly varying anisotropic field: a random direction, sizes changing across the panel.
      double a = angle(rng), s0 = size(rng), s1 = size(rng);
      std::vector<Mat2> sizing;
      for (const Vert& v : mesh.verts) {
        Vec2 d(std::cos(a + v.u.x()), std::sin(a + v.u.x()));
        double h0 = s0 * (1.0 + 0.5 * v.u.y()), h1 = s1;  // u.y >= -0.5 on every mesh here
        sizing.push_back(d * d.transpose() / (h0 * h0) + (Mat2::Identity() - d * d.transpose()) / (h1 * h1));
      }
      const size_t before = mesh.nodes.size();
      RemeshResult r = remesh(mesh, sizing, RemeshParams(), prot);
      REQUIRE(problems(mesh) == "");
      REQUIRE(std::abs(mesh.totalMaterialArea() - area0) <= 1e-12 * area0);
      REQUIRE(r.nodeMap.size() == before);
      std::vector<char> next(mesh.nodes.size(), 0);
      for (size_t i = 0; i < before; ++i) {
        if (prot[i]) REQUIRE(r.nodeMap[i] >= 0);
        if (r.nodeMap[i] >= 0) next[r.nodeMap[i]] = prot[i];
      }
      prot = next;
    }
  }
}
