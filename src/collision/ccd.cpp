#include "collision/ccd.h"

#include <algorithm>
#include <cmath>

#include "collision/geometry.h"

namespace adacloth {
namespace {

double evalCubic(double c0, double c1, double c2, double c3, double t) { return ((c3 * t + c2) * t + c1) * t + c0; }

// Roots in (0, 1) of qa t^2 + qb t + qc (the cubic's derivative), sorted.
CandidateTimes quadraticRootsInUnit(double qa, double qb, double qc) {
  CandidateTimes roots;
  const double scale = std::max({std::abs(qa), std::abs(qb), std::abs(qc)});
  if (scale == 0) return roots;
  if (std::abs(qa) <= 1e-14 * scale) {
    if (std::abs(qb) > 1e-14 * scale) roots.push(-qc / qb);
  } else {
    double disc = qb * qb - 4 * qa * qc;
    if (disc >= 0) {
      // Numerically stable pair of roots.
      double q = -0.5 * (qb + std::copysign(std::sqrt(disc), qb));
      roots.push(q / qa);
      if (q != 0) roots.push(qc / q);
    }
  }
  CandidateTimes out;
  for (double t : roots)
    if (t > 0 && t < 1) out.push(t);
  std::sort(out.begin(), out.end());
  return out;
}

Vec3 at(const MovingPoints& m, int i, double t) { return (1 - t) * m.x0[i] + t * m.x1[i]; }

// Coefficients of the coplanarity cubic det(x1 - x0, x2 - x0, x3 - x0)(t) of the four moving points, with the given
// pairs of points spanning the three vectors: vertex-face uses (b-a, c-a, p-a), edge-edge (p1-p0, q1-q0, q0-p0).
std::array<double, 4> coplanarityCubic(const std::array<Vec3, 3>& e, const std::array<Vec3, 3>& d) {
  const Vec3 e01 = e[0].cross(e[1]), d01 = d[0].cross(d[1]);
  const Vec3 mixed = d[0].cross(e[1]) + e[0].cross(d[1]);
  return {e01.dot(e[2]), mixed.dot(e[2]) + e01.dot(d[2]), d01.dot(e[2]) + mixed.dot(d[2]), d01.dot(d[2])};
}

// Candidate times for a primitive; the cubic vanishing identically (coplanar motion) gives evenly spaced samples.
CandidateTimes candidateTimes(const std::array<Vec3, 3>& e, const std::array<Vec3, 3>& d) {
  double len = 0;
  for (int i = 0; i < 3; ++i) len = std::max({len, e[i].norm(), d[i].norm()});
  auto c = coplanarityCubic(e, d);
  const double eps = 1e-12 * len * len * len;
  if (std::abs(c[0]) <= eps && std::abs(c[1]) <= eps && std::abs(c[2]) <= eps && std::abs(c[3]) <= eps) {
    CandidateTimes samples;
    for (int k = 0; k <= 4; ++k) samples.push(k / 4.0);
    return samples;
  }
  return cubicCandidateTimes(c[0], c[1], c[2], c[3]);
}

// Orients `n` to point the way the separation sum_i w_i x_i pointed at the start of the step; when that is
// ambiguous (touching at t = 0), against the relative motion, so that the pair is seen as approaching.
Vec3 orient(Vec3 n, const MovingPoints& m, const std::array<double, 4>& w, double scale) {
  Vec3 sep0 = Vec3::Zero(), motion = Vec3::Zero();
  for (int i = 0; i < 4; ++i) {
    sep0 += w[i] * m.x0[i];
    motion += w[i] * (m.x1[i] - m.x0[i]);
  }
  const double s = n.dot(sep0);
  if (std::abs(s) > 1e-9 * scale) return s > 0 ? n : -n;
  return n.dot(motion) <= 0 ? n : -n;
}

Vec3 unitOr(const Vec3& v, const Vec3& fallback) {
  double len = v.norm();
  return len > 1e-300 ? Vec3(v / len) : fallback;
}

ContactGeometry vertexFaceAt(const MovingPoints& m, double t) {
  const Vec3 p = at(m, 0, t), a = at(m, 1, t), b = at(m, 2, t), c = at(m, 3, t);
  TriangleClosest cl = closestOnTriangle(p, a, b, c);
  ContactGeometry g;
  g.t = t;
  g.weights = {1.0, -cl.bary[0], -cl.bary[1], -cl.bary[2]};
  g.distance = cl.distance;
  const Vec3 faceNormal = (b - a).cross(c - a);
  // Inside the face the face normal is the contact normal; off its edges, the direction to the closest point.
  Vec3 n = cl.feature == TriFeature::Face || cl.distance < 1e-12 ? unitOr(faceNormal, p - cl.point)
                                                                  : unitOr(p - cl.point, faceNormal);
  g.normal = orient(unitOr(n, Vec3::UnitZ()), m, g.weights, (b - a).norm() + (c - a).norm());
  return g;
}

ContactGeometry edgeEdgeAt(const MovingPoints& m, double t) {
  const Vec3 p0 = at(m, 0, t), p1 = at(m, 1, t), q0 = at(m, 2, t), q1 = at(m, 3, t);
  SegmentsClosest cl = closestBetweenSegments(p0, p1, q0, q1);
  ContactGeometry g;
  g.t = t;
  g.weights = {-(1 - cl.s), -cl.s, 1 - cl.u, cl.u};
  g.distance = cl.distance;
  const Vec3 gap = (q0 + cl.u * (q1 - q0)) - (p0 + cl.s * (p1 - p0));
  const Vec3 cross = (p1 - p0).cross(q1 - q0);
  const double scale = (p1 - p0).norm() * (q1 - q0).norm();
  // Crossing edges: the common perpendicular; parallel edges: the gap between them.
  // Parallel edges touching: the gap at the start of the step says which way they approach.
  const Vec3 gap0 = (m.x0[2] + cl.u * (m.x0[3] - m.x0[2])) - (m.x0[0] + cl.s * (m.x0[1] - m.x0[0]));
  Vec3 n = cross.norm() > 1e-6 * scale ? unitOr(cross, gap) : unitOr(gap, unitOr(gap0, (p1 - p0).unitOrthogonal()));
  if (cl.distance > 1e-12 && (cl.s == 0 || cl.s == 1 || cl.u == 0 || cl.u == 1)) n = gap / cl.distance;
  g.normal = orient(n, m, g.weights, (p1 - p0).norm() + (q1 - q0).norm());
  return g;
}

// How far (m) the pair approaches along the contact normal over the step: a pair that is separating (or keeping its
// distance) is not a collision, even if close.
double approach(const MovingPoints& m, const ContactGeometry& g) {
  Vec3 motion = Vec3::Zero();
  for (int i = 0; i < 4; ++i) motion += g.weights[i] * (m.x1[i] - m.x0[i]);
  return -g.normal.dot(motion);
}

// |det(e0, e1, e2)| = |e0 x e1| times the distance between the face plane (or the two lines) and the fourth point,
// which is at most the primitives' distance: a cheap test that rules a time out before the closest-point query.
bool mayBeWithin(const std::array<Vec3, 3>& e, const std::array<Vec3, 3>& d, double t, double tol) {
  const Vec3 a = e[0] + t * d[0], b = e[1] + t * d[1], c = e[2] + t * d[2];
  const Vec3 n = a.cross(b);
  return std::abs(n.dot(c)) <= n.norm() * tol * (1 + 1e-9) + 1e-300;
}

// A pair that starts the step within the tolerance collides only when it approaches by more than a hundredth of the
// tolerance over the step: a zone moving rigidly (impact_zones.h) keeps its distances, but a turn interpolated
// linearly moves a close pair "inwards" by a second-order amount, and such a pair could never be resolved.
template <class At>
std::optional<ContactGeometry> earliest(const MovingPoints& m, const std::array<Vec3, 3>& e,
                                        const std::array<Vec3, 3>& d, double tol, At f) {
  double needed = 0;  // approach over the step (m) that makes a contact a collision
  for (double t : candidateTimes(e, d)) {
    if (!mayBeWithin(e, d, t, tol)) continue;
    ContactGeometry g = f(m, t);
    if (g.distance > tol) continue;
    if (t == 0) needed = 0.01 * tol;
    if (approach(m, g) > needed) return g;
  }
  return std::nullopt;
}

// Along the unit axis a, the least gap over the step between the point sets `lo` and `hi` of a pair (a.x of hi's
// points minus a.x of lo's, every pair of points, at both ends of the step): the gap of two points is linear in t,
// so its least value over the step is at an end.
template <size_t L, size_t H>
double leastGap(const MovingPoints& m, const Vec3& a, const std::array<int, L>& lo, const std::array<int, H>& hi) {
  double gap = 1e300;
  for (int i : lo)
    for (int j : hi) gap = std::min({gap, a.dot(m.x0[j] - m.x0[i]), a.dot(m.x1[j] - m.x1[i])});
  return gap;
}

// True when some fixed axis separates the pair's two sets of points by more than `tol` (m) for the whole step: the
// pair then never comes within the tolerance (its distance at any time is at least the gap along any unit axis),
// and the coplanarity cubic need not be solved. Axes: the face's normal (or the edges' common normal) at both ends of
// the step, and at the start the in-plane normals of its edges (for pairs side by side in one plane: most of a
// cloth's pairs of neighbouring primitives); a degenerate axis (parallel edges) is skipped. A margin of a millionth
// of the tolerance keeps rounding on the safe side: a pair this says is apart would have been found apart by the
// full test too.
template <size_t L, size_t H, size_t N>
bool separatedForTheStep(const MovingPoints& m, const std::array<int, L>& a, const std::array<int, H>& b,
                         const std::array<Vec3, N>& axes, double tol) {
  const double needed = tol * (1 + 1e-6) + 1e-12;
  for (const Vec3& axis : axes) {
    const double len = axis.norm();
    if (!(len > 1e-300)) continue;
    const Vec3 unit = axis / len;
    if (leastGap(m, unit, a, b) > needed || leastGap(m, unit, b, a) > needed) return true;
  }
  return false;
}

}  // namespace

bool vertexFaceApartForStep(const MovingPoints& m, double tol) {
  const Vec3 n0 = (m.x0[2] - m.x0[1]).cross(m.x0[3] - m.x0[1]), n1 = (m.x1[2] - m.x1[1]).cross(m.x1[3] - m.x1[1]);
  const std::array<Vec3, 5> axes = {n0, n1, n0.cross(m.x0[2] - m.x0[1]), n0.cross(m.x0[3] - m.x0[2]),
                                    n0.cross(m.x0[1] - m.x0[3])};
  return separatedForTheStep(m, std::array<int, 1>{0}, std::array<int, 3>{1, 2, 3}, axes, tol);
}

bool edgeEdgeApartForStep(const MovingPoints& m, double tol) {
  const Vec3 p0 = m.x0[1] - m.x0[0], q0 = m.x0[3] - m.x0[2];
  const Vec3 n0 = p0.cross(q0), n1 = (m.x1[1] - m.x1[0]).cross(m.x1[3] - m.x1[2]);
  const std::array<Vec3, 4> axes = {n0, n1, n0.cross(p0), n0.cross(q0)};
  return separatedForTheStep(m, std::array<int, 2>{0, 1}, std::array<int, 2>{2, 3}, axes, tol);
}

CandidateTimes cubicCandidateTimes(double c0, double c1, double c2, double c3) {
  const CandidateTimes breaks = quadraticRootsInUnit(3 * c3, 2 * c2, c1);
  CandidateTimes times, knots;
  times.push(0.0);
  knots.push(0.0);
  for (double t : breaks) knots.push(t);
  knots.push(1.0);
  // Between consecutive critical points the cubic is monotone: one sign change at most, found by bisection.
  for (int k = 0; k + 1 < knots.count; ++k) {
    double lo = knots.t[k], hi = knots.t[k + 1];
    double flo = evalCubic(c0, c1, c2, c3, lo), fhi = evalCubic(c0, c1, c2, c3, hi);
    if ((flo < 0 && fhi > 0) || (flo > 0 && fhi < 0)) {
      for (int it = 0; it < 60 && hi - lo > 1e-15; ++it) {
        double mid = 0.5 * (lo + hi), fm = evalCubic(c0, c1, c2, c3, mid);
        if ((fm < 0) == (flo < 0)) {
          lo = mid;
          flo = fm;
        } else {
          hi = mid;
        }
      }
      times.push(lo);
    }
    if (k + 1 < knots.count - 1) times.push(knots.t[k + 1]);
  }
  times.push(1.0);
  std::sort(times.begin(), times.end());
  times.count = int(std::unique(times.begin(), times.end()) - times.begin());
  return times;
}

std::optional<ContactGeometry> vertexFaceCCD(const MovingPoints& m, double tolerance) {
  if (vertexFaceApartForStep(m, tolerance)) return std::nullopt;
  std::array<Vec3, 3> e = {m.x0[2] - m.x0[1], m.x0[3] - m.x0[1], m.x0[0] - m.x0[1]};
  std::array<Vec3, 3> d = {(m.x1[2] - m.x1[1]) - e[0], (m.x1[3] - m.x1[1]) - e[1], (m.x1[0] - m.x1[1]) - e[2]};
  return earliest(m, e, d, tolerance, vertexFaceAt);
}

std::optional<ContactGeometry> edgeEdgeCCD(const MovingPoints& m, double tolerance) {
  if (edgeEdgeApartForStep(m, tolerance)) return std::nullopt;
  std::array<Vec3, 3> e = {m.x0[1] - m.x0[0], m.x0[3] - m.x0[2], m.x0[2] - m.x0[0]};
  std::array<Vec3, 3> d = {(m.x1[1] - m.x1[0]) - e[0], (m.x1[3] - m.x1[2]) - e[1], (m.x1[2] - m.x1[0]) - e[2]};
  return earliest(m, e, d, tolerance, edgeEdgeAt);
}

std::optional<ContactGeometry> vertexFaceProximity(const MovingPoints& m, double distance) {
  ContactGeometry g = vertexFaceAt(m, 1.0);
  if (g.distance >= distance) return std::nullopt;
  return g;
}

std::optional<ContactGeometry> edgeEdgeProximity(const MovingPoints& m, double distance) {
  ContactGeometry g = edgeEdgeAt(m, 1.0);
  if (g.distance >= distance) return std::nullopt;
  return g;
}

}  // namespace adacloth
