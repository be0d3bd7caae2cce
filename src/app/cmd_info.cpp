#include <cstdio>
#include <string>

#include "app/args.h"
#include "app/commands.h"
#include "app/scene.h"
#include "config/camera_file.h"
#include "view/camera_path.h"

namespace adacloth {
namespace {

std::string describeMesh(const MeshSpec& m) {
  switch (m.type) {
    case MeshSpec::Type::Grid:
      return "grid " + std::to_string(m.cellsX) + "x" + std::to_string(m.cellsY) + " cells";
    case MeshSpec::Type::Tube:
      return "tube " + std::to_string(m.cellsAround) + "x" + std::to_string(m.cellsAlong) + " cells";
    case MeshSpec::Type::Disc: return "disc, " + std::to_string(m.rings) + " rings";
    case MeshSpec::Type::File: return m.file.string();
  }
  return "?";
}

void printCloth(const Cloth& cloth) {
  const Mesh& mesh = cloth.mesh;
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  double mass = 0.0;
  int seamNodes = 0, boundaryEdges = 0;
  for (const Node& n : mesh.nodes) {
    lo = lo.cwiseMin(n.x);
    hi = hi.cwiseMax(n.x);
    mass += n.mass;
    seamNodes += n.seam;
  }
  for (const Edge& e : mesh.edges) boundaryEdges += e.isBoundary();
  auto [minEdge, maxEdge] = edgeLengthRange(mesh);
  std::printf("  %s: %s\n", cloth.spec.name.c_str(), describeMesh(cloth.spec.mesh).c_str());
  std::printf("    %zu nodes, %zu verts, %zu faces, %zu edges (%d on the boundary), %d seam nodes\n",
              mesh.nodes.size(), mesh.verts.size(), mesh.faces.size(), mesh.edges.size(), boundaryEdges, seamNodes);
  std::printf("    material area %.4g m^2, world area %.4g m^2, mass %.4g kg (%.4g kg/m^2)\n",
              mesh.totalMaterialArea(), mesh.totalWorldArea(), mass, cloth.spec.material.density);
  std::printf("    edge length %.4g to %.4g m; bounding box [%.3g, %.3g, %.3g] to [%.3g, %.3g, %.3g] m\n", minEdge,
              maxEdge, lo.x(), lo.y(), lo.z(), hi.x(), hi.y(), hi.z());
  const ClothSpec& spec = cloth.spec;
  const MaterialParams& m = spec.material;
  std::printf("    material %s: stretch %.4g N/m, shear %.4g N/m, bending %.4g N*m, damping %.4g s, membrane %s\n",
              m.preset.empty() ? "(inline)" : m.preset.c_str(), m.stretch, m.shear, m.bending, m.damping,
              m.membrane == MaterialParams::Membrane::Triangles ? "triangles" : "springs");
  std::printf("    %zu handle(s); strain limit %s; remeshing %s\n", spec.handles.size(),
              spec.strainLimit.enabled ? "on" : "off", spec.remeshing ? "on" : "off");
}

const char* shapeName(ObstacleSpec::Shape shape) {
  switch (shape) {
    case ObstacleSpec::Shape::File: return "mesh file";
    case ObstacleSpec::Shape::Sphere: return "sphere";
    case ObstacleSpec::Shape::Box: return "box";
    case ObstacleSpec::Shape::Ground: return "ground plane";
    case ObstacleSpec::Shape::Sequence: return "OBJ sequence";
  }
  return "?";
}

void printObstacle(const Obstacle& o) {
  const ObstacleSpec& s = o.spec();
  std::vector<Vec3> x = o.positionsAt(0.0);
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (const Vec3& p : x) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  std::printf("  %s: %s%s, %zu nodes, %zu triangles, %s\n", o.name().c_str(), shapeName(s.shape),
              s.shape == ObstacleSpec::Shape::File ? (" " + s.file.string()).c_str() : "", o.nodeCount(),
              o.faces().size(), o.moves() ? "moving" : "static");
  std::printf("    bounding box at t=0 [%.3g, %.3g, %.3g] to [%.3g, %.3g, %.3g] m\n", lo.x(), lo.y(), lo.z(), hi.x(),
              hi.y(), hi.z());
  if (!s.sequenceRest.empty()) std::printf("    pre-roll from its rest mesh %s\n", s.sequenceRest.string().c_str());
}

}  // namespace

int runInfoCommand(int argc, char** argv) {
  Args args("info", {}, argc, argv, 2);
  args.expectPositionals(1, "one shot file");
  Shot shot = loadShot(args.positionals()[0]);
  Scene scene = buildScene(shot);
  const std::optional<CameraPath> camera = loadShotCamera(shot);
  std::printf("shot %s (%s)\n", shot.name.c_str(), shot.file.string().c_str());
  std::printf("frames 0..%d at %g fps (%.3f s)\n", shot.frames, shot.fps, shot.frames / shot.fps);
  if (shot.prerollFrames > 0)
    std::printf("pre-roll: %d frames (%.3f s) before frame 0, not written\n", shot.prerollFrames, -shot.startTime());
  if (camera)
    std::printf("camera: %s (%dx%d px, %zu keyframes from %g to %g s, %s)\n", shot.camera->string().c_str(),
                camera->width, camera->height, camera->keyframes.size(), camera->startTime(), camera->endTime(),
                camera->interpolation == CameraPath::Interpolation::Smooth ? "smooth" : "linear");
  else
    std::printf("camera: none\n");
  std::printf("cloths: %zu\n", scene.cloths.size());
  for (const Cloth& cloth : scene.cloths) printCloth(cloth);
  if (scene.obstacles.empty()) std::printf("obstacles: none\n");
  else std::printf("obstacles: %zu\n", scene.obstacles.size());
  for (const Obstacle& o : scene.obstacles) printObstacle(o);
  const CollisionParams& c = shot.collision;
  std::printf("collision: %s, thickness %.4g m, friction %.3g (obstacles) %.3g (cloth), self-collision %s\n",
              c.enabled ? "on" : "off", c.thickness, c.obstacleFriction, c.selfFriction, c.selfCollision ? "on" : "off");
  return 0;
}

}  // namespace adacloth
