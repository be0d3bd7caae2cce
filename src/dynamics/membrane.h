#pragma once
// The in-plane elasticity of a face as a constant-strain triangle (MaterialParams::membrane "triangles"): energy
//   A 0.5 (C11 G00^2 + 2 C12 G00 G11 + C22 G11^2 + 4 C66 G01^2),   G = 0.5 (F^T F - I),
// with A the face's material area, F its deformation gradient and the moduli C of the spring grid's continuum limit:
// C11 = C22 = stretch + shear / 4 along warp and weft, C12 = C66 = shear / 4.
//
// Why: an edge spring network has those moduli only on a regular grid with diagonals. On the irregular, anisotropic
// meshes the remesher makes, a thin triangle's three springs leave a strain soft (a shear with a compression along
// its long edge costs a small fraction of the intended energy), so soft cloth stays compressed in its own plane
// where it should buckle, and the sizing's compression term refines it: a soft knit hanging from two corners had a
// third of its area compressed by more than 3 % on a remeshed mesh and 2-4 % on a regular grid (ARCSim, whose
// faces are triangles, 2-3 %; docs/benchmarks.md). A triangle is exact for any uniform strain on any mesh.
//
// In pair form: with b_j the gradients of the face's barycentric coordinates (F = sum_j x_j b_j^T, sum_j b_j = 0),
// the stress S = dpsi/dG and the tensor K_jk[a][c] = sum_bd C_abcd b_j[b] b_k[d], the force on corner j is
// -A F S b_j and the Hessian's block A ((b_j . S+ b_k) I + F K_jk F^T), S+ the stress's positive part (the
// geometric term under compression is left out, as for a spring, so the block sum stays positive semidefinite).
// With C12 = C66 the tensor C has all index symmetries, K_jk = K_kj^T = K_jk^T, and the blocks are symmetric: the
// term fits the system's one block per edge, as the strain limit's face term does.
#include "dynamics/face_stiffening.h"
#include "dynamics/params.h"
#include "mesh/mesh.h"

namespace adacloth {

struct MembraneModuli {
  double c11 = 0, c22 = 0, c12 = 0, c66 = 0;  // N/m
};

// The moduli of a material (see above).
MembraneModuli membraneModuli(const MaterialParams& material);

// Face f's term at the mesh's current positions (its material inverse and area as Mesh::updateGeometry() keeps them);
// zero for a degenerate face.
FaceTerm membraneTerm(const Mesh& mesh, int f, const MembraneModuli& moduli);

// The summed energy of every face's term (J), in face order.
double membraneEnergy(const Mesh& mesh, const MembraneModuli& moduli);

}  // namespace adacloth
