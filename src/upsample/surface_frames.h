#pragma once
// Local reference frames on a deformed triangle mesh, one per node (seed 002 §3): the node's area-weighted normal and
// the direction to one fixed neighbour projected onto the tangent plane. Example-based wrinkles store their
// displacements in these frames on the smooth (subdivided) surface, so that a wrinkle learned in one pose follows the
// surface when it bends or turns in another.
#include <Eigen/Core>

#include "mesh/mesh.h"

namespace adacloth {

struct SurfaceFrameTopology {
  std::vector<Tri> faces;        // faces by node
  std::vector<int> reference;    // per node: the neighbour whose direction fixes the tangent (-1: isolated node)
};

// The faces by node of `mesh` and, per node, the other end of its first edge (deterministic).
SurfaceFrameTopology surfaceFrameTopology(const Mesh& mesh);

// Per node a 3x3 rotation [tangent, bitangent, normal] (columns, unit, right-handed) at positions `x` (m, rows).
// Where the normal or the tangent degenerates (isolated node, reference along the normal) a fallback axis is used,
// so every frame is a proper rotation.
std::vector<Eigen::Matrix3d> surfaceFrames(const SurfaceFrameTopology& topo, const Eigen::MatrixX3d& x);

}  // namespace adacloth
