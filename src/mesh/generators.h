#pragma once
// Procedural meshes for tests and shots. All are single-sided panels, counter-clockwise in material space, with
// world positions equal to a natural embedding of the panel (documented per function).
#include "mesh/mesh.h"

namespace adacloth {

// A width x height rectangle (m) split into nx x ny cells, each cut into two triangles with alternating diagonals
// (no directional bias). Material u in [0,width]x[0,height]; world x = (u0, u1, 0): the XY plane, normal +Z.
Mesh makeGrid(double width, double height, int nx, int ny);

// A cylinder of the given radius and length (m) around the +Y axis from y=0 to y=length, sewn with one seam: the
// panel is the unrolled rectangle [0, 2 pi r] x [0, length], whose first and last columns share nodes. Normals face
// outwards. nAround >= 3, nAlong >= 1.
Mesh makeTube(double radius, double length, int nAround, int nAlong);

// A disc of the given radius (m) in the XY plane, centred at the origin, normal +Z, with `rings` concentric rings of
// 6k verts each (k = 1..rings) around a centre vert: near-equilateral triangles of edge ~ radius / rings.
Mesh makeDisc(double radius, int rings);

}  // namespace adacloth
