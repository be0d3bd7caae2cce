#pragma once
// Reduces a closed surface to a target number of faces by collapsing its shortest edges first. Each collapse
// keeps the surface a closed manifold of the same genus (link condition: the two ends share exactly the two
// opposite corners), never flips or flattens a neighbouring face, and puts the merged vertex at the edge midpoint
// projected back onto the implicit surface `f` (so the shape stays on the body rather than shrinking). Rounds of
// collapses alternate with edge flips and tangential smoothing, which turn marching-tetrahedra slivers into
// reasonable triangles.
// Serial and ordered by (length, vertex ids): the result is deterministic.
#include <functional>

#include "surface.h"

namespace adacloth::assets {

Surface decimate(const Surface& input, int targetFaces, const std::function<double(const Vec3&)>& f);

// Gradient of f by central differences (step 0.5 mm).
Vec3 gradient(const std::function<double(const Vec3&)>& f, const Vec3& p);

// Moves p along the gradient of f (central differences, step 0.5 mm) until |f| is small: a few Newton steps.
Vec3 projectOnto(const std::function<double(const Vec3&)>& f, Vec3 p);

}  // namespace adacloth::assets
