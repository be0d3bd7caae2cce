#include "app/scene.h"

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
  for (const ClothSpec& spec : shot.cloths) {
    Cloth cloth{spec, buildClothMesh(spec, shot), {}};
    cloth.dynamics.handles = resolveHandles(spec.handles, cloth.mesh, shot.file.string());
    rebuildDynamics(cloth);
    scene.cloths.push_back(std::move(cloth));
  }
  for (const ObstacleSpec& spec : shot.obstacles) scene.obstacles.emplace_back(spec, shot.file.string());
  for (const ClothSpec& spec : shot.cloths)
    if (spec.view && !scene.camera) scene.camera = loadShotCamera(shot);  // InputError when the file is broken
  return scene;
}

void rebuildDynamics(Cloth& cloth) {
  rebuildDynamics(cloth.dynamics, cloth.mesh, cloth.spec.material);
}

void remapDynamics(Cloth& cloth, const std::vector<int>& nodeMap) {
  remapHandles(cloth.dynamics.handles, cloth.mesh, nodeMap, cloth.dynamics.time);
  rebuildDynamics(cloth);
}

std::vector<char> pinnedMask(const Cloth& cloth) {
  return pinnedMask(cloth.dynamics.handles, cloth.mesh.nodes.size());
}

}  // namespace adacloth
