#pragma once
// Polygonizes an implicit surface f(p) = 0 (f < 0 inside) with marching tetrahedra on a regular grid.
//
// Every grid cube is cut into the same 6 tetrahedra around its main diagonal (Freudenthal / Kuhn), so neighbouring
// cubes cut their shared face the same way and the pieces fit. A surface vertex lives on a grid edge whose ends have
// opposite signs, and is shared by every tetrahedron using that edge (keyed by the edge's grid points), so the output
// is one closed mesh. Sample values within 2 % of the spacing of 0 are pushed outside to +2 %, and a crossing is
// kept at least 1 % of the edge from its ends: then no surface vertex sits on a grid point, a triangle's corners lie
// strictly inside three different edges of a tetrahedron, and no triangle is degenerate.
// Faces are oriented with their normal from the inside (f < 0) towards the outside.
#include <functional>

#include "surface.h"

namespace adacloth::assets {

struct GridSpec {
  Vec3 lower = Vec3::Zero();  // m: corner of the box; f must be positive on the box's boundary
  Vec3 upper = Vec3::Ones();  // m
  double spacing = 0.01;      // m: edge of a grid cube
};

// `f` is called once per grid point, in a fixed order (so the result is deterministic).
Surface marchingTetrahedra(const std::function<double(const Vec3&)>& f, const GridSpec& grid);

}  // namespace adacloth::assets
