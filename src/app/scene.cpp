#include "app/scene.h"

#include "app/bind_surface.h"
#include "config/camera_file.h"
#include "io/error.h"
#include "io/obj.h"
#include "mesh/generators.h"

namespace adacloth {
namespace {

Mesh loadOrGenerate(const ClothSpec& cloth, const Shot& shot) {
  const MeshSpec& m = cloth.mesh;
  switch (m.type) {
    case MeshSpec::Type::Grid: return makeGrid(m.size.x(), m.size.y(), m.cellsX, m.cellsY);
    case MeshSpec::Type::Tube: return makeTube(m.radius, m.length, m.cellsAround, m.cellsAlong);
    case MeshSpec::Type::Disc: return makeDisc(m.radius, m.rings);
    case MeshSpec::Type::File: break;
  }
  std::error_code ec;
  if (!fs::exists(m.file, ec))
    throw InputError(shot.file.string() + ": " + cloth.place + "/mesh: mesh file " + m.file.string() +
                     " does not exist");
  return readObj(m.file);
}

// The cloth's `upsample` operator, checked against its mesh. A missing, broken or mismatched file is an InputError
// naming the shot, the JSON pointer and the file.
std::shared_ptr<const FixedTopologyOutput> loadClothOutput(const ClothSpec& cloth, const Mesh& mesh, const Shot& shot) {
  const UpsampleSpec& spec = *cloth.upsample;
  const std::string where = shot.file.string() + ": " + cloth.place + "/upsample/operator: ";
  std::error_code ec;
  if (!fs::is_regular_file(spec.operatorFile, ec))
    throw InputError(where + "operator file " + spec.operatorFile.string() + " does not exist");
  auto op = std::make_shared<UpsampleOperator>();
  try {
    *op = loadUpsampleOperator(spec.operatorFile.string());
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  }
  // Round-off allowance: a thousandth of the panel size (an operator made for this cloth fits far better).
  Vec2 lo = mesh.verts.front().u, hi = lo;
  for (const Vert& v : mesh.verts) lo = lo.cwiseMin(v.u), hi = hi.cwiseMax(v.u);
  const std::string bad = operatorMismatch(*op, mesh, 1e-3 * (hi - lo).norm() + 1e-9);
  if (!bad.empty())
    throw InputError(where + "operator " + spec.operatorFile.string() + " does not cover cloth \"" + cloth.name +
                     "\": " + bad);
  return std::make_shared<FixedTopologyOutput>(std::move(op),
                                               UpsampleBlend{spec.blendLo, spec.blendHi, spec.smoothingPasses});
}

}  // namespace

Mesh buildClothMesh(const ClothSpec& cloth, const Shot& shot) {
  Mesh mesh = loadOrGenerate(cloth, shot);
  for (Vert& v : mesh.verts) v.u *= cloth.transform.scale;
  for (Node& n : mesh.nodes) n.x = cloth.transform.apply(n.x);
  mesh.updateGeometry();
  mesh.computeMasses(cloth.material.density);
  return mesh;
}

Scene buildScene(const Shot& shot) {
  Scene scene;
  // Obstacles first: handles bound to one (`bind_to`) attach to its surface at frame 0.
  for (const ObstacleSpec& spec : shot.obstacles) scene.obstacles.emplace_back(spec, shot.file.string());
  const BindSurfaces surfaces = bindSurfacesOf(shot, scene.obstacles);
  for (const ClothSpec& spec : shot.cloths) {
    Cloth cloth;
    cloth.spec = spec;
    cloth.mesh = buildClothMesh(spec, shot);
    cloth.dynamics.handles = resolveHandles(spec.handles, cloth.mesh, shot.file.string(), surfaces);
    rebuildDynamics(cloth);
    if (spec.upsample) cloth.output = loadClothOutput(spec, cloth.mesh, shot);
    scene.cloths.push_back(std::move(cloth));
  }
  for (const ClothSpec& spec : shot.cloths)
    if (spec.view && !scene.camera) scene.camera = loadShotCamera(shot);  // InputError when the file is broken
  return scene;
}

void rebuildDynamics(Cloth& cloth) {
  rebuildDynamics(cloth.dynamics, cloth.mesh, cloth.spec.material);
  cloth.strainLimits = strainLimits(cloth.mesh, cloth.dynamics, cloth.spec.strainLimit, pinnedMask(cloth));
}

void remapDynamics(Cloth& cloth, const std::vector<int>& nodeMap) {
  remapHandles(cloth.dynamics.handles, cloth.mesh, nodeMap, cloth.dynamics.time);
  cloth.dynamics.solver.remap(nodeMap, cloth.mesh.nodes.size());
  rebuildDynamics(cloth);
}

std::vector<char> pinnedMask(const Cloth& cloth) {
  return pinnedMask(cloth.dynamics.handles, cloth.mesh.nodes.size());
}

}  // namespace adacloth
