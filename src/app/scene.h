#pragma once
// The simulated world built from a shot: cloth meshes in their initial state, ready for the frame loop.
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/obstacle_poses.h"
#include "collision/obstacle.h"
#include "collision/obstacle_field.h"
#include "collision/response.h"
#include "collision/wide_bvh.h"
#include "config/shot.h"
#include "dynamics/dynamics_state.h"
#include "mesh/mesh.h"
#include "upsample/fixed_topology_output.h"
#include "view/camera_path.h"
#include "view/view_memory.h"
#include "view/view_sizing.h"

namespace adacloth {

struct Cloth {
  ClothSpec spec;
  Mesh mesh;
  DynamicsState dynamics;  // springs, handles: everything per cloth the dynamics needs beyond Node
  StrainLimits strainLimits;  // from `spec.strainLimit`, the mesh and the handles; rebuilt with the dynamics state
  StrainLimits pushGuard;     // without `spec.strainLimit`: the contact pushes' guard (dynamics/push_guard.h); ditto
  // Fixed-topology output (`upsample`): built with the scene, so a bad operator file fails before OUT is touched.
  std::shared_ptr<FixedTopologyOutput> output;
  // The resolution seen by the camera, for cloths with `view` and a `view.memory` (view/view_memory.h).
  std::optional<ViewMemory> viewMemory;
};

// Rebuilds the cloth's dynamics state (masses, springs, bending) and strain limits (or push guard) from its current
// mesh and material. Call after any change of the mesh; after a topology change call remapDynamics() instead.
void rebuildDynamics(Cloth& cloth);

// After a remesh: carries the handles over with the remesher's node map (old node -> new index, -1 if removed;
// region and point handles are re-found from material coordinates), then rebuilds the dynamics state.
void remapDynamics(Cloth& cloth, const std::vector<int>& nodeMap);

// 1 for every node a handle holds: the nodes a remesher must not remove.
std::vector<char> pinnedMask(const Cloth& cloth);

struct Scene {
  std::vector<Cloth> cloths;
  std::vector<Obstacle> obstacles;  // in shot order (docs/design.md §6); never resized after buildScene (poses point in)
  CollisionCache collisionCache;    // contact trees kept between steps (refitted, rebuilt after a remesh)
  WideBvh clothLayerTree;           // the cloths' faces at the ends of steps (ClothEndSurfaces), refit from step to step
  ObstaclePoses obstaclePoses;      // poses of `obstacles`, computed once per time asked for
  // The obstacles at the end of the latest step, for the step's obstacle contacts (moved from step to step).
  std::optional<ObstacleField> contactField;
  // Time (s) of the poses the contact field was built at (NaN: none yet), kept in checkpoints. A moved field answers
  // as a new one (ObstacleField::moveTo), so a resumed run needs it only to know whether there was a field.
  double contactFieldBuiltAt = std::numeric_limits<double>::quiet_NaN();
  // The step (start and length, s) the contact field is posed and set in motion for (NaN: none, or not known).
  double contactFieldStart = std::numeric_limits<double>::quiet_NaN();
  double contactFieldStep = std::numeric_limits<double>::quiet_NaN();
  // The obstacles at `frameFieldAt` (s), once per frame for the sizing's obstacle term, the frame's contact measures
  // and the remesher's sweep guard (the same poses, so one field serves all three). Moved from frame to frame; it
  // answers exactly as a field built anew (and as a resumed run's).
  std::optional<ObstacleField> frameField;
  double frameFieldAt = std::numeric_limits<double>::quiet_NaN();
  double time = 0.0;  // s
  std::optional<CameraPath> camera;  // the shot's camera path, loaded when a cloth has `view`
};

// Loads or generates a cloth's mesh and places it with its transform; masses from the material's area density.
// Missing or broken files are InputErrors naming the shot, the JSON path and the mesh file.
Mesh buildClothMesh(const ClothSpec& cloth, const Shot& shot);

// Every cloth of the shot, in order. Throws InputError.
Scene buildScene(const Shot& shot);

// Ends the pre-roll (shot.prerollFrames frames from shot.startTime()): the scene's and the cloths' clocks, which
// summed frame and step lengths, are set to exactly 0, so that the shot's frames come at the times they would
// without a pre-roll.
void endPreroll(Scene& scene);

}  // namespace adacloth
