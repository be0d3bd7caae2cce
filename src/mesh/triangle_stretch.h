#pragma once
// How stretched a triangle is against its rest shape: the larger principal stretch, i.e. the larger singular value
// of its deformation gradient F = Ds Dm^-1 (world edges over material edges; 1 at rest, 1.3 = 30 % longer in the
// direction stretched most). It is at least the stretch of each of the triangle's edges and can be far above all
// three: a face thin in material space, sheared across its short height, keeps its edges near their rest lengths.
// The remesher checks the faces its operations make against it (remesh/collapse.h, remesh/flip.h).
#include <array>

#include "mesh/mesh.h"

namespace adacloth {

// The larger principal stretch (1) of the triangle with world corners x (m) and material corners u (m); the
// material triangle must not be degenerate.
double largerStretch(const std::array<Vec3, 3>& x, const std::array<Vec2, 3>& u);

// The same for the triangle of mesh verts `verts` (material corners theirs, world corners their nodes').
double largerStretch(const Mesh& mesh, const Tri& verts);

// Whether a stretch `after` is no more than `before`, up to rounding (a relative 1e-9): the same shape measured
// from other corners differs in its last bits, and a remesh operation that keeps a stretch should not be refused
// for that.
inline bool noMoreStretched(double after, double before) { return after <= before * (1 + 1e-9); }

}  // namespace adacloth
