#pragma once
// Handles: nodes held at fixed positions or moved along a keyframed translation. A handle keeps the nodes it holds
// and, for each, its anchor (where the node is when the motion's translation is zero), so it can follow a remesh:
// by-index handles go through the remesher's node map; region and point handles are re-found from material
// coordinates, which a remesh does not change.
//
// Binding to an obstacle (HandleSpec key `bind_to`) is not available yet: the target position of a node is computed
// in one place, handleTarget(), which is where a binding would evaluate the obstacle's surface point instead.
#include <string>
#include <vector>

#include "config/shot.h"
#include "mesh/mesh.h"

namespace adacloth {

struct HandleState {
  HandleSpec spec;
  std::vector<int> nodes;          // held nodes, sorted, unique
  std::vector<Vec3> anchors;       // m, world position of nodes[k] at zero translation
  std::vector<Vec2> materialPoints;  // Points: material point of each chosen node (to re-find it after a remesh)
};

// Resolves the cloth's handle specs on its initial mesh. A bad node index or a region that holds no node is an
// InputError naming `file` and the handle's JSON pointer.
std::vector<HandleState> resolveHandles(const std::vector<HandleSpec>& specs, const Mesh& mesh,
                                        const std::string& file);

// Translation of a handle's motion at time t (m): linear between keys, held outside them.
Vec3 handleOffset(const HandleSpec& spec, double t);

// Where node k of a handle must be at time t (m).
Vec3 handleTarget(const HandleState& handle, size_t k, double t);

// 1 for every node some handle holds (the nodes a remesher must not remove), 0 elsewhere.
std::vector<char> pinnedMask(const std::vector<HandleState>& handles, size_t nodeCount);

// Carries handles over a topology change. nodeMap[old] = new index or -1 (removed); `mesh` is the new mesh and
// `time` the current simulated time (anchors of newly held nodes are their current positions minus the offset).
void remapHandles(std::vector<HandleState>& handles, const Mesh& mesh, const std::vector<int>& nodeMap, double time);

}  // namespace adacloth
