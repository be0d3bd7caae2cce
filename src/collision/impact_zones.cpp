#include "collision/impact_zones.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <limits>

#include "collision/contact_response.h"
#include "collision/geometry.h"
#include "collision/rigid_fit.h"

namespace adacloth {
namespace {

// Obstacle faces with a corner among `obstacleMembers` (sorted).
std::vector<int> facesTouching(const CollisionMesh& w, const std::vector<int>& obstacleMembers) {
  std::vector<int> faces;
  for (const CollisionMesh::Body& body : w.bodies) {
    if (body.cloth >= 0) continue;
    for (int f = body.firstFace; f < body.firstFace + body.faceCount; ++f)
      for (int corner : w.faces[f])
        if (std::binary_search(obstacleMembers.begin(), obstacleMembers.end(), corner)) {
          faces.push_back(f);
          break;
        }
  }
  return faces;
}

// Cloth faces held at all three corners (handles: infinite mass) with a corner among `anchors` (sorted).
std::vector<int> heldFacesTouching(const CollisionMesh& w, const CollisionState& s, const std::vector<int>& anchors) {
  std::vector<int> faces;
  for (const CollisionMesh::Body& body : w.bodies) {
    if (body.cloth < 0) continue;
    for (int f = body.firstFace; f < body.firstFace + body.faceCount; ++f) {
      const Tri& t = w.faces[f];
      if (s.invMass[t[0]] != 0 || s.invMass[t[1]] != 0 || s.invMass[t[2]] != 0) continue;
      for (int corner : t)
        if (std::binary_search(anchors.begin(), anchors.end(), corner)) {
          faces.push_back(f);
          break;
        }
    }
  }
  return faces;
}

Vec3 unitNormal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double len = n.norm();
  return len > 0 ? Vec3(n / len) : Vec3::Zero();
}

// Node n keeps its offset from face f's closest point `c` at the start of the step: the point is carried by the
// face's motion (the same barycentric combination of its corners at the end), the offset turned as the face's normal
// turns.
Vec3 ridden(const CollisionMesh& w, const CollisionState& s, int n, int f, const TriangleClosest& c) {
  const Tri& t = w.faces[f];
  const Vec3 n0 = unitNormal(s.x0[t[0]], s.x0[t[1]], s.x0[t[2]]), n1 = unitNormal(s.x1[t[0]], s.x1[t[1]], s.x1[t[2]]);
  const Mat3 turn = n0.isZero() || n1.isZero() ? Mat3::Identity()
                                               : Mat3(Eigen::Quaterniond::FromTwoVectors(n0, n1).toRotationMatrix());
  const Vec3 carried = c.bary[0] * s.x1[t[0]] + c.bary[1] * s.x1[t[1]] + c.bary[2] * s.x1[t[2]];
  return carried + turn * (s.x0[n] - c.point);
}

void rideFace(const CollisionMesh& w, CollisionState& s, int n, int f, const TriangleClosest& c) {
  s.x1[n] = ridden(w, s, n, f, c);
  s.v[n] = (s.x1[n] - s.x0[n]) / s.dt;
}

// Each of `free` goes where the held `faces` near it carry it, blended: weights fall from 1 / d^2 at distance d to 0
// at the nearest face's distance plus `radius` (m). A node on a face goes with that face; a node between two held
// layers that close in on it stays between them; nearby nodes go nearly the same way, so they do not cross.
void rideHeldFaces(const CollisionMesh& w, CollisionState& s, const std::vector<int>& faces,
                   const std::vector<int>& free, double radius) {
  for (int n : free) {
    std::vector<std::pair<int, TriangleClosest>> near;
    double nearest = std::numeric_limits<double>::infinity();
    for (int f : faces) {
      const Tri& t = w.faces[f];
      const TriangleClosest c = closestOnTriangle(s.x0[n], s.x0[t[0]], s.x0[t[1]], s.x0[t[2]]);
      near.push_back({f, c});
      nearest = std::min(nearest, c.distance);
    }
    const double reach = nearest + radius, floor = 1e-3 * radius;
    Vec3 sum = Vec3::Zero();
    double total = 0;
    for (const auto& [f, c] : near) {
      const double q = c.distance / reach;
      if (q >= 1) continue;
      const double weight = (1 - q * q) * (1 - q * q) / (c.distance * c.distance + floor * floor);
      sum += weight * ridden(w, s, n, f, c);
      total += weight;
    }
    s.x1[n] = sum / total;
    s.v[n] = (s.x1[n] - s.x0[n]) / s.dt;
  }
}

// Free members of a zone with anchors (infinite mass). With obstacle faces among the anchors, each free member rides
// the nearest of them, so the zone follows the obstacle's local motion, turning and bending parts included (where a
// mean displacement lets a turning hand sweep through the cloth it holds). With only handles and `blendRadius` > 0,
// each rides the cloth faces held at all three corners near it, blended (rideHeldFaces): held nodes bound to a
// deforming body do not move rigidly, and the rigid motion that best fits a gathered waistband's held nodes (3 mm
// apart) let a held triangle sweep through a free node squeezed between them. Otherwise (no held face, or obstacle
// nodes without faces) the free members take the rigid motion that best fits the obstacle members', else the
// handles'.
void followAnchors(const CollisionMesh& w, CollisionState& s, const std::vector<int>& anchors,
                   const std::vector<int>& free, double blendRadius) {
  std::vector<int> obstacle;
  for (int n : anchors)
    if (w.nodeCloth[n] < 0) obstacle.push_back(n);
  std::sort(obstacle.begin(), obstacle.end());
  const std::vector<int> faces = facesTouching(w, obstacle);
  if (!faces.empty()) {
    for (int n : free) {
      int nearest = -1;
      TriangleClosest best;
      for (int f : faces) {
        const Tri& t = w.faces[f];
        const TriangleClosest c = closestOnTriangle(s.x0[n], s.x0[t[0]], s.x0[t[1]], s.x0[t[2]]);
        if (nearest < 0 || c.distance < best.distance) best = c, nearest = f;
      }
      rideFace(w, s, n, nearest, best);
    }
    return;
  }
  if (obstacle.empty() && blendRadius > 0) {
    std::vector<int> held = anchors;
    std::sort(held.begin(), held.end());
    const std::vector<int> heldFaces = heldFacesTouching(w, s, held);
    if (!heldFaces.empty()) {
      rideHeldFaces(w, s, heldFaces, free, blendRadius);
      return;
    }
  }
  // A zone caught between a handle and a moving obstacle must go with the obstacle: obstacle members lead.
  const std::vector<int>& lead = obstacle.empty() ? anchors : obstacle;
  const RigidMotion motion = bestRigidMotion(s, lead);
  for (int n : free) {
    s.x1[n] = motion(s.x0[n]);
    s.v[n] = (s.x1[n] - s.x0[n]) / s.dt;
  }
}

// True when both sides of the contact have a held node (invMass 0, a handle's or an obstacle's) with weight in it.
// A zone's blend moves the free nodes with the held faces near them, but such a pair's held nodes approach on their
// own (a gathered waistband bound to a body folding onto itself, a free node an edge's tenth from a held end).
bool heldOnBothSides(const CollisionState& s, const std::array<int, 4>& nodes, const ContactGeometry& g) {
  bool positive = false, negative = false;
  for (int i = 0; i < 4; ++i)
    if (s.invMass[nodes[i]] == 0) {
      positive = positive || g.weights[i] > 0;
      negative = negative || g.weights[i] < 0;
    }
  return positive && negative;
}

// Pairs left colliding inside one zone after it moved. Riding a deforming body is not rigid, so a pair inside a zone
// that touches an obstacle can still approach (crowd, frame 92: a body vertex rose 0.05 mm towards a cloth face
// spanned over it as the skin sharpened a crease, from 0.27 mm, within the CCD tolerance). Growing the zone cannot
// help, since the pair is in it already; such pairs get the CCD response (only free members move), kept while the
// zone does not grow. In a zone held only by handles the blend comes first, since it keeps a node between held
// layers that close in on it: pushing there from the first pass made skirt_walk at 1 cm worse (7 intersecting pairs
// against 1, one run each). Two kinds of pairs are pushed there all the same: those with held nodes on both sides,
// which no blend answers, from the first pass; and, once `late` (half the passes ran), whatever the blend has not
// answered. A waistband bound to a body that folds onto itself left one pair of the first kind per step, and where
// it gathered, pairs of free cloth squeezed against held edges (crowd.silk.4steps frames 79-91). Pairs on held
// features (onHeldFeatures) are the handles' and are not pushed. `obstacleZone` flags the representatives of zones
// with an obstacle node. Returns true when it pushed a pair.
bool pushInsideZones(const CollisionMesh& w, CollisionState& s, const std::vector<Hit>& hits, Zones& zones,
                     const std::vector<char>& inZone, const std::vector<char>& obstacleZone, bool late,
                     const CollisionParams& p) {
  bool pushed = false;
  for (const Hit& h : hits) {
    const auto nodes = candidateNodes(w, h.candidate);
    const int zone = zones.find(nodes[0]);
    const bool pushable = obstacleZone[zone] || ((late || heldOnBothSides(s, nodes, h.g)) &&
                                                 !onHeldFeatures(s, nodes, h.g));
    bool inside = inZone[nodes[0]] && pushable;
    for (int k = 1; k < 4; ++k) inside = inside && inZone[nodes[k]] && zones.find(nodes[k]) == zone;
    if (inside) pushed = separate(s, nodes, h.g, 0.1 * p.thickness, frictionOf(w, nodes, p)) || pushed;
  }
  return pushed;
}

}  // namespace

void moveZoneRigidly(const CollisionMesh& w, CollisionState& s, const std::vector<int>& members, double blendRadius) {
  std::vector<int> anchors, free;
  for (int n : members) (s.invMass[n] == 0 ? anchors : free).push_back(n);
  if (free.empty()) return;
  if (!anchors.empty()) {
    followAnchors(w, s, anchors, free, blendRadius);
    return;
  }
  double mass = 0;
  Vec3 centre = Vec3::Zero(), momentum = Vec3::Zero();
  for (int n : free) {
    const double m = 1.0 / s.invMass[n];
    mass += m;
    centre += m * s.x0[n];
    momentum += m * (s.x1[n] - s.x0[n]) / s.dt;
  }
  centre /= mass;
  const Vec3 vc = momentum / mass;
  Vec3 angular = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  for (int n : free) {
    const double m = 1.0 / s.invMass[n];
    const Vec3 r = s.x0[n] - centre;
    angular += m * r.cross((s.x1[n] - s.x0[n]) / s.dt - vc);
    inertia += m * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
  }
  const Vec3 omega = inertia.completeOrthogonalDecomposition().solve(angular);
  const double angle = omega.norm() * s.dt;
  const Mat3 rot = angle > 0 ? Mat3(Eigen::AngleAxisd(angle, omega.normalized())) : Mat3::Identity();
  for (int n : free) {
    s.x1[n] = centre + vc * s.dt + rot * (s.x0[n] - centre);
    s.v[n] = (s.x1[n] - s.x0[n]) / s.dt;
  }
}

int impactZones(const CollisionMesh& w, CollisionState& s, std::vector<Hit> hits, const CollisionParams& p,
                ImpactDetector& detector, CollisionStepStats& st) {
  Zones zones(w.nodeCount());
  std::vector<char> inZone(w.nodeCount(), 0);
  std::vector<std::vector<int>> moved(w.nodeCount());  // each zone's members when it last moved, by representative
  for (int pass = 0; pass < p.zoneIterations && !hits.empty(); ++pass) {
    for (const Hit& h : hits) {
      auto nodes = candidateNodes(w, h.candidate);
      for (int n : nodes) inZone[n] = 1;
      for (int k = 1; k < 4; ++k) zones.join(nodes[0], nodes[k]);
    }
    std::vector<std::vector<int>> members(w.nodeCount());
    std::vector<char> obstacleZone(w.nodeCount(), 0);
    for (size_t n = 0; n < w.nodeCount(); ++n)
      if (inZone[n]) {
        const int zone = zones.find(int(n));
        members[zone].push_back(int(n));
        if (w.nodeCloth[n] < 0) obstacleZone[zone] = 1;
      }
    int count = 0;
    for (size_t r = 0; r < members.size(); ++r)
      if (!members[r].empty()) {
        ++count;
        if (members[r] == moved[r]) continue;  // moving it again would undo the pushes below
        moveZoneRigidly(w, s, members[r], p.thickness);
        moved[r] = members[r];
      }
    st.zones = std::max(st.zones, count);
    ++st.zonePasses;
    hits = detector.detect(w, s);
    const bool late = pass >= p.zoneIterations / 2;
    if (pushInsideZones(w, s, hits, zones, inZone, obstacleZone, late, p)) hits = detector.detect(w, s);
  }
  // What is left on held features (a gathered waistband bound to the body meeting itself) is the handles' to decide:
  // the zones above keep the free nodes around it with the held faces, but no pass can move the contact itself.
  int left = 0;
  for (const Hit& h : hits) {
    if (onHeldFeatures(s, candidateNodes(w, h.candidate), h.g)) ++st.heldContacts; else ++left;
  }
  return left;
}

}  // namespace adacloth
