// Collision's share of the step time and its growth with node count, on a scene of growing resolution (the
// character shots are measured whole by `adacloth simulate` and tools/bench_view): a sheet dropped on a sphere that
// moves sideways, with the real dynamics step (stepCloth, the default solve) followed by the collision phase
// (resolveCollisions) every step, as `adacloth simulate` runs them.
// Usage: bench_collision [frames]   (prints a table: cells, nodes, physics ms/step, collision ms/step, share)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/memory_policy.h"
#include "app/scene.h"
#include "collision/response.h"
#include "dynamics/step.h"

using namespace adacloth;

namespace {

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

std::string shotText(int cells) {
  return R"({"fps": 24, "frames": 48, "steps_per_frame": 4,
    "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [1.2, 1.2], "cells": [)" + std::to_string(cells) + ", " +
         std::to_string(cells) + R"(]}}, "transform": {"translate": [-0.6, 0.9, 0.6], "rotate_deg": [-90, 0, 0]}}],
    "obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.3}}, "transform": {"translate": [0, 0.5, 0]},
                   "motion": [{"time": 0, "translate": [-0.2, 0, 0]}, {"time": 2, "translate": [0.2, 0, 0]}]},
                  {"name": "floor", "mesh": {"ground": {}}}]})";
}

}  // namespace

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();  // as the adacloth program does (src/app/main.cpp)
  const int frames = argc > 1 ? std::atoi(argv[1]) : 24;
  if (argc > 2 || frames <= 0) {
    std::fprintf(stderr, "usage: bench_collision [FRAMES]   (a positive count; default 24)\n");
    return 2;
  }
  std::printf("%6s %7s %14s %16s %8s\n", "cells", "nodes", "physics ms/step", "collision ms/step", "share");
  for (int cells : {16, 24, 32, 48}) {
    Shot shot = parseShot(shotText(cells), "bench.json");
    Scene scene = buildScene(shot);
    const StepSettings& settings = shot.dynamics;
    const CollisionParams& params = shot.collision;
    double physics = 0, collision = 0;
    int steps = 0;
    for (int f = 0; f < frames; ++f)
      for (int s = 0; s < shot.stepsPerFrame; ++s, ++steps) {
        Cloth& cloth = scene.cloths[0];
        std::vector<ClothStep> cs(1);
        cs[0].mesh = &cloth.mesh;
        for (const Node& n : cloth.mesh.nodes) cs[0].x0.push_back(n.x);
        cs[0].pinned = pinnedMask(cloth);
        auto t = std::chrono::steady_clock::now();
        stepCloth(cloth.mesh, cloth.dynamics, cloth.spec.material, settings, shot.stepTime());
        physics += msSince(t);
        const double t0 = steps * shot.stepTime();
        t = std::chrono::steady_clock::now();
        resolveCollisions(cs, posesAt(scene.obstacles, t0), posesAt(scene.obstacles, t0 + shot.stepTime()), params,
                          shot.stepTime(), scene.collisionCache);
        collision += msSince(t);
      }
    std::printf("%6d %7zu %14.2f %16.2f %7.0f%%\n", cells, scene.cloths[0].mesh.nodes.size(), physics / steps,
                collision / steps, 100 * collision / (physics + collision));
  }
  return 0;
}
