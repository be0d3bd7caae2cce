#pragma once
// Handles: nodes held at fixed positions, moved along a keyframed translation, or bound to an obstacle's surface.
// A handle keeps the nodes it holds and, for each, either its anchor (where the node is when the motion's
// translation is zero) or, when bound (HandleSpec `bind_to`), its SurfaceBinding: a triangle of the obstacle,
// barycentric coordinates on it and the node's offset from that point in the triangle's local frame, so the node
// keeps its clearance and follows the surface through rigid motion and deformation. A handle follows a remesh: by-index
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
};

// Bound surfaces by obstacle name.
using BindSurfaces = std::map<std::string, std::shared_ptr<const BindSurface>>;

// Where a bound node sits relative to the surface: the triangle's frame is (edge 0 direction, normal x edge 0,
// normal), so `offset` stays fixed to the triangle as it moves, turns or deforms.
struct SurfaceBinding {
  SurfacePoint at;
  Vec3 offset = Vec3::Zero();  // m, node minus surface point, in the triangle's frame
};

struct HandleState {
  HandleSpec spec;
  std::vector<int> nodes;          // held nodes, sorted, unique
  std::vector<Vec3> anchors;       // m, world position of nodes[k] at zero translation (unbound handles)
  std::vector<Vec2> materialPoints;  // Points: material point of each chosen node (to re-find it after a remesh)
  std::shared_ptr<const BindSurface> surface;  // bound handles only
  std::vector<SurfaceBinding> bindings;        // bound handles: one per node
};

// Resolves the cloth's handle specs on its initial mesh (at time 0). A bad node index, a region that holds no node,
// a `bind_to` missing from `surfaces` or a bound node farther than `max_distance` from the surface is an InputError
// naming `file` and the handle's JSON pointer.
std::vector<HandleState> resolveHandles(const std::vector<HandleSpec>& specs, const Mesh& mesh,
                                        const std::string& file, const BindSurfaces& surfaces = {});

// Binds world points to the surface as it is at node positions `x`: nearest point plus offset in its frame.
std::vector<SurfaceBinding> bindToSurface(const BindSurface& surface, const std::vector<Vec3>& x,
                                          const std::vector<Vec3>& points);

// The world position (m) of a binding on the surface with node positions `x`.
Vec3 boundPosition(const BindSurface& surface, const std::vector<Vec3>& x, const SurfaceBinding& binding);

// Translation of a handle's motion at time t (m): linear between keys, held outside them.
Vec3 handleOffset(const HandleSpec& spec, double t);

// Where each node of a handle must be at time t (m), in the order of handle.nodes. A bound handle evaluates its
// surface once for all its nodes.
std::vector<Vec3> handleTargets(const HandleState& handle, double t);

// 1 for every node some handle holds (the nodes a remesher must not remove), 0 elsewhere.
std::vector<char> pinnedMask(const std::vector<HandleState>& handles, size_t nodeCount);

// Carries handles over a topology change. nodeMap[old] = new index or -1 (removed); `mesh` is the new mesh and
// `time` the current simulated time (anchors of newly held nodes are their current positions minus the offset; a
// newly held bound node is bound where it is, to the surface as it is at `time`).
void remapHandles(std::vector<HandleState>& handles, const Mesh& mesh, const std::vector<int>& nodeMap, double time);

}  // namespace adacloth
