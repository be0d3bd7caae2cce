#pragma once
// Uniform 1-to-4 midpoint subdivision of a cloth mesh, in material and world space, and the two linear maps over
// nodes that predict the fine mesh from a deformed coarse one (docs/design.md §7):
//   - `midpoint` (the barycentric map B of seed 000): each new node at the middle of its edge, repeated;
//   - `loop`: Loop subdivision (boundary edges use the boundary rules; seam edges are interior, since nodes are
//     shared across a seam).
// Both are N x M sparse matrices with rows summing to 1, acting on node positions (one row per node).
#include <Eigen/Sparse>

#include "mesh/mesh.h"

namespace adacloth {

using SparseMatrixD = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct Subdivision {
  Mesh fine;              // rest shape: world positions are midpoint subdivision of the coarse world positions
  SparseMatrixD midpoint;  // fine nodes x coarse nodes
  SparseMatrixD loop;      // fine nodes x coarse nodes
};

// One level: a new node per edge (index coarseNodes + edge index), a new vert per distinct material edge (so a
// subdivided seam edge gives one node with two verts); every face becomes four with the same orientation.
Subdivision subdivideOnce(const Mesh& coarse);

// `levels` >= 0 levels; the maps are composed. Node count grows ~4x per level.
Subdivision subdivide(const Mesh& coarse, int levels);

// Node positions (m, rows) of a mesh, and back.
Eigen::MatrixX3d nodePositions(const Mesh& mesh);
Eigen::MatrixX3d nodeVelocities(const Mesh& mesh);

}  // namespace adacloth
