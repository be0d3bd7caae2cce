#include "dynamics/step.h"

#include <cmath>
#include <cstdio>

#include "dynamics/forces.h"
#include "dynamics/implicit_system.h"
#include "dynamics/strain_limit.h"

namespace adacloth {

StepSettings stepSettingsOf(const Shot& shot) {
  return {shot.gravity, shot.wind, shot.solver, shot.iterations, shot.cgTolerance};
}

int stepCloth(Mesh& mesh, DynamicsState& state, const ClothSpec& cloth, const StepSettings& settings, double h) {
  const int n = int(mesh.nodes.size());
  const double tNext = state.time + h;
  // Reused between steps (see assembleSystemInto); one per thread calling stepCloth.
  // Bound to references: inside a parallel loop a thread_local name would denote each worker's own copy.
  thread_local ImplicitSystem sysStore;
  thread_local std::vector<Vec3> externalStore;
  ImplicitSystem& sys = sysStore;
  std::vector<Vec3>& external = externalStore;
  sys.fixed = pinnedMask(state.handles, mesh.nodes.size());
  const std::vector<char>& held = sys.fixed;
  // A held node gets the velocity that puts it on its target at the end of the step.
  sys.fixedDv.assign(n, Vec3::Zero());
  // For a bound node the target moves with the obstacle, so its velocity is the surface point's mean velocity over
  // the step (plus the correction of any drift), consistent with its positions.
  for (const HandleState& handle : state.handles) {
    const std::vector<Vec3> targets = handleTargets(handle, tNext);
    for (size_t k = 0; k < handle.nodes.size(); ++k) {
      const Node& node = mesh.nodes[handle.nodes[k]];
      sys.fixedDv[handle.nodes[k]] = (targets[k] - node.x) / h - node.v;
    }
  }
  external.assign(n, Vec3::Zero());
  addGravity(mesh, settings.gravity, external);
  addWind(mesh, settings.wind, external);
  assembleSystemInto(sys, mesh, state, cloth.material, external, h);
  int cgIterations = 0;
  std::vector<Vec3> dv;
  if (settings.solver == Shot::Solver::CG) {
    dv = solveConjugateGradient(sys, state, settings.cgTolerance, &cgIterations);
  } else {
    dv = solveKangCho(sys, state, settings.iterations);
  }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    mesh.nodes[i].v += dv[i];
    mesh.nodes[i].x += h * mesh.nodes[i].v;
  }
  if (cloth.strainLimit.enabled) limitStrain(mesh, state, cloth.strainLimit, held, h);
  state.time = tNext;
  return cgIterations;
}

std::optional<BadNode> findBadNode(const Mesh& mesh, double maxSpeed) {
  for (size_t i = 0; i < mesh.nodes.size(); ++i) {
    const Node& node = mesh.nodes[i];
    if (!node.x.allFinite() || !node.v.allFinite()) return BadNode{int(i), "has a non-finite position or velocity"};
    double speed = node.v.norm();
    if (speed > maxSpeed) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "moves at %.4g m/s, faster than max_speed %.4g m/s", speed, maxSpeed);
      return BadNode{int(i), buf};
    }
  }
  return std::nullopt;
}

double kineticEnergy(const Mesh& mesh) {
  double e = 0;
  for (const Node& node : mesh.nodes) e += 0.5 * node.mass * node.v.squaredNorm();
  return e;
}

}  // namespace adacloth
