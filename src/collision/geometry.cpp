#include "collision/geometry.h"

#include <algorithm>
#include <cmath>

namespace adacloth {

// Region-based closest point (Voronoi regions of corners, edges and the face), exact for non-degenerate triangles.
TriangleClosest closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  TriangleClosest r;
  auto finish = [&](const Vec3& bary, TriFeature f) {
    r.bary = bary;
    r.point = bary[0] * a + bary[1] * b + bary[2] * c;
    r.feature = f;
    r.distance = (p - r.point).norm();
    return r;
  };
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return finish(Vec3(1, 0, 0), TriFeature::Vert0);
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return finish(Vec3(0, 1, 0), TriFeature::Vert1);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0 && d1 - d3 > 0) {
    double v = d1 / (d1 - d3);
    return finish(Vec3(1 - v, v, 0), TriFeature::Edge0);
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return finish(Vec3(0, 0, 1), TriFeature::Vert2);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0 && d2 - d6 > 0) {
    double w = d2 / (d2 - d6);
    return finish(Vec3(1 - w, 0, w), TriFeature::Edge2);
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0 && (d4 - d3) + (d5 - d6) > 0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return finish(Vec3(0, 1 - w, w), TriFeature::Edge1);
  }
  const double sum = va + vb + vc;
  if (!(std::abs(sum) > 0)) {  // degenerate triangle: nearest of the three edges
    SegmentsClosest e0 = closestBetweenSegments(p, p, a, b), e1 = closestBetweenSegments(p, p, b, c),
                    e2 = closestBetweenSegments(p, p, c, a);
    if (e0.distance <= e1.distance && e0.distance <= e2.distance) return finish(Vec3(1 - e0.u, e0.u, 0), TriFeature::Edge0);
    if (e1.distance <= e2.distance) return finish(Vec3(0, 1 - e1.u, e1.u), TriFeature::Edge1);
    return finish(Vec3(e2.u, 0, 1 - e2.u), TriFeature::Edge2);
  }
  const double v = vb / sum, w = vc / sum;
  return finish(Vec3(1 - v - w, v, w), TriFeature::Face);
}

SegmentsClosest closestBetweenSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0, u = 0;
  const double tiny = 1e-30;
  if (a <= tiny && e <= tiny) {
    s = u = 0;
  } else if (a <= tiny) {
    u = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= tiny) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      // Parallel segments (denom ~ 0): any s works; take 0 and let the clamps find the matching u.
      s = denom > 1e-14 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      u = (b * s + f) / e;
      if (u < 0) {
        u = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (u > 1) {
        u = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  SegmentsClosest out;
  out.s = s;
  out.u = u;
  out.distance = ((p0 + s * d1) - (q0 + u * d2)).norm();
  return out;
}

bool segmentHitsTriangle(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double d0 = n.dot(p0 - a), d1 = n.dot(p1 - a);
  if ((d0 > 0 && d1 > 0) || (d0 < 0 && d1 < 0)) return false;
  if (d0 == d1) return false;  // in the triangle's plane (coplanar overlap is not counted as a crossing)
  const Vec3 x = p0 + (d0 / (d0 - d1)) * (p1 - p0);
  const double s0 = n.dot((b - a).cross(x - a)), s1 = n.dot((c - b).cross(x - b)), s2 = n.dot((a - c).cross(x - c));
  return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
}

bool trianglesIntersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0, const Vec3& b1,
                        const Vec3& b2) {
  return segmentHitsTriangle(a0, a1, b0, b1, b2) || segmentHitsTriangle(a1, a2, b0, b1, b2) ||
         segmentHitsTriangle(a2, a0, b0, b1, b2) || segmentHitsTriangle(b0, b1, a0, a1, a2) ||
         segmentHitsTriangle(b1, b2, a0, a1, a2) || segmentHitsTriangle(b2, b0, a0, a1, a2);
}

bool trianglesCrossBeyondCorner(const Vec3& n, const Vec3& a1, const Vec3& a2, const Vec3& b1, const Vec3& b2) {
  return segmentHitsTriangle(a1, a2, n, b1, b2) || segmentHitsTriangle(b1, b2, n, a1, a2);
}

double cornerAngle(const Vec3& at, const Vec3& a, const Vec3& b) {
  const Vec3 u = a - at, v = b - at;
  return std::atan2(u.cross(v).norm(), u.dot(v));
}

}  // namespace adacloth
