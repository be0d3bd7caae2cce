// Materials: stiffness derived per edge so behaviour does not depend on resolution; presets; bending at rest.
#include <catch2/catch.hpp>
#include <cmath>

#include "config/shot.h"
#include "dynamics/dynamics_state.h"
#include "io/error.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

// Potential energy of the stretch springs (J) after stretching the sheet's world positions by `factor` along x.
double stretchEnergy(int cells, double factor) {
  Mesh mesh = makeGrid(1, 1, cells, cells);
  DynamicsState state;
  MaterialParams m;
  rebuildDynamics(state, mesh, m);
  for (Node& n : mesh.nodes) n.x.x() *= factor;
  double e = 0;
  for (const SpringPair& p : state.pairs) {
    double stretch = (mesh.nodes[p.b].x - mesh.nodes[p.a].x).norm() - p.restLength;
    e += 0.5 * p.stretchK * stretch * stretch;
  }
  return e;
}

std::string shotError(const std::string& material) {
  try {
    parseShot(R"({"cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}, "material": )" + material + "}]}",
              "conf/s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a stretched sheet stores the same energy at any resolution", "[dynamics]") {
  double coarse = stretchEnergy(8, 1.01), fine = stretchEnergy(32, 1.01);
  CHECK(coarse > 0);
  CHECK(fine == Approx(coarse).epsilon(1e-3));
  // Modulus along warp = stretch + shear / 4 (see edgeStretchStiffness): 0.5 E eps^2 A with A = 1 m^2.
  MaterialParams m;
  CHECK(coarse == Approx(0.5 * (m.stretch + m.shear / 4) * 1e-4).epsilon(0.02));
}

TEST_CASE("masses are area density times area", "[dynamics]") {
  Mesh mesh = makeGrid(2, 1, 10, 5);
  DynamicsState state;
  MaterialParams m;
  m.density = 0.3;
  rebuildDynamics(state, mesh, m);
  double total = 0;
  for (const Node& n : mesh.nodes) total += n.mass;
  CHECK(total == Approx(0.6));
}

TEST_CASE("bending forces vanish on any flat placement and resist folding", "[dynamics]") {
  Mesh mesh = makeGrid(1, 1, 4, 4);
  DynamicsState state;
  MaterialParams m;
  m.stretch = m.shear = 0;
  m.bending = 1e-3;
  rebuildDynamics(state, mesh, m);
  auto bendingEnergy = [&] {
    // Sum over hinges of 0.5 k |s|^2 = 0.5 sum_pairs bendK |x_a - x_b|^2 (pairs hold -k K_i K_j and sum K = 0).
    double e = 0;
    for (const SpringPair& p : state.pairs) e += 0.5 * p.bendK * (mesh.nodes[p.a].x - mesh.nodes[p.b].x).squaredNorm();
    return e;
  };
  CHECK(std::abs(bendingEnergy()) < 1e-15);
  for (Node& n : mesh.nodes) n.x = Vec3(2 * n.x.x() + 0.3 * n.x.y(), n.x.y(), 0);  // any affine flat placement
  CHECK(std::abs(bendingEnergy()) < 1e-12);
  for (Node& n : mesh.nodes) n.x = Vec3(n.x.x(), n.x.y(), 0.5 * n.x.x() * n.x.x());  // curved: bent
  CHECK(bendingEnergy() > 1e-8);
}

TEST_CASE("materials come from presets, inline keys override them", "[dynamics]") {
  Shot shot = parseShot(R"({"cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}, "material": "denim"},
                                       {"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}},
                                        "material": {"preset": "silk", "density": 0.5}},
                                       {"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}}]})",
                        "conf/s.json");
  CHECK(shot.cloths[0].material.preset == "denim");
  CHECK(shot.cloths[0].material.stretch == 8000);
  CHECK(shot.cloths[1].material.density == 0.5);
  CHECK(shot.cloths[1].material.stretch == 800);
  CHECK(shot.resolved["cloths"][1]["material"]["stretch"] == 800);
  // No material: the built-in defaults, which are cotton's preset.
  Shot cotton = parseShot(R"({"cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}, "material": "cotton"}]})",
                          "conf/s.json");
  const MaterialParams &d = shot.cloths[2].material, &c = cotton.cloths[0].material;
  CHECK(d.density == c.density);
  CHECK(d.stretch == c.stretch);
  CHECK(d.shear == c.shear);
  CHECK(d.bending == c.bending);
  CHECK(d.damping == c.damping);
}

TEST_CASE("an unknown preset is an input error with a suggestion", "[dynamics]") {
  CHECK(shotError("\"coton\"").find("conf/s.json: /cloths/0/material: unknown material preset \"coton\" (did you "
                                    "mean \"cotton\"?)") == 0);
  CHECK(shotError(R"({"preset": "dnim"})").find("/cloths/0/material/preset: unknown material preset \"dnim\" (did "
                                                 "you mean \"denim\"?)") != std::string::npos);
  CHECK(shotError(R"({"stretch": -1})").find("/cloths/0/material/stretch") != std::string::npos);
}
