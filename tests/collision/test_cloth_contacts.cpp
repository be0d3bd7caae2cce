// Contacts between cloths inside the implicit step (collision/cloth_contacts.h).
#include <catch2/catch.hpp>

#include <string>

#include "collision/cloth_contacts.h"
#include "collision/geometry.h"
#include "collision_fixtures.h"
#include "mesh/generators.h"
#include "frame_stats.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// A flat 0.2 m sheet of 4 x 4 cells at height y (m), every node of mass 1 g moving at velocity v (m/s).
Mesh sheetAt(double y, const Vec3& v) {
  Mesh sheet = makeFlatGrid(4, 0.2, y, false);
  for (Node& node : sheet.nodes) node.mass = 0.001, node.v = v;
  return sheet;
}

constexpr double kH = 0.01;  // s

// Places every node of `mesh` at place(u) of its material coordinates u, with mass 1 g and velocity v (m/s).
template <class Place>
void lay(Mesh& mesh, const Place& place, const Vec3& v = Vec3::Zero()) {
  for (const Vert& vert : mesh.verts) mesh.nodes[vert.node].x = place(vert.u);
  for (Node& node : mesh.nodes) node.mass = 0.001, node.v = v;
}

// A 0.4 x 0.05 m strip of 5 mm cells folded in half across u0 = 0.2: the half beyond the fold lies back over the
// first, `gap` (m) above it (a sharp crease: the row of faces at the fold stands up across the gap).
Mesh foldedStrip(double gap) {
  Mesh strip = makeGrid(0.4, 0.05, 80, 10);
  lay(strip, [gap](const Vec2& u) {
    return u.x() <= 0.2 + 1e-9 ? Vec3(u.x(), 0, u.y()) : Vec3(0.4 - u.x(), gap, u.y());
  });
  return strip;
}

}  // namespace

TEST_CASE("a sheet falling onto another gets contacts of the right side and depth, and so does the one below",
          "[collision]") {
  // The upper sheet starts 8 mm above the lower and falls 10 mm in the step: unconstrained it ends 2 mm through.
  const Mesh below = sheetAt(0.0, Vec3::Zero());
  const Mesh above = sheetAt(0.008, Vec3(0, -1, 0));
  const ClothEndSurfaces ends({&below, &above}, kH);
  const ClothContactSettings settings{0.005, 0.5, 0.3};
  const std::vector<ObstacleContact> upper = ends.contactsOf(1, settings);
  const std::vector<ObstacleContact> lower = ends.contactsOf(0, settings);
  REQUIRE(upper.size() == above.nodes.size());
  REQUIRE(lower.size() == below.nodes.size());
  for (const ObstacleContact& c : upper) {
    CHECK(c.normal.isApprox(Vec3(0, 1, 0), 1e-12));
    // Half of (thickness + 2 mm through): each side asks for half of what keeps the pair a thickness apart.
    CHECK(c.depth == Approx(0.5 * (0.005 + 0.002)).epsilon(1e-9));
    CHECK(c.surfaceVelocity.isZero());
    CHECK(c.friction == 0.3);
  }
  for (const ObstacleContact& c : lower) {
    CHECK(c.normal.isApprox(Vec3(0, -1, 0), 1e-12));
    CHECK(c.depth == Approx(0.0035).epsilon(1e-9));
    CHECK(c.surfaceVelocity.isApprox(Vec3(0, -1, 0)));
  }
}

TEST_CASE("cloths farther apart than the thickness, or through each other by more, get no contacts", "[collision]") {
  const ClothContactSettings settings{0.005, 0.5, 0.2};
  SECTION("apart") {
    const Mesh below = sheetAt(0.0, Vec3::Zero()), above = sheetAt(0.006, Vec3::Zero());
    const ClothEndSurfaces ends({&below, &above}, kH);
    CHECK(ends.contactsOf(0, settings).empty());
    CHECK(ends.contactsOf(1, settings).empty());
  }
  SECTION("through by more than the thickness: left to the contact pass") {
    const Mesh below = sheetAt(0.0, Vec3::Zero()), above = sheetAt(0.004, Vec3(0, -1.0, 0));  // ends 6 mm through
    const ClothEndSurfaces ends({&below, &above}, kH);
    CHECK(ends.contactsOf(1, settings).empty());
  }
}

TEST_CASE("a cloth's own faces give it no contacts, and one cloth alone has none", "[collision]") {
  const ClothContactSettings settings{0.005, 0.5, 0.2};
  const Mesh sheet = sheetAt(0.0, Vec3(0, -1, 0));
  CHECK(ClothEndSurfaces({&sheet}, kH).contactsOf(0, settings).empty());
  // Each node lies on its own faces; the other sheet is far away.
  const Mesh far = sheetAt(1.0, Vec3::Zero());
  const ClothEndSurfaces ends({&sheet, &far}, kH);
  CHECK(ends.contactsOf(0, settings).empty());
  CHECK(ends.contactsOf(1, settings).empty());
}

TEST_CASE("a cloth folded onto itself gets contacts between its layers, not between material neighbours",
          "[collision]") {
  const ClothContactSettings settings{0.005, 0.5, 0.2};
  const Mesh strip = foldedStrip(0.004);
  // Without its own layers a lone cloth has nothing to touch.
  CHECK(ClothEndSurfaces({&strip}, kH).contactsOf(0, settings).empty());
  const std::vector<ObstacleContact> contacts = ClothEndSurfaces({&strip}, kH, true).contactsOf(0, settings);
  std::vector<const ObstacleContact*> ofNode(strip.nodes.size(), nullptr);
  for (const ObstacleContact& c : contacts) ofNode[c.node] = &c;
  int checked = 0;
  for (const Vert& vert : strip.verts) {
    // Away from the crease each layer lies 4 mm from the other: half of the 1 mm that is missing to the thickness.
    const double u0 = vert.u.x();
    if (std::abs(u0 - 0.2) < 0.012) continue;
    const ObstacleContact* c = ofNode[vert.node];
    REQUIRE(c != nullptr);
    CHECK(c->normal.isApprox(Vec3(0, u0 < 0.2 ? -1 : 1, 0), 1e-9));
    CHECK(c->depth == Approx(0.0005).epsilon(1e-6));
    ++checked;
  }
  CHECK(checked > 700);
}

TEST_CASE("the layer contacts do not depend on the tree: one kept from another step gives the same list",
          "[collision]") {
  // A sheet 4 mm over another, shifted by half a cell, its nodes over the middles of the lower sheet's edges: each
  // is as near to the two faces on either side of the edge, which interpolate the edge's velocity each in its own
  // coordinates (equal but for rounding). Which of the two a node takes must not be the tree's order of visits. The
  // kept tree grouped the faces with the sheets side by side (each apart), a tree built anew with the sheets one over
  // the other (both together), so the two trees visit the faces in different orders.
  const ClothContactSettings settings{0.005, 0.5, 0.2};
  auto sheet = [](double x0, double y) {
    Mesh mesh = makeGrid(0.2, 0.05, 40, 10);
    lay(mesh, [&](const Vec2& u) { return Vec3(x0 + u.x(), y, u.y()); });
    for (Node& node : mesh.nodes) node.v = Vec3(0.3 * std::sin(41 * node.x.x()), -0.1, 0.2 * std::cos(29 * node.x.z()));
    return mesh;
  };
  const Mesh below = sheet(0, 0), above = sheet(0.0025, 0.004);
  const Mesh apart = sheet(0.5, 0.004);
  WideBvh kept;
  { const ClothEndSurfaces earlier({&below, &apart}, kH, false, kept); }
  const ClothEndSurfaces anew({&below, &above}, kH), reusing({&below, &above}, kH, false, kept);
  for (int cloth : {0, 1}) {
    const std::vector<ObstacleContact> fresh = anew.contactsOf(cloth, settings);
    const std::vector<ObstacleContact> reused = reusing.contactsOf(cloth, settings);
    REQUIRE(fresh.size() > 300);
    REQUIRE(reused.size() == fresh.size());
    int differing = 0;
    for (size_t k = 0; k < fresh.size(); ++k)
      differing += reused[k].node != fresh[k].node || reused[k].normal != fresh[k].normal ||
                   reused[k].depth != fresh[k].depth || reused[k].surfaceVelocity != fresh[k].surfaceVelocity;
    CHECK(differing == 0);
  }
}

TEST_CASE("a crumpled cloth's faces within the thickness that are its material neighbours give no contacts",
          "[collision]") {
  // A sheet of 5 mm cells folded like an accordion, 3 mm high on a 4 mm pitch (no edge stretched), its nodes moved up
  // or down by up to 0.5 mm so that no cell stays flat: a node lies within the thickness of faces that do not hold it
  // (3.5-5 mm away in material space, across a cell's diagonal or a row over). Their spacing is the cloth's own (the
  // contact pass's rule: collision/material_distance.h), not a layer's, and faces that are layers by that rule (7 mm
  // or more away in material space) lie farther than the thickness.
  Mesh sheet = makeGrid(0.1, 0.05, 20, 10);
  lay(sheet, [](const Vec2& u) {
    const int column = int(std::lround(u.x() / 0.005)), row = int(std::lround(u.y() / 0.005));
    const double jitter = 0.00025 * ((row * 7 + column * 3) % 5 - 2);
    return Vec3(0.8 * u.x(), (column % 2 ? 0.003 : 0.0) + jitter, u.y());
  });
  const ClothContactSettings settings{0.005, 0.5, 0.2};
  // The geometry alone would give contacts: a free node within the thickness of a face that does not hold it.
  int near = 0;
  for (int i = 0; i < int(sheet.nodes.size()); ++i)
    for (int f = 0; f < int(sheet.faces.size()); ++f) {
      const Tri t = sheet.faceNodes(f);
      if (t[0] == i || t[1] == i || t[2] == i) continue;
      const Vec3& p = sheet.nodes[i].x;
      if (closestOnTriangle(p, sheet.nodes[t[0]].x, sheet.nodes[t[1]].x, sheet.nodes[t[2]].x).distance < 0.0045) ++near;
    }
  REQUIRE(near > 100);
  CHECK(ClothEndSurfaces({&sheet}, kH, true).contactsOf(0, settings).empty());
}

TEST_CASE("a node of a cloth beside one of its own faces, not over it, gets no contact from it", "[collision]") {
  // One cloth of two panels (two charts: material space says nothing about how far apart they are): a flat 0.1 m
  // floor panel and a 2 x 2 cm panel standing beside its edge. Beside a face, the side a node started on says little
  // (in a crease it may be on the next face), so only a node over or under a face of its own cloth gets a spring.
  auto twoPanels = [](const Vec3& standing) {
    Mesh floor = makeGrid(0.1, 0.1, 4, 4);
    lay(floor, [](const Vec2& u) { return Vec3(u.x(), 0, u.y()); });
    Mesh wall = makeGrid(0.02, 0.02, 1, 1);
    lay(wall, [&](const Vec2& u) -> Vec3 { return standing + Vec3(u.x(), u.y(), 0.05); });
    const int nodes = int(floor.nodes.size()), verts = int(floor.verts.size());
    for (const Node& node : wall.nodes) floor.nodes.push_back(node);
    for (Vert vert : wall.verts) vert.node += nodes, floor.verts.push_back(vert);
    for (Face face : wall.faces) {
      for (int& v : face.verts) v += verts;
      floor.faces.push_back(face);
    }
    floor.buildAdjacency();
    floor.updateGeometry();
    return floor;
  };
  const ClothContactSettings settings{0.005, 0.5, 0.2};
  auto wallNodeContacts = [&](const Mesh& cloth) {
    int count = 0;
    for (const ObstacleContact& c : ClothEndSurfaces({&cloth}, kH, true).contactsOf(0, settings))
      count += c.node >= 25;  // the floor's 5 x 5 nodes come first
    return count;
  };
  // Standing 3 mm beyond the floor's edge at x = 0.1, its lower nodes in the floor's plane: beside it.
  CHECK(wallNodeContacts(twoPanels(Vec3(0.103, 0, 0))) == 0);
  // Standing on the floor 3 mm above it: its two lower nodes are over it.
  CHECK(wallNodeContacts(twoPanels(Vec3(0.04, 0.003, 0))) == 2);
}

TEST_CASE("the other cloth is seen as it was when the surfaces were built, not as a solve before changed it",
          "[collision]") {
  Mesh below = sheetAt(0.0, Vec3::Zero());
  const Mesh above = sheetAt(0.008, Vec3(0, -1, 0));
  const ClothEndSurfaces ends({&below, &above}, kH);
  for (Node& node : below.nodes) node.x.y() -= 0.5, node.v = Vec3(0, -3, 0);  // as if solved first
  const std::vector<ObstacleContact> upper = ends.contactsOf(1, ClothContactSettings{0.005, 0.5, 0.2});
  REQUIRE(upper.size() == above.nodes.size());
  CHECK(upper.front().surfaceVelocity.isZero());
  CHECK(upper.front().depth == Approx(0.0035).epsilon(1e-9));
}

TEST_CASE("two layers dropped on a ball keep their faces whole where they press on each other",
          "[collision][regression]") {
  // A cotton square and a jersey square turned 30 degrees, 4 cm apart, dropped on a 30 cm ball, no strain limit.
  // Kept apart by the contact pass alone, the pushes sheared the layers' faces and later splits made that long edges:
  // an edge past 1.3x its rest length in 9 (cotton) and 11 (jersey) of the 31 frames. With the layers' springs in
  // the solve: 2 and 8 (docs/benchmarks.md, "Layers of cloth kept apart in the solve"). The worst single edge is
  // chaotic from run to run (1.96 / 1.65 -> 1.70 / 1.83 here) and is not what this checks.
  using namespace adacloth::test;
  TempDir dir("two-layers");
  auto run = simulateShot(dir, "two", R"({"name": "two", "fps": 24, "frames": 30, "steps_per_frame": 4,
    "cloths": [
      {"name": "a", "mesh": {"grid": {"size": [1, 1], "cells": [20, 20]}}, "material": "cotton", "remeshing": true,
       "transform": {"translate": [-0.5, 1.0, 0.5], "rotate_deg": [-90, 0, 0]}},
      {"name": "b", "mesh": {"grid": {"size": [1, 1], "cells": [20, 20]}}, "material": "jersey", "remeshing": true,
       "transform": {"translate": [-0.45, 1.04, 0.45], "rotate_deg": [-90, 30, 0]}}],
    "obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.3}}, "transform": {"translate": [0, 0.5, 0]}},
                  {"name": "floor", "mesh": {"ground": {}}}],
    "collision": {"thickness": 0.005}})");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  const std::vector<config::Json> stats = frameStats(dir / "out");
  REQUIRE(stats.size() == 31);
  int cottonFramesPast = 0, framesPast = 0;
  for (const config::Json& frameStat : stats)
    for (const config::Json& cloth : frameStat["cloths"]) {
      const bool past = cloth["stretch_max"].get<double>() > 1.3;
      framesPast += past;
      cottonFramesPast += past && cloth["name"] == "a";
      CHECK(cloth["intersections"].get<int>() == 0);
    }
  // 13 until each cloth's own layers got springs too (stop 82), which moved this chaotic shot to 14; still well
  // under the 20 of the pushes alone. The cotton bound was this one trajectory's count, and the shot is chaotic: over
  // six trajectories (solver_tolerance 0.0025, 0.0028, 0.0031, 0.0034, 0.0037 and the default) the cotton had 3-5
  // frames past 1.3 (mean 3.8; jersey 2-11, mean 7.0) before pairs at their rest spacing stopped being contacts, and
  // 3-6 (mean 4.2; jersey 5-9, mean 7.3) after; this one went from 4 to 5. The bound is set above that spread and
  // below the pushes alone (9 for the cotton).
  CHECK(cottonFramesPast <= 6);
  CHECK(framesPast <= 16);
}

TEST_CASE("a ribbon piling onto the floor keeps its faces whole where it folds onto itself",
          "[collision][regression]") {
  // A 1.5 m silk ribbon, no strain limit, dropped standing on its end, tilted, onto the floor, where it folds over
  // itself. Kept apart by the contact pass alone its layers were pushed out node by node: an edge past 1.3x its rest
  // length in 14 of the first 24 frames. With springs between its own layers in the solve: 6 (docs/benchmarks.md,
  // "A cloth's own layers in the solve").
  //
  // The pile is chaotic: one trajectory's count moves by +-5 with any change of rounding. Over eight trajectories
  // (solver_tolerance 0.0024 ... 0.0038; docs/benchmarks.md, "Folds finer than the thickness") the springs give 2-12
  // frames (mean 6.0; 2-11, mean 5.4, with stop 91's pushes to 0.9 of the material distance) and the pushes alone
  // 7-17 (mean 13.8). So three trajectories are summed, and the bound lies between the two: 17 here, 21 with stop
  // 91's rule, 37 for the pushes alone.
  using namespace adacloth::test;
  int framesPast = 0;
  for (const char* tolerance : {"0.0026", "0.003", "0.0034"}) {
    TempDir dir("ribbon-pile");
    auto run = simulateShot(dir, "ribbon", std::string(R"({"name": "ribbon", "fps": 24, "frames": 24,
      "steps_per_frame": 4, "solver_tolerance": )") + tolerance + R"(,
      "cloths": [{"name": "ribbon", "mesh": {"grid": {"size": [0.3, 1.5], "cells": [6, 30]}}, "material": "silk",
                  "transform": {"translate": [-0.15, 0.05, 0.0], "rotate_deg": [-6, 0, 4]},
                  "remeshing": {"size": [0.01, 0.1]}}],
      "obstacles": [{"name": "floor", "mesh": {"ground": {"size": 4}}}],
      "collision": {"thickness": 0.005, "obstacle_friction": 0.3, "self_friction": 0.2}})");
    INFO(run.output);
    REQUIRE(run.exitCode == 0);
    const std::vector<config::Json> stats = frameStats(dir / "out");
    REQUIRE(stats.size() == 25);
    for (const config::Json& frameStat : stats) {
      const config::Json& cloth = frameStat["cloths"][0];
      framesPast += cloth["stretch_max"].get<double>() > 1.3;
      CHECK(cloth["intersections"].get<int>() == 0);
    }
  }
  CHECK(framesPast <= 28);
}
