#pragma once
// Cotangent Laplacian (stiffness) and lumped area of a mesh's nodes, in material space (the rest shape), for the mesh
// harmonics of seed 000 (docs/design.md §7). Works on nodes, so a seam is interior: faces on both sides of it share
// their nodes.
#include "upsample/subdivide.h"

namespace adacloth {

// Symmetric positive semi-definite K (nodes x nodes): K_ij = -(cot a_ij + cot b_ij)/2 for an edge ij with opposite
// angles a, b (material space), K_ii = -sum_j K_ij. Constant vectors are its null space.
SparseMatrixD cotangentStiffness(const Mesh& mesh);

// Lumped area (m^2) per node: a third of the material area of each face around it.
Eigen::VectorXd lumpedArea(const Mesh& mesh);

}  // namespace adacloth
