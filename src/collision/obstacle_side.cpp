#include "collision/obstacle_side.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "collision/geometry.h"

namespace adacloth {

namespace {

Vec3 faceNormalAt(const CollisionMesh& w, const CollisionState& s, int f) {
  const Tri& t = w.faces[f];
  const Vec3 n = (s.x1[t[1]] - s.x1[t[0]]).cross(s.x1[t[2]] - s.x1[t[0]]);
  const double length = n.norm();
  return length > 0 ? Vec3(n / length) : Vec3::Zero();
}

// A feature of an obstacle: an edge (a, b) or a corner a (b = -1) of its mesh, or face f (a = -1).
struct Feature {
  int face = -1, a = -1, b = -1;
};

Feature featureOf(const CollisionMesh& w, int f, TriFeature which) {
  const Tri& t = w.faces[f];
  switch (which) {
    case TriFeature::Face: return {f, -1, -1};
    case TriFeature::Edge0: return {-1, t[0], t[1]};
    case TriFeature::Edge1: return {-1, t[1], t[2]};
    case TriFeature::Edge2: return {-1, t[2], t[0]};
    case TriFeature::Vert0: return {-1, t[0], -1};
    case TriFeature::Vert1: return {-1, t[1], -1};
    case TriFeature::Vert2: return {-1, t[2], -1};
  }
  return {f, -1, -1};
}

// The feature at parameter u of obstacle edge (a, b): a corner at its ends.
Feature segmentFeature(int a, int b, double u) {
  if (u <= 0) return {-1, a, -1};
  if (u >= 1) return {-1, b, -1};
  return {-1, a, b};
}

bool holds(const Tri& t, int node) { return t[0] == node || t[1] == node || t[2] == node; }

// The faces around the feature: the face itself, those holding both nodes of an edge, those around a corner.
std::vector<int> facesAround(const CollisionMesh& w, const Feature& feature) {
  if (feature.a < 0) return {feature.face};
  std::vector<int> faces;
  for (int i = w.nodeFaceStart[feature.a]; i < w.nodeFaceStart[feature.a + 1]; ++i)
    if (feature.b < 0 || holds(w.faces[w.nodeFaces[i]], feature.b)) faces.push_back(w.nodeFaces[i]);
  return faces;
}

// True when no corner of the faces lies in front of another's plane: the obstacle is convex at the feature.
bool convexAround(const CollisionMesh& w, const CollisionState& s, const std::vector<int>& faces,
                  const std::vector<Vec3>& normals) {
  for (size_t i = 0; i < faces.size(); ++i) {
    const Vec3& origin = s.x1[w.faces[faces[i]][0]];
    for (size_t j = 0; j < faces.size(); ++j)
      for (int corner : w.faces[faces[j]]) {
        const Vec3 offset = s.x1[corner] - origin;
        if (normals[i].dot(offset) > 1e-9 * offset.norm()) return false;
      }
  }
  return true;
}

// Whether a point at d (m) from the feature's point lies outside the obstacle. Where the obstacle is convex at the
// feature, outside means in front of one of the faces around it: that holds whether or not the feature is the one
// nearest the point (cloth in front of a box's side, paired with its top face's edge, is outside). Elsewhere, the
// angle-weighted pseudo-normal decides, as for the obstacle field (exact when the feature is the nearest).
bool outsideAt(const CollisionMesh& w, const CollisionState& s, const Feature& feature, const Vec3& d) {
  const std::vector<int> faces = facesAround(w, feature);
  std::vector<Vec3> normals;
  for (int f : faces) normals.push_back(faceNormalAt(w, s, f));
  if (convexAround(w, s, faces, normals)) {
    double front = -1;
    for (const Vec3& n : normals) front = std::max(front, n.dot(d));
    return front >= 0;
  }
  Vec3 pseudo = Vec3::Zero();
  for (size_t i = 0; i < faces.size(); ++i) {
    double weight = 1;
    if (feature.b < 0) {  // a corner: its face's angle there
      const Tri& t = w.faces[faces[i]];
      const int k = t[0] == feature.a ? 0 : t[1] == feature.a ? 1 : 2;
      weight = cornerAngle(s.x1[t[k]], s.x1[t[(k + 1) % 3]], s.x1[t[(k + 2) % 3]]);
    }
    pseudo += weight * normals[i];
  }
  return pseudo.dot(d) >= 0;
}

// Fills g's normal and distance from d, the vector from the obstacle feature's point to the cloth's; `clothSecond`
// when the separation sum_i w_i n . x_i is n . d (the cloth's point is the pair's second), else -n . d. Returns the
// cloth's signed distance (negative inside).
double orientByObstacle(ContactGeometry& g, const CollisionMesh& w, const CollisionState& s, const Feature& feature,
                        const Vec3& d, bool clothSecond) {
  const double length = d.norm();
  const bool outside = outsideAt(w, s, feature, d);
  g.distance = length;
  Vec3 outward = Vec3::Zero();
  if (length > 1e-12) outward = (outside ? 1.0 : -1.0) / length * d;
  else for (int f : facesAround(w, feature)) outward += faceNormalAt(w, s, f);
  outward.normalize();
  if (!outward.allFinite()) outward = Vec3::UnitZ();
  g.normal = clothSecond ? outward : Vec3(-outward);
  return outside ? length : -length;
}

// The pair's contact at the end of the step, oriented by the obstacle (obstacleSideContact); `signedDistance` gets
// the cloth's signed distance from the obstacle's feature (m).
ContactGeometry endContact(const CollisionMesh& w, const CollisionState& s, const Candidate& c,
                           double& signedDistance) {
  const std::array<int, 4> nodes = candidateNodes(w, c);
  const Vec3 &x0 = s.x1[nodes[0]], &x1 = s.x1[nodes[1]], &x2 = s.x1[nodes[2]], &x3 = s.x1[nodes[3]];
  ContactGeometry g;
  g.t = 1.0;
  if (!c.edgeEdge) {
    const TriangleClosest cl = closestOnTriangle(x0, x1, x2, x3);
    g.weights = {1.0, -cl.bary[0], -cl.bary[1], -cl.bary[2]};
    // The vertex the cloth's and the face the obstacle's, or the other way round.
    signedDistance = w.nodeCloth[nodes[0]] >= 0
                         ? orientByObstacle(g, w, s, featureOf(w, c.b, cl.feature), x0 - cl.point, true)
                         : orientByObstacle(g, w, s, {-1, nodes[0], -1}, cl.point - x0, false);
    return g;
  }
  const SegmentsClosest cl = closestBetweenSegments(x0, x1, x2, x3);
  g.weights = {-(1 - cl.s), -cl.s, 1 - cl.u, cl.u};
  const Vec3 onFirst = x0 + cl.s * (x1 - x0), onSecond = x2 + cl.u * (x3 - x2);
  signedDistance =
      w.nodeCloth[nodes[0]] < 0
          ? orientByObstacle(g, w, s, segmentFeature(nodes[0], nodes[1], cl.s), onSecond - onFirst, true)
          : orientByObstacle(g, w, s, segmentFeature(nodes[2], nodes[3], cl.u), onFirst - onSecond, false);
  return g;
}

}  // namespace

bool isObstaclePair(const CollisionMesh& w, const Candidate& c) {
  for (int n : candidateNodes(w, c))
    if (w.nodeCloth[n] < 0) return true;
  return false;
}

std::optional<ContactGeometry> obstacleSideContact(const CollisionMesh& w, const CollisionState& s,
                                                   const Candidate& c, double within) {
  double signedDistance = 0;
  const ContactGeometry g = endContact(w, s, c, signedDistance);
  if (std::abs(signedDistance) >= within) return std::nullopt;
  return g;
}

bool endsClearOfObstacle(const CollisionMesh& w, const CollisionState& s, const Candidate& c, double within) {
  double signedDistance = 0;
  endContact(w, s, c, signedDistance);
  return signedDistance >= within;
}

}  // namespace adacloth
