#pragma once
// Plane geometry in a cloth's material space (m), shared by the subsystems that measure there (tethers, the
// material-space distance of collision pairs, locating points for upsampling).
#include <algorithm>

#include "mesh/types.h"

namespace adacloth {

// The z of the cross product of two plane vectors: twice the signed area of the triangle (0, a, b).
inline double cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// The nearest point of segment a-b to u as the parameter t in [0, 1] (point a + t (b - a)); 0 for a degenerate
// segment.
inline double segmentParameter(const Vec2& a, const Vec2& b, const Vec2& u) {
  const Vec2 d = b - a;
  const double len2 = d.squaredNorm();
  if (len2 <= 0) return 0.0;
  return std::clamp((u - a).dot(d) / len2, 0.0, 1.0);
}

}  // namespace adacloth
