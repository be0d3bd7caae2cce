#pragma once
// The per-face terms of the sizing field (docs/design.md §2), each a 2x2 tensor in material space (1/m^2). Gradients
// are taken with respect to material coordinates through the face's Dm^-1, so the mesh's geometry must be up to date.
#include <array>
#include <optional>

#include "mesh/mesh.h"
#include "sizing/proximity.h"

namespace adacloth {

// Material-space gradient (3x2) of a field given at the face's three nodes.
Mat32 faceGradient(const Mesh& mesh, int face, const std::array<Vec3, 3>& values);

// Curvature: (grad n)^T (grad n) / refineAngle^2, n = node normals (refineAngle in radians per edge).
Mat2 curvatureSizing(const Mesh& mesh, int face, double refineAngle);

// Velocity: (grad v)^T (grad v) / refineVelocity^2 (refineVelocity in m/s across an edge).
Mat2 velocitySizing(const Mesh& mesh, int face, double refineVelocity);

// Compression, ARCSim's 2D form pos(-G + sqrt(pos(G^2 - 4 c^2 adj(K)))) / (2 c^2) with G = F^T F - I (twice the
// Green strain, as ARCSim takes it) and K the curvature metric (grad n)^T (grad n): compression that the cloth
// already shows as bending needs no refinement. In 1D with no curvature it reduces to max(-g, 0) / c^2. As in
// ARCSim, c (refineCompression) is a strain per metre of reference length, so the term is in 1/m^2.
Mat2 compressionSizing(const Mesh& mesh, int face, double refineCompression);

// Obstacle proximity: (1/3) sum over the face's nodes v within range of an obstacle of grad(h) grad(h)^T / h_v^2,
// where h is the signed distance of the face's nodes to the tangent plane of the obstacle seen from node v.
// `samples` holds one query result per node of the mesh (nullopt: nothing near).
Mat2 obstacleSizing(const Mesh& mesh, int face, const std::vector<std::optional<ProximitySample>>& samples);

}  // namespace adacloth
