#include "app/simulate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <new>
#include <optional>
#include <set>

#include "app/checkpoint.h"
#include "app/held_inside.h"
#include "app/obstacle_solids.h"
#include "app/run_health.h"
#include "app/start_crossed.h"
#include "collision/bvh.h"
#include "collision/cloth_contacts.h"
#include "collision/measure.h"
#include "collision/obstacle_field.h"
#include "collision/predicted_contacts.h"
#include "collision/sweep_guard.h"
#include "dynamics/energy.h"
#include "dynamics/step.h"
#include "dynamics/strain_limit.h"
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

// Whether a cloth limits its strain (the contact and constraint pass then runs even with contact off).
bool anyStrainLimit(const Scene& scene) {
  for (const Cloth& cloth : scene.cloths)
    if (cloth.spec.strainLimit.enabled) return true;
  return false;
}

// The contact and constraint pass of one step from t0 to t1 (s): contacts of every cloth with the obstacles and each
// other, and strain limits (docs/design.md §6). `start` holds each cloth's node positions at t0.
void collideStep(const Shot& shot, Scene& scene, std::vector<std::vector<Vec3>>& start, double t0, double t1,
                 FrameReport& report) {
  std::vector<ClothStep> cloths(scene.cloths.size());
  for (size_t c = 0; c < cloths.size(); ++c) {
    cloths[c].mesh = &scene.cloths[c].mesh;
    cloths[c].x0 = std::move(start[c]);
    cloths[c].pinned = pinnedMask(scene.cloths[c]);
    cloths[c].strainLimits = &scene.cloths[c].strainLimits;
    cloths[c].pushGuard = &scene.cloths[c].pushGuard;
  }
  // Both stay valid: the cache keeps the two times last asked for.
  const std::vector<ObstaclePose>& posesAtStart = scene.obstaclePoses.at(scene.obstacles, t0);
  const std::vector<ObstaclePose>& posesAtEnd = scene.obstaclePoses.at(scene.obstacles, t1);
  const CollisionStepStats st =
      resolveCollisions(cloths, posesAtStart, posesAtEnd, shot.collision, t1 - t0, scene.collisionCache);
  report.collision.add(st);
  // The limiter is timed inside the pass; the collision phase's scope (the caller's) holds it too.
  report[Phase::StrainLimit] += st.limitMs;
  report[Phase::Collision] -= st.limitMs;
  for (size_t c = 0; c < cloths.size(); ++c) report.cloths[c].contacts = st.contacts[c];
}

// The physics and collision phases of one frame: steps_per_frame steps; in each, every cloth takes its implicit
// step, followed by the blow-up guard (a SimulationError naming frame, cloth and node; frames already written stay),
// then the collision phase fixes the contacts of all cloths at once.
void stepPhysics(const Shot& shot, Scene& scene, int frame, FrameReport& report) {
  for (Cloth& cloth : scene.cloths) startSolverFrame(cloth.dynamics);
  for (int step = 0; step < shot.stepsPerFrame; ++step) stepScene(shot, scene, frame, step, report);
  ScopedPhase timer(report, Phase::Physics);
  for (Cloth& cloth : scene.cloths) cloth.mesh.updateGeometry();
}

// The sizing and remesh phases of one cloth (docs/design.md §2-3), for cloths whose `remeshing` is on; the dynamics
// state (handles, masses, springs) then follows the new mesh through the remesher's node map. `obstacles` answers the
// sizing field's obstacle-proximity term. The face geometry must be current (stepPhysics and buildScene leave it so).
//
// View-dependent refinement (docs/design.md §4, docs/view-dependent.md) applies to cloths with `view` when `camera` is
// given (null: `--no-view` or no camera): the raw face sizing is raised where the cloth comes back into view
// (its view memory), scaled by the view factor and clamped in screen space before the hard limits (not on faces with
// a node bound to an obstacle when `keep_held` is on), and verts where the factor jumps take the tensor max of their
// faces. `time` (s) is the current time, `frameTime` (s) the frame length the anticipation window steps by.
void adaptCloth(Cloth& cloth, const ProximityQuery& obstacles, FrameReport& report, ClothCounters& counters,
                const CameraPath* camera, double time, double frameTime, const Occluders& occluders,
                SweepGuard* guard) {
  if (!cloth.spec.remeshing) return;
  const SizingParams& sizing = *cloth.spec.remeshing;
  std::optional<ViewWindow> window;
  std::vector<Mat2> faceSizing, sizingAtVerts;
  {
    ScopedPhase timer(report, Phase::Sizing);
    faceSizing = rawFaceSizing(cloth.mesh, sizing, obstacles);
    if (camera && cloth.spec.view) window = makeViewWindow(*camera, time, frameTime, *cloth.spec.view);
  }
  if (window && cloth.spec.view->occlusion) {
    ScopedPhase timer(report, Phase::Occlusion);
    addOcclusion(*window, occluders);
  }
  {
    ScopedPhase timer(report, Phase::Sizing);
    if (window) {
      ViewFactorField field = viewFactorField(cloth.mesh, *window, *cloth.spec.view);
      if (cloth.spec.view->keepHeld)
        keepHeldFacesViewIndependent(cloth.mesh, boundMask(cloth.dynamics.handles, cloth.mesh.nodes.size()), field);
      if (cloth.viewMemory)
        rememberViewSizing(*cloth.viewMemory, cloth.mesh, faceSizing, field.factor, time,
                           cloth.spec.view->memorySeconds);
      applyViewToFaceSizing(cloth.mesh, faceSizing, field, *window, *cloth.spec.view);
      clampFaceSizing(faceSizing, sizing);
      sizingAtVerts =
          silhouetteVertexSizing(cloth.mesh, faceSizing, field.factor, cloth.spec.view->silhouetteThreshold);
    } else {
      clampFaceSizing(faceSizing, sizing);
      sizingAtVerts = vertexSizing(cloth.mesh, faceSizing);
    }
  }
  {
    ScopedPhase timer(report, Phase::Remesh);
    RemeshParams params;
    params.aspectMin = sizing.aspectMin;
    SweepCheck check;
    if (guard) {
      check.beginBatch = [guard](const Mesh& mesh, int batch, const std::vector<int>& faceMap) {
        guard->beginBatch(mesh, batch, faceMap);
      };
      check.allow = [guard](const std::vector<Tet>& sweep, const std::vector<Triangle>& made) {
        return guard->allow(sweep, made);
      };
    }
    const RemeshResult result = remesh(cloth.mesh, sizingAtVerts, params, pinnedMask(cloth), guard ? &check : nullptr);
    counters.splits = result.splits, counters.flips = result.flips, counters.collapses = result.collapses;
    counters.refusedOps = result.refused;
    remapDynamics(cloth, result.nodeMap);
  }
  ScopedPhase timer(report, Phase::Measure);
  if (window) counters.view = measureView(cloth.mesh, *window, *cloth.spec.view);
}

// What can hide cloth from the camera when a cloth's `view` has occlusion on: obstacles and every cloth as they are
// now (empty when no cloth needs it).
Occluders viewOccluders(Scene& scene) {
  Occluders occluders;
  bool needed = false;
  for (const Cloth& cloth : scene.cloths) needed = needed || (cloth.spec.view && cloth.spec.view->occlusion);
  if (!needed) return occluders;
  const std::vector<ObstaclePose>& poses = scene.obstaclePoses.at(scene.obstacles, scene.time);
  for (size_t o = 0; o < scene.obstacles.size(); ++o) occluders.add(poses[o].x, scene.obstacles[o].faces());
  for (const Cloth& cloth : scene.cloths) occluders.add(cloth.mesh);
  return occluders;
}

// The obstacles' field at the current time: the last frame's field moved (it answers as a new one, so a resumed run
// answers the same), shared by the sizing and the contact measures.
const ObstacleField& frameObstacleField(Scene& scene) {
  if (!scene.frameField || scene.frameFieldAt != scene.time) {
    const std::vector<ObstaclePose>& poses = scene.obstaclePoses.at(scene.obstacles, scene.time);
    if (!scene.frameField || !scene.frameField->moveTo(poses)) scene.frameField.emplace(poses);
    scene.frameFieldAt = scene.time;
  }
  return *scene.frameField;
}

// Sizing and remeshing of every cloth at the current time. The sizing field's obstacle term sees obstacles within
// ten cloth thicknesses (docs/design.md §2), through the same proximity queries as the collision phase. `useView` false
// (`--no-view`) ignores every cloth's `view`.
void adaptCloths(const Shot& shot, Scene& scene, FrameReport& report, bool useView) {
  const CameraPath* camera = useView && scene.camera ? &*scene.camera : nullptr;
  Occluders occluders;
  if (camera) {
    ScopedPhase timer(report, Phase::Occlusion);
    occluders = viewOccluders(scene);
  }
  std::optional<ObstacleProximity> obstacles;
  {
    ScopedPhase timer(report, Phase::Sizing);
    obstacles.emplace(frameObstacleField(scene), 10.0 * shot.collision.thickness);
  }
  // Remeshing keeps the cloths free of intersections (collision/sweep_guard.h): each cloth's flips and collapses are
  // checked against the obstacles, the other cloths as they are then, and (with self-collision) itself.
  std::vector<TriangleSet> surfaces;
  std::vector<TriangleSet> obstacleSurfaces;
  bool anyRemeshed = false;
  for (const Cloth& cloth : scene.cloths) anyRemeshed = anyRemeshed || cloth.spec.remeshing.has_value();
  if (shot.collision.enabled && anyRemeshed) {
    ScopedPhase timer(report, Phase::Remesh);
    // The sets borrow the frame's field, which stays where it is until the time moves on (after this function).
    obstacleSurfaces = obstacleTriangles(frameObstacleField(scene));
    if (shot.collision.selfCollision)
      for (const Cloth& cloth : scene.cloths) {
        surfaces.push_back(TriangleSet::of(cloth.mesh, false));
        surfaces.back().indexWhenNear();
      }
  }
  for (size_t c = 0; c < scene.cloths.size(); ++c) {
    std::optional<SweepGuard> guard;
    if (shot.collision.enabled && scene.cloths[c].spec.remeshing) {
      std::vector<const TriangleSet*> fixed;
      for (const TriangleSet& surface : obstacleSurfaces) fixed.push_back(&surface);
      for (size_t k = 0; k < surfaces.size(); ++k)
        if (k != c) fixed.push_back(&surfaces[k]);
      guard.emplace(std::move(fixed), shot.collision.selfCollision);
    }
    adaptCloth(scene.cloths[c], *obstacles, report, report.cloths[c], camera, scene.time, shot.frameTime(),
               occluders, guard ? &*guard : nullptr);
    if (!surfaces.empty() && scene.cloths[c].spec.remeshing) {
      ScopedPhase timer(report, Phase::Remesh);
      surfaces[c] = TriangleSet::of(scene.cloths[c].mesh, false);
      surfaces[c].indexWhenNear();
    }
  }
}

// One frame of simulated time: the physics steps, then sizing and remeshing once per frame.
void advanceFrame(const Shot& shot, Scene& scene, FrameReport& report, int frame, bool useView) {
  stepPhysics(shot, scene, frame, report);
  scene.time += shot.frameTime();
  adaptCloths(shot, scene, report, useView);
}

// Contact quality at the end of a frame, per cloth (stats.jsonl): depth inside obstacles, intersecting triangles.
struct ContactMeasures {
  std::vector<double> maxPenetration;  // m
  std::vector<int> intersections;
};

ContactMeasures measureContacts(Scene& scene) {
  ContactMeasures m;
  const ObstacleField& field = frameObstacleField(scene);
  std::vector<const Mesh*> meshes;
  for (const Cloth& cloth : scene.cloths) {
    m.maxPenetration.push_back(maxPenetration(cloth.mesh, field));
    meshes.push_back(&cloth.mesh);
  }
  m.intersections = countIntersections(meshes);
  return m;
}

// Obstacles go to OUT/obstacles/<name>_<frame:05d>.obj: all of them at frame 0, moving ones at every frame.
void writeObstacles(Scene& scene, const std::filesystem::path& out, int frame) {
  for (size_t k = 0; k < scene.obstacles.size(); ++k) {
    const Obstacle& o = scene.obstacles[k];
    if (frame > 0 && !o.moves()) continue;
    std::filesystem::create_directories(out / "obstacles");
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "_%05d.obj", frame);
    const std::vector<ObstaclePose>& poses = scene.obstaclePoses.at(scene.obstacles, scene.time);
    writeFileAtomically(out / "obstacles" / (o.name() + suffix), formatObstacleObj(o, poses[k].x));
  }
}

void writeFrame(Scene& scene, const std::filesystem::path& out, int frame) {
  for (const Cloth& cloth : scene.cloths) writeObj(cloth.mesh, frameFile(out, cloth.spec.name, frame));
  writeObstacles(scene, out, frame);
}

// The fixed-topology output of every cloth with `upsample`: evaluated (phase `upsample`) and written atomically next
// to the cloth's frame (phase `io`).
void writeUpsampledFrames(Scene& scene, const std::filesystem::path& out, int frame, FrameReport& report) {
  for (size_t c = 0; c < scene.cloths.size(); ++c) {
    Cloth& cloth = scene.cloths[c];
    if (!cloth.output) continue;
    std::optional<OutputFrame> result;
    {
      ScopedPhase timer(report, Phase::Upsample);
      result = cloth.output->evaluate(cloth.mesh, scene.time);
      report.cloths[c].upsampledFraction = result->upsampledFraction;
    }
    ScopedPhase timer(report, Phase::Io);
    writeFileAtomically(upsampledFrameFile(out, cloth.spec.name, frame), cloth.output->formatObj(result->positions));
  }
}

// The per-cloth part of a stats line: sizes, contact quality, energies, solves, view, upsampling, remesh counts.
Json clothStats(const Cloth& cloth, const ClothCounters& counters, double maxPenetration, int intersections,
                const Vec3& gravity) {
  auto [minEdge, maxEdge] = edgeLengthRange(cloth.mesh);
  Json j = {{"name", cloth.spec.name}, {"nodes", cloth.mesh.nodes.size()}, {"faces", cloth.mesh.faces.size()},
            {"min_edge", minEdge},     {"max_edge", maxEdge}};
  j["contacts"] = counters.contacts;
  j["max_penetration"] = maxPenetration;
  j["intersections"] = intersections;
  j["kinetic_energy"] = kineticEnergy(cloth.mesh);
  j["potential_energy"] = potentialEnergy(cloth.mesh, gravity);
  j["elastic_energy"] = elasticEnergy(cloth.mesh, cloth.dynamics);
  const StretchSummary stretch = edgeStretch(cloth.mesh, cloth.dynamics);
  j["stretch_p99"] = stretch.p99;
  j["stretch_max"] = stretch.max;
  const StretchSummary faces = faceStretch(cloth.mesh, cloth.dynamics);
  j["face_stretch_p99"] = faces.p99;
  j["face_stretch_max"] = faces.max;
  j["solver_iterations"] = counters.solverIterations;
  j["solver_direct_solves"] = counters.solverDirectSolves;
  j["solver_residual"] = counters.solverResidual;
  if (const auto& view = counters.view) {
    j["visible_faces"] = view->visibleFaces;
    j["mean_view_factor"] = view->meanViewFactor;
  }
  if (const auto& fraction = counters.upsampledFraction) j["upsampled_fraction"] = *fraction;
  j["splits"] = counters.splits;
  j["flips"] = counters.flips;
  j["collapses"] = counters.collapses;
  j["refused_ops"] = counters.refusedOps;
  return j;
}

// A stats line without its wall times (`wall_ms`, filled in last). `gravity` (m/s^2) is the
// shot's, for the potential energy.
Json measuredStats(Scene& scene, int frame, const FrameReport& report, const Vec3& gravity) {
  const ContactMeasures cm = measureContacts(scene);
  Json line;
  line["frame"] = frame;
  line["time"] = scene.time;
  line["wall_ms"] = nullptr;  // keeps its place after `time`; filled in when the frame's time is known
  Json cloths = Json::array();
  for (size_t c = 0; c < scene.cloths.size(); ++c)
    cloths.push_back(clothStats(scene.cloths[c], report.cloths[c], cm.maxPenetration[c], cm.intersections[c], gravity));
  line["cloths"] = cloths;
  line["collision"] = collisionJson(report.collision);
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

// The frame of an output file named <name>_<frame:05d>.<ext> or <frame:05d>.<ext> (-1 for any other name).
int frameOfOutputFile(const std::filesystem::path& file) {
  const std::string stem = file.stem().string();
  const size_t underscore = stem.rfind('_');
  const std::string digits = underscore == std::string::npos ? stem : stem.substr(underscore + 1);
  if (digits.size() < 5 || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::stoi(digits);
}

// A file that an interrupted atomic write left behind: <name>.tmp<pid> (io/atomic_file.h).
bool isInterruptedWrite(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  return ext.size() > 4 && ext.compare(0, 4, ".tmp") == 0 &&
         ext.find_first_not_of("0123456789", 4) == std::string::npos;
}

// Removes a run's outputs of the frames after `frame` (-1: all of them) in frames/, render/, obstacles/ and
// checkpoints/, files that interrupted writes left there, and what was made from the frames (movie, contact sheet,
// stats plot). The user's own files stay.
void removeOutputAfter(const std::filesystem::path& out, int frame) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const char* sub : {"frames", "render", "obstacles", "checkpoints"}) {
    if (!fs::is_directory(out / sub, ec)) continue;
    for (const auto& entry : fs::directory_iterator(out / sub)) {
      const auto ext = entry.path().extension();
      const bool output = ext == ".obj" || ext == ".png" || ext == ".ckpt";
      if ((output && frameOfOutputFile(entry.path()) > frame) || isInterruptedWrite(entry.path()))
        fs::remove(entry.path());
    }
  }
  for (const char* file : {"movie.mp4", "contact_sheet.png", "stats.png"}) fs::remove(out / file, ec);
}

// The lines of OUT/stats.jsonl for frames 0..frame, as they are. InputError when one is missing: the folder then does
// not hold the run that wrote the checkpoint.
std::string statsUpTo(const std::filesystem::path& file, int frame) {
  std::error_code ec;
  const std::string text = std::filesystem::exists(file, ec) ? readFile(file) : std::string();
  std::string kept;
  int next = 0;
  for (size_t pos = 0; next <= frame && pos < text.size();) {
    const size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // a line cut short by the interruption
    const std::string line = text.substr(pos, end - pos);
    const Json j = Json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("frame") || j["frame"] != next) break;
    kept += line + "\n";
    ++next, pos = end + 1;
  }
  if (next <= frame)
    throw InputError(file.string() + ": has no stats line for frame " + std::to_string(next) +
                     ", so the run cannot resume after frame " + std::to_string(frame) +
                     " (run without --resume to start again)");
  return kept;
}

// Restores the newest checkpoint of OUT into `scene` and trims OUT to its frame. Returns the first frame to simulate
// (0 when OUT holds no checkpoint: the run starts afresh). Everything is checked before OUT is touched.
// An upsampler that reads earlier frames (the patch MLP) gets the coarse samples of the frames up to the checkpoint
// from the cloth frames already written, exactly as it had them (the OBJ numbers read back bit for bit), so a
// resumed run writes the same bytes as an uninterrupted one.
void primeOutputHistory(Scene& scene, const std::filesystem::path& out, int frame) {
  for (Cloth& cloth : scene.cloths) {
    if (!cloth.output) continue;
    for (int f = std::max(0, frame - cloth.output->historyFrames() + 2); f <= frame; ++f)
      cloth.output->primeHistory(readObj(frameFile(out, cloth.spec.name, f)));
  }
}

int resumeRun(const Shot& shot, Scene& scene, const RunOptions& options, uint64_t fingerprint) {
  const auto checkpoints = listCheckpoints(options.out);
  const bool talk = options.progress != Progress::Mode::Quiet;
  if (checkpoints.empty()) {
    if (talk) std::fprintf(stderr, "resume: no checkpoint in %s; starting at frame 0\n", options.out.c_str());
    return 0;
  }
  const auto& [number, file] = checkpoints.back();
  const std::string bytes = readFile(file);
  const int frame = checkpointFrame(bytes, file.string(), fingerprint);
  if (frame != number)
    throw InputError(file.string() + ": holds frame " + std::to_string(frame) + ", not the frame its name says");
  if (frame > options.frames)
    throw InputError(file.string() + ": the checkpoint is after frame " + std::to_string(options.frames) +
                     ", the last frame of this run (shot \"" + shot.name + "\"; see --frames)");
  const std::string stats = statsUpTo(options.out / "stats.jsonl", frame);
  restoreCheckpoint(bytes, file.string(), fingerprint, scene);
  removeOutputAfter(options.out, frame);
  writeFileAtomically(options.out / "stats.jsonl", stats);
  primeOutputHistory(scene, options.out, frame);
  if (talk) std::fprintf(stderr, "resume: continuing after frame %d (%s)\n", frame, file.c_str());
  return frame + 1;
}

// The scene's obstacle field for the step of length h (s) from t0 (s): posed at t0 + h (moved there, or built when
// the obstacles changed), with the surfaces' motion over the step.
const ObstacleField& contactFieldAt(Scene& scene, double t0, double h) {
  // A step's substeps are chosen (approachSubsteps) with the field of the step that then runs, unsplit, on the same
  // field: moving it there again (every body's positions, face boxes and tree) was 3.5 % of crowd's instructions.
  if (scene.contactField && scene.contactFieldStart == t0 && scene.contactFieldStep == h) return *scene.contactField;
  scene.contactFieldStart = t0;
  scene.contactFieldStep = h;
  const std::vector<ObstaclePose>& endPoses = scene.obstaclePoses.at(scene.obstacles, t0 + h);
  if (!scene.contactField || !scene.contactField->moveTo(endPoses)) {
    scene.contactField.emplace(endPoses);
    scene.contactFieldBuiltAt = t0 + h;
  }
  scene.contactField->setMotion(scene.obstaclePoses.at(scene.obstacles, t0), h);
  return *scene.contactField;
}

// One step of length h (s) from t0 (s): every cloth's implicit step, the blow-up guard, `beforeContact` (when given),
// the collision phase.
void stepInterval(const Shot& shot, Scene& scene, int frame, double t0, double h, FrameReport& report,
                  const SceneEdit* beforeContact = nullptr) {
  // The solve's contacts take the shot's obstacle friction (dynamics/obstacle_contact.h).
  StepSettings settings = shot.dynamics;
  settings.contactSprings.friction = shot.collision.obstacleFriction;
  std::vector<std::vector<Vec3>> start;
  {
    ScopedPhase timer(report, Phase::Physics);
    const ObstacleField* endField = nullptr;
    if (shot.collision.enabled && !scene.obstacles.empty() && settings.contactSprings.enabled()) {
      endField = &contactFieldAt(scene, t0, h);
    }
    // The cloths as every cloth would move unconstrained over the step, taken before any is solved: other cloths and
    // a cloth's own layers (collision/cloth_contacts.h).
    std::optional<ClothEndSurfaces> clothLayers;
    if (shot.collision.enabled && shot.collision.selfCollision && !scene.cloths.empty() &&
        settings.contactSprings.enabled()) {
      std::vector<const Mesh*> meshes;
      for (const Cloth& cloth : scene.cloths) meshes.push_back(&cloth.mesh);
      clothLayers.emplace(meshes, h, true, scene.clothLayerTree);
    }
    const ClothContactSettings clothContact{shot.collision.thickness, 0.5, shot.collision.selfFriction};
    for (size_t c = 0; c < scene.cloths.size(); ++c) {
      Cloth& cloth = scene.cloths[c];
      start.push_back(positionsOf(cloth.mesh));
      FreeEndDistances measured;
      std::vector<ObstacleContact> contacts =
          endField ? predictObstacleContacts(cloth.mesh, *endField, shot.collision.thickness, h, true, &measured)
                   : std::vector<ObstacleContact>();
      if (clothLayers) {
        const std::vector<ObstacleContact> layered = clothLayers->contactsOf(int(c), clothContact);
        contacts.insert(contacts.end(), layered.begin(), layered.end());
      }
      // The solved step's check (dynamics/step.h). The free ends' distances hold for the step they were measured for,
      // not for a halved one.
      ContactCheck check;
      if (endField)
        check = [&](const Mesh& mesh, double stepTime, const std::vector<Vec3>& solvedEnd,
                    const std::vector<ObstacleContact>& known) {
          static const FreeEndDistances unknown;
          return missedObstacleContacts(mesh, stepTime, solvedEnd, known, stepTime == h ? measured : unknown,
                                        *endField, shot.collision.thickness);
        };
      else if (clothLayers)  // no obstacle to miss, but the rounds let go of springs pulling the layers together
        check = [](const Mesh&, double, const std::vector<Vec3>&, const std::vector<ObstacleContact>&) {
          return std::vector<ObstacleContact>();
        };
      const SolveReport solve =
          stepCloth(cloth.mesh, cloth.dynamics, cloth.spec.material, settings, h, contacts, check);
      report.cloths[c].solverIterations += solve.iterations;
      report.cloths[c].solverDirectSolves += solve.directSolves;
      report.cloths[c].solverResidual = std::max(report.cloths[c].solverResidual, solve.residual);
      if (auto bad = findBadNode(cloth.mesh, settings.maxSpeed))
        throw SimulationError("frame " + std::to_string(frame) + ": cloth \"" + cloth.spec.name + "\" node " +
                              std::to_string(bad->node) + " " + bad->reason + "; the simulation blew up (try more "
                              "steps_per_frame or a softer material)");
    }
  }
  if (beforeContact && *beforeContact) (*beforeContact)(scene);
  if (!shot.collision.enabled && !anyStrainLimit(scene)) return;
  ScopedPhase timer(report, Phase::Collision);
  collideStep(shot, scene, start, t0, t0 + h, report);
}

// The most substeps a step is split into (substepsOf, approachSubsteps).
constexpr int kMaxSubsteps = 16;

// How many equal substeps the step [t0, t1] (s) takes: enough that no obstacle vertex near a cloth (the box of its
// path over the step meets the box of a cloth's nodes grown by the contact thickness) moves farther than
// max_obstacle_step thicknesses in one, at most kMaxSubsteps. Contact with an obstacle that moves farther in a step
// than the solve's predicted contacts reach (3 thicknesses into it) is left to the CCD passes, which move only the
// nodes they touch: at 2 steps per frame a walking knee moved 4-9 cm per step, the passes resolved ~300 impacts per
// step, and the skirt's edges ended its steps at up to 3.8x (docs/benchmarks.md).
int substepsOf(const Shot& shot, Scene& scene, double t0, double t1) {
  if (!(shot.maxObstacleStep > 0) || !shot.collision.enabled || scene.obstacles.empty()) return 1;
  std::vector<Aabb> boxes;
  for (const Cloth& cloth : scene.cloths) {
    Aabb box;
    for (const Node& n : cloth.mesh.nodes) box.add(n.x);
    box.inflate(shot.collision.thickness);
    boxes.push_back(box);
  }
  // Both stay valid: the cache keeps the two times last asked for.
  const std::vector<ObstaclePose>& start = scene.obstaclePoses.at(scene.obstacles, t0);
  const std::vector<ObstaclePose>& end = scene.obstaclePoses.at(scene.obstacles, t1);
  double farthest = 0;
  for (size_t o = 0; o < start.size(); ++o)
    for (size_t i = 0; i < start[o].x.size() && i < end[o].x.size(); ++i) {
      Aabb swept;
      swept.add(start[o].x[i]);
      swept.add(end[o].x[i]);
      for (const Aabb& box : boxes)
        if (swept.overlaps(box)) {
          farthest = std::max(farthest, (end[o].x[i] - start[o].x[i]).norm());
          break;
        }
    }
  return std::clamp(int(std::ceil(farthest / (shot.maxObstacleStep * shot.collision.thickness))), 1, kMaxSubsteps);
}

// How many equal substeps the step [t0, t0 + h] (s) takes so that an obstacle stops no cloth node, within one, after
// more than kApproachShare of the node's shortest edge (its move along the obstacle's normal past the thickness; at
// most 16). Why: the solve linearizes the springs at the step's start, so an edge whose one end an obstacle stops
// while the other goes on turns by about (that move / edge) in one step, and the solve stretches it by 1 / cos of the
// turn. A 10 x 10 cm cotton sheet on a fixed 40 x 40 grid (2.5 mm edges) landing at 0.4 m/s on a 4 cm box with a
// 1 mm thickness (4 mm a step) ended its first frame on the box at edge p99 1.33, its springs holding 400 times the
// energy of its fall; split so, 1.005. Only nodes that move that far relative to their edges are asked about (the
// field is not touched otherwise). `max_obstacle_step` 0 turns this off too.
int approachSubsteps(const Shot& shot, Scene& scene, double t0, double h) {
  constexpr double kApproachShare = 0.5;
  constexpr double kRestingBand = 1.2;  // thicknesses
  if (!(shot.maxObstacleStep > 0) || !shot.collision.enabled || scene.obstacles.empty()) return 1;
  // A node's move over the step, its velocity carried on by gravity (from rest, a sheet lands within its first step).
  const Vec3 fall = h * shot.dynamics.gravity;
  auto move = [&](const Node& node) { return Vec3(h * (node.v + fall)); };
  std::vector<std::pair<int, int>> fast;  // (cloth, node) moving more than the share of its shortest edge a step
  std::vector<double> shortest;
  for (size_t c = 0; c < scene.cloths.size(); ++c) {
    const Mesh& mesh = scene.cloths[c].mesh;
    for (size_t i = 0; i < mesh.nodes.size(); ++i) {
      const Node& node = mesh.nodes[i];
      double edge = std::numeric_limits<double>::infinity();
      for (int e : node.edges)
        edge = std::min(edge, (mesh.nodes[mesh.edges[e].nodes[0]].x - mesh.nodes[mesh.edges[e].nodes[1]].x).norm());
      if (move(node).norm() > kApproachShare * edge) fast.push_back({int(c), int(i)}), shortest.push_back(edge);
    }
  }
  if (fast.empty()) return 1;
  const ObstacleField& field = contactFieldAt(scene, t0, h);
  const double thickness = shot.collision.thickness;
  double worst = 0;  // the move an obstacle stops, over the shortest edge
  for (size_t k = 0; k < fast.size(); ++k) {
    const Node& node = scene.cloths[fast[k].first].mesh.nodes[fast[k].second];
    const Vec3 step = move(node);
    const std::optional<ProximitySample> near = field.nearest(node.x, step.norm() + thickness);
    // Cloth already resting on the obstacle (as far as the contact pass leaves it, and rounding) is held there with
    // its neighbours: gravity's share of its move is not stopped on the way.
    if (!near || near->distance <= kRestingBand * thickness) continue;
    const double stopped = -near->gradient.dot(step - h * near->velocity) - (near->distance - thickness);  // m
    worst = std::max(worst, stopped / shortest[k]);
  }
  return std::clamp(int(std::ceil(worst / kApproachShare)), 1, kMaxSubsteps);
}

}  // namespace

void stepScene(const Shot& shot, Scene& scene, int frame, int step, FrameReport& report,
               const SceneEdit& beforeContact) {
  const double h = shot.stepTime(), t0 = scene.time + step * h;
  const int substeps = std::max(substepsOf(shot, scene, t0, t0 + h), approachSubsteps(shot, scene, t0, h));
  // With one substep the times are t0 and t0 + h to the bit, as without substeps.
  for (int k = 0; k < substeps; ++k)
    stepInterval(shot, scene, frame, t0 + k * h / substeps, h / substeps, report,
                 k == substeps - 1 ? &beforeContact : nullptr);
}

void prepareOutputFolder(const std::filesystem::path& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw InputError(out.string() + ": the output folder is a file");
  removeOutputAfter(out, -1);
  // The record of a group run (`--cloths`) is stale after a run of the whole shot, and so are the stats.
  for (const char* file : {"stats.jsonl", "group.json"}) fs::remove(out / file, ec);
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

namespace {

// Cloths that start deeper inside an obstacle than the contact thickness. Contact is built for cloth within that
// distance of a surface: such cloth is left inside (the solve's contacts do not look that deep) or pushed out
// violently, tearing it or blowing the run up. The usual cause is a garment fitted to one pose of a character whose
// animation starts in another (see `preroll_frames`). Empty when none does, or without collisions.
std::string startInsideNote(const Shot& shot, Scene& scene) {
  const double thickness = shot.collision.thickness;
  std::string note;
  if (!shot.collision.enabled) return note;
  for (const Cloth& cloth : scene.cloths) {
    const double depth = maxPenetration(cloth.mesh, frameObstacleField(scene));
    if (!(depth > thickness)) continue;
    char text[256];
    std::snprintf(text, sizeof text, "cloth \"%s\" starts %.2f cm inside an obstacle", cloth.spec.name.c_str(),
                  100 * depth);
    note += (note.empty() ? "" : ", ") + std::string(text);
  }
  if (note.empty()) return note;
  char limit[96];
  std::snprintf(limit, sizeof limit, ", deeper than the contact thickness (%.2f cm)", 100 * thickness);
  return note + limit;
}

// startCrossed for the scene's cloths as they are.
StartCrossed startCrossedOf(const Scene& scene) {
  std::vector<std::string> names;
  std::vector<const Mesh*> meshes;
  for (const Cloth& cloth : scene.cloths) {
    names.push_back(cloth.spec.name);
    meshes.push_back(&cloth.mesh);
  }
  return startCrossed(names, meshes);
}

// The checks of how the shot starts, on `scene` as frame 0 has it (after its initial refinement, before any pre-roll):
// obstacles that are not closed solids, cloth inside an obstacle, cloth through itself or another cloth. Each is told
// once as a warning; `health` learns which cloths start crossed (it then does not blame the contact passes for them).
// Returns startInsideNote's note, which an error of the run later repeats. `report` times the measures.
std::string checkStart(const Shot& shot, Scene& scene, FrameReport& report, RunHealth& health) {
  std::string startInside;
  {
    ScopedPhase timer(report, Phase::Measure);
    startInside = startInsideNote(shot, scene);
  }
  if (shot.collision.enabled)
    for (const std::string& warning : obstacleSolidWarnings(scene.obstacles))
      std::fprintf(stderr, "warning: %s\n", warning.c_str());
  if (!startInside.empty())
    std::fprintf(stderr, "warning: %s: contact cannot undo that cleanly (the cloth may stay inside, tear, or "
                 "blow up the run); %s\n", startInside.c_str(),
                 shot.prerollFrames > 0 ? "fit the cloth to the obstacles' pose at the start of the pre-roll "
                                          "(a sequence's `rest` mesh)"
                                        : "fit the cloth to the obstacles' pose at time 0, or start from the "
                                          "pose it was fitted to (`preroll_frames` and the sequence's `rest`)");
  if (shot.collision.enabled && shot.collision.selfCollision) {
    StartCrossed crossed;
    {
      ScopedPhase timer(report, Phase::Measure);
      crossed = startCrossedOf(scene);
    }
    if (!crossed.note.empty()) std::fprintf(stderr, "warning: %s\n", crossed.note.c_str());
    for (size_t c : crossed.cloths) health.toldCrossedAtStart(scene.cloths[c].spec.name);
  }
  return startInside;
}

// checkStart for a resumed run, which does not pass frame 0: on the shot's start made again (the scene and the initial
// refinement are deterministic, so this is frame 0's state), so that it warns and judges as the interrupted run did.
std::string checkResumedStart(const Shot& shot, bool useView, RunHealth& health) {
  Scene start = buildScene(shot);
  FrameReport scratch(start.cloths.size());
  adaptCloths(shot, start, scratch, useView);
  return checkStart(shot, start, scratch, health);
}

// The error of a frame that ran out of memory: how large the cloths had grown, since a remesher refining without
// bound (a `remeshing.size` minimum far below the cloth's folds) is the usual cause.
std::string outOfMemoryNote(const Scene& scene, int frame) {
  size_t faces = 0;
  for (const Cloth& cloth : scene.cloths) faces += cloth.mesh.faces.size();
  return "frame " + std::to_string(frame) + ": out of memory, with " + std::to_string(faces) +
         " cloth faces in all (coarser cloth: a larger `remeshing.size` minimum or fewer cells)";
}

}  // namespace

void simulateShot(const Shot& shot, Scene& scene, const RunOptions& options) {
  const uint64_t fingerprint = simulationFingerprint(shot, scene, options.view);
  const int first = options.resume ? resumeRun(shot, scene, options, fingerprint) : 0;
  if (first == 0) prepareOutputFolder(options.out);
  writeFileAtomically(options.out / "shot.resolved.json", shot.resolved.dump(2) + "\n");
  if (!options.groupRecord.empty()) writeFileAtomically(options.out / "group.json", options.groupRecord);
  const auto statsFile = options.out / "stats.jsonl";
  Progress progress("frame", options.progress);
  RunHealth health;  // contact trouble told as it shows (stderr)
  std::set<std::pair<size_t, size_t>> heldInsideTold;  // (cloth, handle) pairs whose heldInsideWarning was given
  // startInsideNote at the start, which a failure repeats.
  std::string startInside = first > 0 ? checkResumedStart(shot, options.view, health) : std::string();
  auto advance = [&](FrameReport& report, int frame) {
    try {
      advanceFrame(shot, scene, report, frame, options.view);
    } catch (const SimulationError& e) {
      if (startInside.empty()) throw;
      throw SimulationError(std::string(e.what()) + "; note: " + startInside);
    }
  };
  for (int frame = first; frame <= options.frames; ++frame) {
    const auto start = Clock::now();
    FrameReport report(scene.cloths.size());
    try {
      if (frame > 0) {
        advance(report, frame);
      } else {
        // Initial refinement: a coarse panel is remeshed to its sizing at rest before the run starts.
        adaptCloths(shot, scene, report, options.view);
        startInside = checkStart(shot, scene, report, health);
        // The pre-roll: frames -preroll_frames + 1 .. 0, simulated but not written; frame 0's line counts their
        // work.
        for (int k = 1; k <= shot.prerollFrames; ++k) advance(report, k - shot.prerollFrames);
        if (shot.prerollFrames > 0) endPreroll(scene);
      }
    } catch (const std::bad_alloc&) {
      throw SimulationError(outOfMemoryNote(scene, frame));
    }
    {
      ScopedPhase timer(report, Phase::Checks);
      checkFinite(scene, frame);
    }
    {
      ScopedPhase timer(report, Phase::Io);
      writeFrame(scene, options.out, frame);
    }
    writeUpsampledFrames(scene, options.out, frame, report);
    Json line;
    {
      ScopedPhase timer(report, Phase::Measure);
      line = measuredStats(scene, frame, report, shot.dynamics.gravity);
    }
    {
      // The line's own write is the one thing its wall times cannot include.
      ScopedPhase timer(report, Phase::Io);
      line["wall_ms"] = wallTimesJson(report, msSince(start));
      appendLine(statsFile, line);
    }
    for (const std::string& warning : health.observe(line)) progress.note("warning: " + warning);
    if (shot.collision.enabled && !scene.obstacles.empty())
      for (const HeldInside& inside :
           heldNodesInside(scene.cloths, frameObstacleField(scene), shot.collision.thickness))
        if (heldInsideTold.insert({inside.cloth, inside.handle}).second)
          progress.note("warning: " + heldInsideWarning(inside, scene.cloths, frame));
    // After the stats line: a checkpoint never runs ahead of the stats it resumes after.
    const int every = shot.checkpoint.every;
    if (every > 0 && frame > 0 && (frame % every == 0 || frame == options.frames))
      writeCheckpoint(options.out, scene, frame, fingerprint, shot.checkpoint.keep);
    progress.update(frame, options.frames, progressDetail(scene));
  }
  progress.finish();
  if (const std::string trouble = health.summary(); !trouble.empty()) progress.note("warning: " + trouble);
}

}  // namespace adacloth
