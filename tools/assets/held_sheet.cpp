#include "assets/held_sheet.h"

#include "dynamics/forces.h"

namespace adacloth::assets {

HeldSheet makeHeldSheet(int cells, const MaterialParams& material) {
  HeldSheet s;
  s.material = material;
  s.mesh = makeGrid(1, 1, cells, cells);
  for (Node& n : s.mesh.nodes) n.x = Vec3(n.x.x(), 0, -n.x.y());
  HandleSpec corners;
  corners.select = HandleSpec::Select::Points;
  corners.points = {Vec3(0, 0, -1), Vec3(1, 0, -1)};
  s.state.handles = resolveHandles({corners}, s.mesh, "test");
  rebuildDynamics(s.state, s.mesh, s.material);
  return s;
}

ImplicitSystem nextStepSystem(const HeldSheet& sheet, double h) {
  const size_t n = sheet.mesh.nodes.size();
  std::vector<Vec3> external(n, Vec3::Zero());
  addGravity(sheet.mesh, Vec3(0, -9.81, 0), external);
  return assembleSystem(sheet.mesh, sheet.state, sheet.material, external,
                        pinnedMask(sheet.state.handles, n), std::vector<Vec3>(n, Vec3::Zero()), h);
}

}  // namespace adacloth::assets
