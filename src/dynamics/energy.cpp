#include "dynamics/energy.h"

#include "dynamics/handles.h"

namespace adacloth {

double potentialEnergy(const Mesh& mesh, const Vec3& gravity) {
  double e = 0;
  for (const Node& node : mesh.nodes) e -= node.mass * gravity.dot(node.x);
  return e;
}

double elasticEnergy(const Mesh& mesh, const DynamicsState& state) {
  double e = 0;
  for (const SpringPair& p : state.pairs) {
    const Vec3 d = mesh.nodes[p.b].x - mesh.nodes[p.a].x;
    const double stretch = p.stretchK > 0 ? d.norm() - p.restLength : 0.0;
    e += 0.5 * p.stretchK * stretch * stretch + 0.5 * p.bendK * d.squaredNorm();
  }
  if (state.triangleMembrane) e += membraneEnergy(mesh, state.membrane);
  return e + faceStiffeningEnergy(mesh, state.faceStiffening, pinnedMask(state.handles, mesh.nodes.size()));
}

}  // namespace adacloth
