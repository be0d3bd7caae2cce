#pragma once
// Handles: nodes held at fixed positions, moved along a keyframed translation, or bound to an obstacle's surface.
// A handle keeps the nodes it holds and, for each, either its anchor (where the node is when the motion's
// translation is zero) or, when bound (HandleSpec `bind_to`), its SurfaceBinding: the obstacle triangles near the
// node, each with a weight and the node's place in that triangle's local frame, so the node keeps its clearance and
// follows a smoothed motion of the surface through rigid motion and deformation. A handle follows a remesh: by-index
// handles go through the remesher's node map; region and point handles are re-found from material coordinates, which
// a remesh does not change.
//
// The dynamics does not know obstacles: a bound handle is given a BindSurface (the triangles, their world positions
// at any time and a nearest-point query), which the app builds from the obstacle (src/app/bind_surface.h).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dynamics/params.h"
#include "mesh/mesh.h"

namespace adacloth {

// A point of a triangle mesh: its triangle and barycentric coordinates there.
struct SurfacePoint {
  int face = -1;
  Vec3 bary = Vec3::Zero();  // weights of the triangle's corners (sum 1)
  double distance = 0;       // m, from the queried point
};

// What a bound handle needs of an obstacle. `positionsAt` and `nearest` must be deterministic.
struct BindSurface {
  std::string name;                                        // the obstacle's, for messages
  std::vector<Tri> faces;                                  // indices into positionsAt's result
  std::function<std::vector<Vec3>(double)> positionsAt;    // world positions (m) of the nodes at time t (s)
  // For each query point (m), the nearest point of the surface whose node positions are `x`.
  std::function<std::vector<SurfacePoint>(const std::vector<Vec3>& x, const std::vector<Vec3>& query)> nearest;
  // For each query point (m), every triangle closer than radius[k] (m) and its nearest point, by face index.
  std::function<std::vector<std::vector<SurfacePoint>>(const std::vector<Vec3>& x, const std::vector<Vec3>& query,
                                                       const std::vector<double>& radius)>
      within;
};

// Bound surfaces by obstacle name.
using BindSurfaces = std::map<std::string, std::shared_ptr<const BindSurface>>;

// One obstacle triangle a bound node follows: the node is the triangle's point `at` plus `offset` in the triangle's
// frame (edge 0 direction, normal x edge 0, normal), so it keeps its place as the triangle moves, turns or deforms.
// `at` is the triangle's point nearest to the node when bound: a point off the triangle's edge would stretch with
// the triangle by as much as it lies beyond it.
struct BindCapture {
  int face = -1;
  double weight = 0;           // a binding's weights sum to 1
  Vec3 bary = Vec3::Zero();    // barycentric coordinates of `at` (sum 1, all >= 0)
  Vec3 offset = Vec3::Zero();  // m
};

// Where a bound node sits relative to the surface. Following the nearest triangle alone carries a node that sits off
// the surface (a cape's top edge 10 cm above the shoulders, a gathered waistband 15 mm off the hips) along that
// triangle's turn, and two neighbouring nodes over different triangles then swing apart or through each other (held
// nodes: no contact pass can separate them). So the node follows the weighted mean of where every triangle within
// its distance plus the smoothing radius would carry it (a linear blend as in skinning; a smooth function of where
// the node is, so held neighbours keep their order). A smoothing radius of 0 keeps the nearest triangle alone.
struct SurfaceBinding {
  SurfacePoint at;                     // the nearest point when bound (its distance is checked against max_distance)
  std::vector<BindCapture> captures;   // by face index
};

struct HandleState {
  HandleSpec spec;
  std::vector<int> nodes;          // held nodes, sorted, unique
  std::vector<Vec3> anchors;       // m, world position of nodes[k] at zero translation (unbound handles)
  std::vector<Vec2> materialPoints;  // Points: material point of each chosen node (to re-find it after a remesh)
  std::shared_ptr<const BindSurface> surface;  // bound handles only
  std::vector<SurfaceBinding> bindings;        // bound handles: one per node
  // Bound handles with spec.bindRigidity > 0: each node's place in the handle's own frame (m), which the rigid
  // motion fitted to the surface targets carries (see handleTargets). Empty otherwise.
  std::vector<Vec3> rigidRest;
};

// Resolves the cloth's handle specs on its initial mesh, at `startTime` (s; the simulation's first instant: 0, or
// before it with a pre-roll). A bad node index, a region that holds no node, a `bind_to` missing from `surfaces` or
// a bound node farther than `max_distance` from the surface is an InputError naming `file` and the handle's JSON
// pointer.
std::vector<HandleState> resolveHandles(const std::vector<HandleSpec>& specs, const Mesh& mesh,
                                        const std::string& file, const BindSurfaces& surfaces = {},
                                        double startTime = 0.0);

// Binds world points to the surface as it is at node positions `x`, blending the triangles within each point's
// distance plus `smoothingRadius` (m; 0: the nearest triangle alone).
std::vector<SurfaceBinding> bindToSurface(const BindSurface& surface, const std::vector<Vec3>& x,
                                          const std::vector<Vec3>& points, double smoothingRadius);

// The world positions (m) of bindings on the surface with node positions `x`.
std::vector<Vec3> boundPositions(const BindSurface& surface, const std::vector<Vec3>& x,
                                 const std::vector<SurfaceBinding>& bindings);

// Translation of a handle's motion at time t (m): linear between keys, held outside them.
Vec3 handleOffset(const HandleSpec& spec, double t);

// Where each node of a handle must be at time t (m), in the order of handle.nodes. A bound handle evaluates its
// surface once for all its nodes. With spec.bindRigidity r > 0 each surface target s_k moves to
// s_k + r (R p_k + c - s_k), where p_k is handle.rigidRest[k] and (R, c) the rigid motion that best fits the p_k to
// the s_k (least squares): a waistband bound to skin that stretches as the hips turn would stretch with it; at r = 1
// it turns and moves with the hips as one piece and keeps its shape.
std::vector<Vec3> handleTargets(const HandleState& handle, double t);

// 1 for every node some handle holds (the nodes a remesher must not remove), 0 elsewhere.
std::vector<char> pinnedMask(const std::vector<HandleState>& handles, size_t nodeCount);

// 1 for every node a handle bound to an obstacle's surface (`bind_to`) holds, 0 elsewhere.
std::vector<char> boundMask(const std::vector<HandleState>& handles, size_t nodeCount);

// Carries handles over a topology change. nodeMap[old] = new index or -1 (removed); `mesh` is the new mesh and
// `time` the current simulated time (anchors of newly held nodes are their current positions minus the offset; a
// newly held bound node is bound where it is, to the surface as it is at `time`).
void remapHandles(std::vector<HandleState>& handles, const Mesh& mesh, const std::vector<int>& nodeMap, double time);

}  // namespace adacloth
