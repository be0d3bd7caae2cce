#pragma once
// Whether an obstacle's mesh bounds a solid the way contact takes it: closed, its faces counter-clockwise seen from
// outside. The obstacle field's signed distance and the side of a cloth-obstacle pair (obstacle_side.h) read the
// inside from the faces' orientation, so cloth behind an open surface (a single-sided plate) or in front of an
// inward-facing one counts as inside and is pushed through to the other side (docs/collisions.md, "Obstacles").
#include <vector>

#include "mesh/types.h"

namespace adacloth {

struct SolidCheck {
  int openEdges = 0;  // edges not shared by exactly two faces (a boundary, or more than two faces at one edge)
  double volume = 0;  // m^3, signed: negative when the faces point inwards (meaningful only without open edges)
};

SolidCheck checkSolid(const std::vector<Vec3>& x, const std::vector<Tri>& faces);

// The volume the faces bound (m^3; the divergence theorem: each face adds the signed volume of the tetrahedron it
// spans with the origin). Negative when they point inwards; meaningful for a closed mesh only.
double enclosedVolume(const std::vector<Vec3>& x, const std::vector<Tri>& faces);

}  // namespace adacloth
