#include "app/simulate.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "collision/measure.h"
#include "collision/obstacle_field.h"
#include "dynamics/energy.h"
#include "dynamics/step.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "io/obj.h"
#include "remesh/remesh.h"
#include "sizing/sizing_field.h"
#include "view/view_sizing.h"

namespace adacloth {
namespace {

using Clock = std::chrono::steady_clock;
using config::Json;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Stops the run with a message naming frame, cloth and node when a position or velocity is not finite.
void checkFinite(const Scene& scene, int frame) {
  for (const Cloth& cloth : scene.cloths)
    for (size_t i = 0; i < cloth.mesh.nodes.size(); ++i) {
      const Node& n = cloth.mesh.nodes[i];
      if (!n.x.allFinite() || !n.v.allFinite())
        throw SimulationError("frame " + std::to_string(frame) + ": cloth \"" + cloth.spec.name + "\" node " +
                              std::to_string(i) + " has a non-finite position or velocity; the simulation blew up");
    }
}

// Node positions of a mesh (m), the collision phase's start-of-step state.
std::vector<Vec3> positionsOf(const Mesh& mesh) {
  std::vector<Vec3> x(mesh.nodes.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = mesh.nodes[i].x;
  return x;
}

// The collision phase of one step from t0 to t1 (s): contacts of every cloth with the obstacles and each other
// (NOTES §6). `start` holds each cloth's node positions at t0.
void collideStep(const Shot& shot, Scene& scene, std::vector<std::vector<Vec3>>& start, double t0, double t1) {
  std::vector<ClothStep> cloths(scene.cloths.size());
  for (size_t c = 0; c < cloths.size(); ++c) {
    cloths[c].mesh = &scene.cloths[c].mesh;
    cloths[c].x0 = std::move(start[c]);
    cloths[c].pinned = pinnedMask(scene.cloths[c]);
  }
  CollisionStepStats st = resolveCollisions(cloths, posesAt(scene.obstacles, t0), posesAt(scene.obstacles, t1),
                                            collisionParams(shot.collision), t1 - t0, scene.collisionCache);
  scene.contacts = st.contacts;
}

// The physics and collision phases of one frame: steps_per_frame steps; in each, every cloth takes its implicit
// step, followed by the blow-up guard (a SimulationError naming frame, cloth and node; frames already written stay),
// then the collision phase fixes the contacts of all cloths at once.
void stepPhysics(const Shot& shot, Scene& scene, int frame, PhaseTimes& times) {
  for (Cloth& cloth : scene.cloths) cloth.solverIterations = 0, cloth.solverResidual = 0;
  for (int step = 0; step < shot.stepsPerFrame; ++step) stepScene(shot, scene, frame, step, times);
  for (Cloth& cloth : scene.cloths) cloth.mesh.updateGeometry();
}

SizingParams sizingParams(const RemeshingSpec& r) {
  SizingParams p;
  p.refineAngle = r.refineAngle;
  p.refineCompression = r.refineCompression;
  p.refineVelocity = r.refineVelocity;
  p.sizeMin = r.sizeMin;
  p.sizeMax = r.sizeMax;
  p.aspectMin = r.aspectMin;
  return p;
}

// The sizing and remesh phases of one cloth (NOTES §2-3), for cloths whose `remeshing` is on; the dynamics state
// (handles, masses, springs) then follows the new mesh through the remesher's node map. `obstacles` answers the
// sizing field's obstacle-proximity term.
//
// View-dependent refinement (NOTES §4, docs/view-dependent.md) applies to cloths with `view` when `camera` is given
// (null: `--no-view` or no camera): the raw face sizing is scaled by the view factor and clamped in screen space
// before the hard limits, and verts where the factor jumps take the tensor max of their faces. `time` (s) is the
// current time, `frameTime` (s) the frame length the anticipation window steps by.
void adaptCloth(Cloth& cloth, const ProximityQuery& obstacles, PhaseTimes& times, const CameraPath* camera,
                double time, double frameTime, const Occluders& occluders) {
  if (!cloth.spec.remeshing.enabled) return;
  auto sizingStart = Clock::now();
  const SizingParams sizing = sizingParams(cloth.spec.remeshing);
  cloth.mesh.updateGeometry();
  std::vector<Mat2> faceSizing = rawFaceSizing(cloth.mesh, sizing, obstacles);
  std::optional<ViewWindow> window;
  std::vector<Mat2> sizingAtVerts;
  if (camera && cloth.spec.view) {
    window = makeViewWindow(*camera, time, frameTime, *cloth.spec.view);
    if (cloth.spec.view->occlusion) addOcclusion(*window, occluders);
    const ViewFactorField field = viewFactorField(cloth.mesh, *window, *cloth.spec.view);
    applyViewToFaceSizing(cloth.mesh, faceSizing, field, *window, *cloth.spec.view);
    clampFaceSizing(faceSizing, sizing);
    sizingAtVerts = silhouetteVertexSizing(cloth.mesh, faceSizing, field.factor, cloth.spec.view->silhouetteThreshold);
  } else {
    clampFaceSizing(faceSizing, sizing);
    sizingAtVerts = vertexSizing(cloth.mesh, faceSizing);
  }
  times.sizing += msSince(sizingStart);
  auto remeshStart = Clock::now();
  RemeshParams params;
  params.aspectMin = sizing.aspectMin;
  RemeshResult result = remesh(cloth.mesh, sizingAtVerts, params, pinnedMask(cloth));
  remapDynamics(cloth, result.nodeMap);
  times.remesh += msSince(remeshStart);
  if (window) cloth.viewStats = measureView(cloth.mesh, *window, *cloth.spec.view);
}

// What can hide cloth from the camera when a cloth's `view` has occlusion on: obstacles and every cloth as they are
// now (empty when no cloth needs it).
Occluders viewOccluders(const Scene& scene) {
  Occluders occluders;
  bool needed = false;
  for (const Cloth& cloth : scene.cloths) needed = needed || (cloth.spec.view && cloth.spec.view->occlusion);
  if (!needed) return occluders;
  for (const Obstacle& o : scene.obstacles) occluders.add(o.positionsAt(scene.time), o.faces());
  for (const Cloth& cloth : scene.cloths) occluders.add(cloth.mesh);
  return occluders;
}

// Sizing and remeshing of every cloth at the current time. The sizing field's obstacle term sees obstacles within
// ten cloth thicknesses (NOTES §2), through the same proximity queries as the collision phase. `useView` false
// (`--no-view`) ignores every cloth's `view`.
void adaptCloths(const Shot& shot, Scene& scene, PhaseTimes& times, bool useView) {
  const ObstacleProximity obstacles(posesAt(scene.obstacles, scene.time), 10.0 * shot.collision.thickness);
  const CameraPath* camera = useView && scene.camera ? &*scene.camera : nullptr;
  auto occludersStart = Clock::now();
  const Occluders occluders = camera ? viewOccluders(scene) : Occluders();
  times.sizing += msSince(occludersStart);
  for (Cloth& cloth : scene.cloths)
    adaptCloth(cloth, obstacles, times, camera, scene.time, shot.frameTime(), occluders);
}

// One frame of simulated time: the physics steps, then sizing and remeshing once per frame.
void advanceFrame(const Shot& shot, Scene& scene, PhaseTimes& times, int frame, bool useView) {
  stepPhysics(shot, scene, frame, times);
  scene.time += shot.frameTime();
  adaptCloths(shot, scene, times, useView);
}

// Contact quality at the end of a frame, per cloth (stats.jsonl): depth inside obstacles, intersecting triangles.
struct ContactMeasures {
  std::vector<double> maxPenetration;  // m
  std::vector<int> intersections;
};

ContactMeasures measureContacts(const Scene& scene) {
  ContactMeasures m;
  ObstacleField field(posesAt(scene.obstacles, scene.time));
  std::vector<const Mesh*> meshes;
  for (const Cloth& cloth : scene.cloths) {
    m.maxPenetration.push_back(maxPenetration(cloth.mesh, field));
    meshes.push_back(&cloth.mesh);
  }
  m.intersections = countIntersections(meshes);
  return m;
}

// Obstacles go to OUT/obstacles/<name>_<frame:05d>.obj: all of them at frame 0, moving ones at every frame.
void writeObstacles(const Scene& scene, const std::filesystem::path& out, int frame) {
  for (const Obstacle& o : scene.obstacles) {
    if (frame > 0 && !o.moves()) continue;
    std::filesystem::create_directories(out / "obstacles");
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "_%05d.obj", frame);
    writeFileAtomically(out / "obstacles" / (o.name() + suffix), formatObstacleObj(o, o.positionsAt(scene.time)));
  }
}

void writeFrame(const Scene& scene, const std::filesystem::path& out, int frame) {
  for (const Cloth& cloth : scene.cloths) writeObj(cloth.mesh, frameFile(out, cloth.spec.name, frame));
  writeObstacles(scene, out, frame);
}

// The fixed-topology output of every cloth with `upsample`: evaluated (phase `upsample`) and written atomically next
// to the cloth's frame (phase `io`).
void writeUpsampledFrames(Scene& scene, const std::filesystem::path& out, int frame, PhaseTimes& times) {
  for (Cloth& cloth : scene.cloths) {
    if (!cloth.output) continue;
    auto start = Clock::now();
    const OutputFrame result = cloth.output->evaluate(cloth.mesh, scene.time);
    cloth.upsampledFraction = result.upsampledFraction;
    times.upsample += msSince(start);
    auto ioStart = Clock::now();
    writeFileAtomically(upsampledFrameFile(out, cloth.spec.name, frame), cloth.output->formatObj(result.positions));
    times.io += msSince(ioStart);
  }
}

// `gravity` (m/s^2) is the shot's, for the potential energy.
Json statsLine(const Scene& scene, int frame, const PhaseTimes& t, double totalMs, const ContactMeasures& cm,
               const Vec3& gravity) {
  Json line;
  line["frame"] = frame;
  line["time"] = scene.time;
  line["wall_ms"] = {{"total", totalMs}, {"sizing", t.sizing}, {"remesh", t.remesh}, {"physics", t.physics},
                     {"collision", t.collision}, {"io", t.io}, {"upsample", t.upsample}};
  Json cloths = Json::array();
  for (const Cloth& cloth : scene.cloths) {
    auto [minEdge, maxEdge] = edgeLengthRange(cloth.mesh);
    cloths.push_back({{"name", cloth.spec.name}, {"nodes", cloth.mesh.nodes.size()},
                      {"faces", cloth.mesh.faces.size()}, {"min_edge", minEdge}, {"max_edge", maxEdge}});
    const size_t c = cloths.size() - 1;
    cloths.back()["contacts"] = c < scene.contacts.size() ? scene.contacts[c] : 0;
    cloths.back()["max_penetration"] = cm.maxPenetration[c];
    cloths.back()["intersections"] = cm.intersections[c];
    cloths.back()["kinetic_energy"] = kineticEnergy(cloth.mesh);
    cloths.back()["potential_energy"] = potentialEnergy(cloth.mesh, gravity);
    cloths.back()["elastic_energy"] = elasticEnergy(cloth.mesh, cloth.dynamics);
    cloths.back()["solver_iterations"] = scene.cloths[c].solverIterations;
    cloths.back()["solver_residual"] = scene.cloths[c].solverResidual;
    if (const auto& view = scene.cloths[c].viewStats) {
      cloths.back()["visible_faces"] = view->visibleFaces;
      cloths.back()["mean_view_factor"] = view->meanViewFactor;
    }
    if (const auto& fraction = scene.cloths[c].upsampledFraction) cloths.back()["upsampled_fraction"] = *fraction;
  }
  line["cloths"] = cloths;
  return line;
}

// One JSON object per line, appended with a single write so a crash loses at most the line being written.
void appendLine(const std::filesystem::path& file, const Json& line) {
  std::ofstream out(file, std::ios::app | std::ios::binary);
  std::string text = line.dump() + "\n";
  out.write(text.data(), std::streamsize(text.size()));
  if (!out) throw std::runtime_error(file.string() + ": cannot write");
}

std::string progressDetail(const Scene& scene) {
  size_t faces = 0;
  for (const Cloth& c : scene.cloths) faces += c.mesh.faces.size();
  char buf[96];
  std::snprintf(buf, sizeof buf, "t=%.3f s, %zu faces", scene.time, faces);
  return buf;
}

}  // namespace

void stepScene(const Shot& shot, Scene& scene, int frame, int step, PhaseTimes& times) {
  const StepSettings settings = stepSettingsOf(shot);
  auto physicsStart = Clock::now();
  std::vector<std::vector<Vec3>> start;
  for (Cloth& cloth : scene.cloths) {
    start.push_back(positionsOf(cloth.mesh));
    const SolveReport solve = stepCloth(cloth.mesh, cloth.dynamics, cloth.spec, settings, shot.stepTime());
    cloth.solverIterations += solve.iterations;
    cloth.solverResidual = std::max(cloth.solverResidual, solve.residual);
    if (auto bad = findBadNode(cloth.mesh, shot.maxSpeed))
      throw SimulationError("frame " + std::to_string(frame) + ": cloth \"" + cloth.spec.name + "\" node " +
                            std::to_string(bad->node) + " " + bad->reason + "; the simulation blew up (try more "
                            "steps_per_frame or a softer material)");
  }
  times.physics += msSince(physicsStart);
  if (!shot.collision.enabled) return;
  auto collisionStart = Clock::now();
  const double t0 = scene.time + step * shot.stepTime();
  collideStep(shot, scene, start, t0, t0 + shot.stepTime());
  times.collision += msSince(collisionStart);
}

void prepareOutputFolder(const std::filesystem::path& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw InputError(out.string() + ": the output folder is a file");
  for (const char* sub : {"frames", "render", "obstacles"}) {
    if (!fs::is_directory(out / sub, ec)) continue;
    for (const auto& entry : fs::directory_iterator(out / sub)) {
      auto ext = entry.path().extension();
      if (ext == ".obj" || ext == ".png") fs::remove(entry.path());
    }
  }
  // Files made from an earlier run's frames (stats, movie, contact sheet, stats plot) would be stale.
  for (const char* file : {"stats.jsonl", "movie.mp4", "contact_sheet.png", "stats.png"}) fs::remove(out / file, ec);
  fs::create_directories(out / "frames", ec);
  if (ec) throw std::runtime_error(out.string() + ": cannot create the output folder (" + ec.message() + ")");
}

std::filesystem::path frameFile(const std::filesystem::path& out, const std::string& cloth, int frame) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "_%05d.obj", frame);
  return out / "frames" / (cloth + buf);
}

std::filesystem::path upsampledFrameFile(const std::filesystem::path& out, const std::string& cloth, int frame) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "_out_%05d.obj", frame);
  return out / "frames" / (cloth + buf);
}

void simulateShot(const Shot& shot, Scene& scene, const RunOptions& options) {
  prepareOutputFolder(options.out);
  writeFileAtomically(options.out / "shot.resolved.json", shot.resolved.dump(2) + "\n");
  const auto statsFile = options.out / "stats.jsonl";
  Progress progress("frame", options.progress);
  for (int frame = 0; frame <= options.frames; ++frame) {
    auto start = Clock::now();
    PhaseTimes times;
    if (frame > 0) {
      advanceFrame(shot, scene, times, frame, options.view);
    } else {
      // Initial refinement: a coarse panel is remeshed to its sizing at rest before frame 0 is written.
      adaptCloths(shot, scene, times, options.view);
    }
    checkFinite(scene, frame);
    auto ioStart = Clock::now();
    writeFrame(scene, options.out, frame);
    times.io = msSince(ioStart);
    writeUpsampledFrames(scene, options.out, frame, times);
    auto measureStart = Clock::now();
    const ContactMeasures measures = measureContacts(scene);
    times.collision += msSince(measureStart);
    appendLine(statsFile, statsLine(scene, frame, times, msSince(start), measures, shot.gravity));
    progress.update(frame, options.frames, progressDetail(scene));
  }
  progress.finish();
}

}  // namespace adacloth
