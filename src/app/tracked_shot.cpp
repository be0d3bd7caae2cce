#include "app/tracked_shot.h"

#include "app/scene.h"
#include "app/simulate.h"
#include "dynamics/step.h"
#include "io/error.h"
#include "upsample/tracking.h"

namespace adacloth {
namespace {

// The shot reduced to the tracked cloth, with what would change its mesh turned off.
Shot trackedShot(const Shot& shot, const TrackOptions& options) {
  Shot s = shot;
  std::vector<ClothSpec> kept;
  for (const ClothSpec& c : shot.cloths)
    if (c.name == options.cloth || (options.cloth.empty() && shot.cloths.size() == 1)) kept.push_back(c);
  if (kept.size() != 1)
    throw InputError(shot.file.string() + ": " +
                     (options.cloth.empty() ? std::string("the shot has several cloths; choose one with --cloth")
                                            : "no cloth named \"" + options.cloth + "\""));
  ClothSpec& cloth = kept[0];
  cloth.remeshing.reset();
  cloth.view.reset();
  for (const HandleSpec& h : cloth.handles)
    if (h.select == HandleSpec::Select::Nodes)
      throw InputError(shot.file.string() + ": " + h.place + ": handles by node index cannot be tracked (the fine " +
                       "mesh numbers its nodes differently); select by region or points");
  if (options.coarseCells) {
    if (cloth.mesh.type != MeshSpec::Type::Grid)
      throw InputError(shot.file.string() + ": " + cloth.place + "/mesh: --coarse-cells needs a grid mesh");
    cloth.mesh.cellsX = (*options.coarseCells)[0];
    cloth.mesh.cellsY = (*options.coarseCells)[1];
  }
  if (options.coarseMesh) {
    cloth.mesh = MeshSpec();
    cloth.mesh.file = *options.coarseMesh;
  }
  s.cloths = {cloth};
  return s;
}

// The fine scene: the coarse one with its cloth replaced by the subdivided mesh; handles are re-found from material
// coordinates (coarse node i is fine node i, which the node map says).
void refineCloth(Cloth& cloth, const Mesh& fine) {
  const size_t coarseNodes = cloth.mesh.nodes.size();
  cloth.mesh = fine;
  cloth.mesh.updateGeometry();
  cloth.mesh.computeMasses(cloth.spec.material.density);
  std::vector<int> nodeMap(coarseNodes);
  for (size_t i = 0; i < coarseNodes; ++i) nodeMap[i] = int(i);
  remapDynamics(cloth, nodeMap);
}

void setPositionsAndVelocities(Mesh& mesh, const Eigen::MatrixX3d& x, const Eigen::MatrixX3d& v) {
  for (size_t i = 0; i < mesh.nodes.size(); ++i) {
    mesh.nodes[i].x = x.row(i).transpose();
    mesh.nodes[i].v = v.row(i).transpose();
  }
}

// Holds the fine cloth to the coarse one: positions and velocities projected onto the tracking constraint.
void track(const TrackingConstraint& c, const Mesh& coarse, Mesh& fine) {
  Eigen::MatrixX3d x = nodePositions(fine), v = nodeVelocities(fine);
  projectOntoTracking(c, nodePositions(coarse), x);
  projectOntoTracking(c, nodeVelocities(coarse), v);
  setPositionsAndVelocities(fine, x, v);
}

// One step of one of the two runs; a blow-up names which run failed.
void stepLabelled(const Shot& shot, Scene& scene, int frame, int step, FrameReport& report, const char* run,
                  const SceneEdit& beforeContact = nullptr) {
  try {
    stepScene(shot, scene, frame, step, report, beforeContact);
  } catch (const SimulationError& e) {
    throw SimulationError(std::string(run) + " run: " + e.what());
  }
}

}  // namespace

TrackedData runTrackedShot(const Shot& shot, const TrackOptions& options) {
  const Shot s = trackedShot(shot, options);
  Scene coarse = buildScene(s);
  Scene fine = buildScene(s);
  TrackedData data;
  data.coarse = coarse.cloths[0].mesh;
  data.levels = options.levels;
  const Subdivision sub = subdivide(data.coarse, options.levels);
  refineCloth(fine.cloths[0], sub.fine);
  const int T = std::min<int>(options.testFunctions, int(sub.fine.nodes.size()));
  const TrackingConstraint constraint = makeTracking(lowestHarmonics(sub.fine, T), T, sub.midpoint);
  Mesh& cm = coarse.cloths[0].mesh;
  Mesh& fm = fine.cloths[0].mesh;
  auto record = [&] {
    data.frames.time.push_back(coarse.time);
    data.frames.coarse.push_back(nodePositions(cm));
    data.frames.fine.push_back(nodePositions(fm));
  };
  for (size_t i = 0; i < fm.nodes.size(); ++i)
    fm.nodes[i].x += options.finePerturbation * Vec3(std::sin(1.7 * double(i)), std::cos(2.3 * double(i)),
                                                     std::sin(0.9 * double(i)));
  track(constraint, cm, fm);
  // One frame of both runs, tracked after every step.
  auto advance = [&](int frame) {
    FrameReport coarseReport(coarse.cloths.size()), fineReport(fine.cloths.size());  // not reported
    for (Scene* scene : {&coarse, &fine})
      for (Cloth& cloth : scene->cloths) startSolverFrame(cloth.dynamics);
    for (int step = 0; step < s.stepsPerFrame; ++step) {
      stepLabelled(s, coarse, frame, step, coarseReport, "coarse");
      // Projected before the fine step's contact pass, so that its CCD checks the projection's move (projected only
      // after the step, the fine skirt on a run cycle went through the body and blew up, docs/upsampling.md); and
      // again after it, to take out what the contact pass moved across the low harmonics.
      stepLabelled(s, fine, frame, step, fineReport, "fine",
                   [&](Scene& scene) { track(constraint, cm, scene.cloths[0].mesh); });
      track(constraint, cm, fm);
    }
    coarse.time += s.frameTime();
    fine.time = coarse.time;
    cm.updateGeometry();
    fm.updateGeometry();
  };
  // The shot's pre-roll is simulated, not recorded (a blow-up there leaves no frame: it throws).
  for (int frame = 1 - s.prerollFrames; frame <= 0; ++frame) advance(frame);
  if (s.prerollFrames > 0) {
    endPreroll(coarse);
    endPreroll(fine);
  }
  record();
  const int frames = options.frames >= 0 ? options.frames : s.frames;
  Progress progress("track " + s.cloths[0].name, options.progress);
  for (int frame = 1; frame <= frames; ++frame) {
    try {
      advance(frame);
    } catch (const SimulationError& e) {
      // The frames before the blow-up are good training data; the caller keeps them and reports the failure.
      data.failure = e.what();
      break;
    }
    record();
    progress.update(frame, frames, std::to_string(cm.nodes.size()) + " / " + std::to_string(fm.nodes.size()) +
                                       " nodes");
  }
  progress.finish();
  return data;
}

}  // namespace adacloth
