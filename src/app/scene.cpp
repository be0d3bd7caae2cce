#include "app/scene.h"

#include <algorithm>

#include "app/bind_surface.h"
#include "config/camera_file.h"
#include "dynamics/push_guard.h"
#include "io/error.h"
#include "io/obj.h"
#include "mesh/generators.h"
#include "upsample/model_kind.h"
#include "upsample/patch_mlp.h"
#include "upsample/wrinkle_file.h"

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

// The predictor of a model file of `method`'s kind (loading errors are InputErrors naming the file).
OutputPredictor loadPredictor(UpsampleMethod method, const std::string& file) {
  switch (method) {
    case UpsampleMethod::Linear:
      return linearPredictor(std::make_shared<const UpsampleOperator>(loadUpsampleOperator(file)));
    case UpsampleMethod::Wrinkles: {
      auto model = std::make_shared<const WrinkleModel>(loadWrinkleModel(file));
      OutputPredictor p;
      p.mesh = outputMeshOf(model->pair);
      p.predict = [model](const std::vector<Eigen::MatrixX3f>& coarse, double, Eigen::MatrixX3f& fine) {
        fine = model->apply(coarse.front().cast<double>()).cast<float>();
      };
      return p;
    }
    case UpsampleMethod::Mlp: {
      auto model = std::make_shared<const PatchMlp>(loadPatchMlp(file));
      OutputPredictor p;
      p.mesh = outputMeshOf(model->pair);
      p.historyFrames = 3;
      p.predict = [model](const std::vector<Eigen::MatrixX3f>& coarse, double, Eigen::MatrixX3f& fine) {
        fine = model->apply(coarse[0].cast<double>(), coarse[1].cast<double>(), coarse[2].cast<double>())
                   .cast<float>();
      };
      return p;
    }
  }
  throw std::logic_error("loadPredictor: unknown method");
}

// The cloth's `upsample` model, checked against its kind and its mesh. A missing, broken, mismatched or
// wrong-kind file is an InputError naming the shot, the JSON pointer and the file.
std::shared_ptr<FixedTopologyOutput> loadClothOutput(const ClothSpec& cloth, const Mesh& mesh, const Shot& shot) {
  const UpsampleSpec& spec = *cloth.upsample;
  const std::string where = shot.file.string() + ": " + cloth.place + "/upsample/operator: ";
  std::error_code ec;
  if (!fs::is_regular_file(spec.operatorFile, ec))
    throw InputError(where + "operator file " + spec.operatorFile.string() + " does not exist");
  const UpsampleMethod method = *methodFromName(spec.method);  // the schema allows only the three names
  const std::optional<UpsampleMethod> kind = modelFileMethod(spec.operatorFile.string());
  if (kind && *kind != method)
    throw InputError(where + spec.operatorFile.string() + " is a \"" + methodName(*kind) +
                     "\" model, but upsample/method is \"" + spec.method + "\"");
  OutputPredictor predictor;
  try {
    predictor = loadPredictor(method, spec.operatorFile.string());
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  }
  const std::string bad = operatorMismatch(*predictor.mesh, mesh, coverageTolerance(*predictor.mesh, mesh));
  if (!bad.empty())
    throw InputError(where + "operator " + spec.operatorFile.string() + " does not cover cloth \"" + cloth.name +
                     "\": " + bad);
  return std::make_shared<FixedTopologyOutput>(std::move(predictor),
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
  scene.time = shot.startTime();
  // Obstacles first: handles bound to one (`bind_to`) attach to its surface at the start (frame 0, or the start of
  // the pre-roll).
  // One cycle played by several characters is read once. Room for 4 files per sequence (a step blends two, and its
  // start and end may fall on either side of a file), so that many distinct sequences do not evict each other.
  const size_t sequences = std::count_if(shot.obstacles.begin(), shot.obstacles.end(), [](const ObstacleSpec& o) {
    return o.shape == ObstacleSpec::Shape::Sequence;
  });
  auto sequenceFiles = std::make_shared<SequenceFiles>(std::max<size_t>(16, 4 * sequences));
  for (const ObstacleSpec& spec : shot.obstacles)
    scene.obstacles.emplace_back(spec, shot.file.string(), sequenceFiles);
  const BindSurfaces surfaces = bindSurfacesOf(shot, scene.obstacles);
  for (const ClothSpec& spec : shot.cloths) {
    Cloth cloth;
    cloth.spec = spec;
    cloth.mesh = buildClothMesh(spec, shot);
    cloth.dynamics.time = shot.startTime();
    cloth.dynamics.handles = resolveHandles(spec.handles, cloth.mesh, shot.file.string(), surfaces, shot.startTime());
    rebuildDynamics(cloth);
    if (spec.upsample) cloth.output = loadClothOutput(spec, cloth.mesh, shot);
    if (spec.view && spec.view->memorySeconds > 0.0)
      cloth.viewMemory = makeViewMemory(cloth.mesh, spec.remeshing->sizeMin);
    scene.cloths.push_back(std::move(cloth));
  }
  for (const ClothSpec& spec : shot.cloths)
    if (spec.view && !scene.camera) scene.camera = loadShotCamera(shot);  // InputError when the file is broken
  return scene;
}

void endPreroll(Scene& scene) {
  scene.time = 0.0;
  for (Cloth& cloth : scene.cloths) cloth.dynamics.time = 0.0;
}

void rebuildDynamics(Cloth& cloth) {
  rebuildDynamics(cloth.dynamics, cloth.mesh, cloth.spec.material, cloth.spec.strainLimit);
  const std::vector<char> held = pinnedMask(cloth);
  cloth.strainLimits = strainLimits(cloth.mesh, cloth.dynamics, cloth.spec.strainLimit, held);
  cloth.pushGuard = cloth.spec.strainLimit.enabled ? StrainLimits() : pushGuardLimits(cloth.mesh, cloth.dynamics, held);
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
