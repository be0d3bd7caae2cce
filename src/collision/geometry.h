#pragma once
// Closest-point and intersection primitives on triangles and segments (world space, metres). Shared by proximity
// repulsion, continuous collision detection, the obstacle distance query and the intersection count.
#include "mesh/types.h"

namespace adacloth {

// Which feature of a triangle holds the closest point: its interior, an edge (i joins corners i and i+1 mod 3) or a
// corner. The distance's sign on a closed mesh comes from the pseudo-normal of that feature.
enum class TriFeature { Face, Edge0, Edge1, Edge2, Vert0, Vert1, Vert2 };

struct TriangleClosest {
  Vec3 point;                 // closest point on the triangle (m)
  Vec3 bary;                  // its barycentric coordinates (sum 1, all >= 0)
  TriFeature feature = TriFeature::Face;
  double distance = 0.0;      // |p - point| (m)
};

// Closest point of triangle (a, b, c) to p. Degenerate triangles are handled (falls back to the edges).
TriangleClosest closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

struct SegmentsClosest {
  double s = 0.0, u = 0.0;  // parameters on p0p1 and q0q1 in [0,1]
  double distance = 0.0;    // m
};

// Closest points of segments p0p1 and q0q1 (parallel and degenerate segments included).
SegmentsClosest closestBetweenSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1);

// True when segment p0p1 crosses triangle (a, b, c) (touching counts).
bool segmentHitsTriangle(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c);

// The angle (rad) at corner `at` of the triangle (at, a, b): the weight of its face in the corner's angle-weighted
// pseudo-normal.
double cornerAngle(const Vec3& at, const Vec3& a, const Vec3& b);

// True when triangles (a0,a1,a2) and (b0,b1,b2) intersect: an edge of one crosses the other.
bool trianglesIntersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0, const Vec3& b1,
                        const Vec3& b2);

// True when triangles (n, a1, a2) and (n, b1, b2), which share corner n, cross beyond it: the edge opposite n of one
// crosses the other (touching counts). Their planes meet in a line through n, and a crossing runs along it from n
// until it leaves one triangle, which it can only do through that triangle's edge opposite n (the edges through n
// meet the line at n alone, unless one lies in the other's plane: degenerate placements are not told apart).
bool trianglesCrossBeyondCorner(const Vec3& n, const Vec3& a1, const Vec3& a2, const Vec3& b1, const Vec3& b2);

}  // namespace adacloth
