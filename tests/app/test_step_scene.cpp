// One physics step of a scene (app/simulate.h, stepScene): what a caller changes between the solves and the contact
// pass is checked by that pass.
#include <catch2/catch.hpp>

#include "app/simulate.h"
#include "config/shot.h"

using namespace adacloth;

namespace {

// A sheet held still at its corners, 5 cm above a ball of radius 0.2 m centred at (0, 0.5, 0).
const char* kShot = R"({
  "name": "step", "frames": 1, "steps_per_frame": 4,
  "cloths": [{
    "name": "sheet", "mesh": {"grid": {"size": [0.4, 0.4], "cells": [4, 4]}},
    "transform": {"translate": [-0.2, 0.75, 0.2], "rotate_deg": [-90, 0, 0]},
    "material": "cotton",
    "handles": [{"points": [[-0.2, 0.75, 0.2], [0.2, 0.75, 0.2], [-0.2, 0.75, -0.2], [0.2, 0.75, -0.2]]}]
  }],
  "obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.2, "subdivisions": 3}},
                 "transform": {"translate": [0, 0.5, 0]}}],
  "collision": {"thickness": 0.005}
})";

int nodeNearest(const Mesh& mesh, const Vec3& p) {
  int best = 0;
  for (size_t i = 0; i < mesh.nodes.size(); ++i)
    if ((mesh.nodes[i].x - p).norm() < (mesh.nodes[best].x - p).norm()) best = int(i);
  return best;
}

}  // namespace

TEST_CASE("a move made before the contact pass of a step is checked by it", "[app]") {
  const Shot shot = parseShot(kShot, "conf/step.json");
  const Vec3 centre(0, 0.5, 0);
  Scene scene = buildScene(shot);
  const int middle = nodeNearest(scene.cloths[0].mesh, Vec3(0, 0.75, 0));
  // The sheet's middle node is carried from 5 cm above the ball to its far side, through it, within the step.
  auto throughTheBall = [&](Scene& s) { s.cloths[0].mesh.nodes[middle].x = Vec3(0, 0.25, 0); };
  FrameReport report(scene.cloths.size());
  stepScene(shot, scene, 1, 0, report, throughTheBall);
  const Vec3 x = scene.cloths[0].mesh.nodes[middle].x;
  INFO("middle node at " << x.transpose());
  CHECK(x.y() > centre.y());                // stopped on the near side
  CHECK((x - centre).norm() > 0.2 - 0.01);  // outside the ball (its faces are chords: a few mm inside the sphere)
}
