#pragma once
// Hand-made cloths and obstacles shared by the tests of the collision phase's parts.
#include <vector>

#include <catch2/catch.hpp>
#include <cmath>

#include "collision/broad_phase.h"
#include "collision/impact_detector.h"
#include "collision/obstacle.h"
#include "collision/response.h"
#include "mesh/mesh.h"

namespace adacloth::testing {

// Triangles with their own nodes (no two share one), a node per vert; material coordinates are the world x and z.
inline Mesh makeTriangles(const std::vector<std::array<Vec3, 3>>& triangles) {
  std::vector<Vec2> u;
  std::vector<int> node;
  std::vector<Vec3> x;
  std::vector<Tri> faces;
  for (const auto& t : triangles) {
    const int first = int(x.size());
    for (const Vec3& p : t) {
      node.push_back(int(x.size()));
      x.push_back(p);
      u.emplace_back(p.x(), -p.z());  // counter-clockwise in material space for triangles listed so
    }
    faces.push_back({first, first + 1, first + 2});
  }
  return makeMesh(u, node, x, faces);
}

// Cloth folded tight around a node. Nodes p (0), q (1), c (2), d (3) of a quad whose edge pq is not Delaunay in
// material space (c and d lie close to it), and z (4), a node of the face (p, c, z) across pc: at kFoldedOver that face
// lies through (d, q, c), which shares only c with it; at kFlatOutside it lies flat beside the quad. `faces` picks
// the quad's diagonal: kBeforeFlip {(p, q, c), (q, p, d), (p, c, z)}, kAfterFlip {(c, p, d), (d, q, c), (p, c, z)}.
namespace fold {
inline const Vec3 kP(0, -1, 0), kQ(0, 1, 0), kC(-1, 0, 0), kD(1, 0, 0.5);
inline const Vec3 kFoldedOver(0.2, 0.8, 0.4), kFlatOutside(-1, -1, 0);
inline const std::vector<Tri> kBeforeFlip = {{0, 1, 2}, {1, 0, 3}, {0, 2, 4}};
inline const std::vector<Tri> kAfterFlip = {{2, 0, 3}, {3, 1, 2}, {0, 2, 4}};
inline Mesh foldedQuad(const Vec3& z, const std::vector<Tri>& faces) {
  return makeMesh({Vec2(0, -1), Vec2(0, 1), Vec2(-0.3, 0), Vec2(0.3, 0), Vec2(-1, -1)}, {0, 1, 2, 3, 4},
                  {kP, kQ, kC, kD, z}, faces);
}
}  // namespace fold

// An n x n grid of cells over [0, size]^2 at height y (the XZ plane, material u = (x, -z)), each cell cut along one
// diagonal, or along the other with `flipped`: the same nodes and face count, other faces (what a remesh that flips
// edges produces).
inline Mesh makeFlatGrid(int n, double size, double y, bool flipped) {
  std::vector<Vec2> u;
  std::vector<int> node;
  std::vector<Vec3> x;
  std::vector<Tri> faces;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const double px = size * i / n, pz = -size * j / n;
      node.push_back(int(x.size()));
      x.emplace_back(px, y, pz);
      u.emplace_back(px, -pz);
    }
  auto id = [&](int i, int j) { return j * (n + 1) + i; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if (flipped) {
        faces.push_back({a, b, d});
        faces.push_back({b, c, d});
      } else {
        faces.push_back({a, b, c});
        faces.push_back({a, c, d});
      }
    }
  return makeMesh(u, node, x, faces);
}

// A step of `mesh` from its current positions (x0) to x0 + dt v for the given velocity of every node.
inline ClothStep stepOf(Mesh& mesh, const Vec3& velocity, double dt) {
  ClothStep c;
  c.mesh = &mesh;
  for (Node& n : mesh.nodes) {
    c.x0.push_back(n.x);
    n.v = velocity;
    n.x += dt * velocity;
  }
  return c;
}

inline ObstacleSpec sphereSpec(double radius, const Vec3& centre, int subdivisions = 2) {
  ObstacleSpec s;
  s.shape = ObstacleSpec::Shape::Sphere;
  s.name = "ball";
  s.radius = radius;
  s.subdivisions = subdivisions;
  s.transform.translate = centre;
  return s;
}

// A 0.4 m sheet of 16 x 16 cells bent over the top of a ball of radius 0.1 m at the origin (sphereSpec(0.1, 0)), a
// millimetre above it at the crest, rippled across by `ripple` (m) with `waveNumber` (rad/m); unit density.
inline Mesh sheetOverBall(double ripple, double waveNumber) {
  Mesh sheet = makeFlatGrid(16, 0.4, 0.0, false);
  for (Node& n : sheet.nodes) {
    const double u = n.x.x() - 0.2;
    n.x = Vec3(u, 0.101 - 2.0 * u * u + ripple * std::sin(waveNumber * n.x.z()), n.x.z() + 0.2);
  }
  sheet.computeMasses(0.1);
  return sheet;
}

// Every collision of the state, from a detector with nothing cached.
inline std::vector<Hit> collisionsOf(const CollisionMesh& w, const CollisionState& s, const CollisionParams& p) {
  FaceTrees trees;
  PrimitiveBoxes boxes;
  CollisionStepStats st;
  ImpactDetector detector(p, trees, boxes, st);
  return detector.detect(w, s);
}

// Checks that two detections hold the same pairs at the same times, in the same order.
inline void requireSameHits(const std::vector<Hit>& got, const std::vector<Hit>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].candidate.edgeEdge == want[i].candidate.edgeEdge);
    CHECK(got[i].candidate.a == want[i].candidate.a);
    CHECK(got[i].candidate.b == want[i].candidate.b);
    CHECK(got[i].g.t == want[i].g.t);
  }
}

inline ObstacleSpec groundSpec() {
  ObstacleSpec s;
  s.shape = ObstacleSpec::Shape::Ground;
  s.name = "floor";
  return s;
}

}  // namespace adacloth::testing
