#include "collision/impact_zones.h"

#include <Eigen/Geometry>
#include <algorithm>

namespace adacloth {

void moveZoneRigidly(const CollisionMesh& w, CollisionState& s, const std::vector<int>& members) {
  std::vector<int> anchors, free;
  for (int n : members) (s.invMass[n] == 0 ? anchors : free).push_back(n);
  if (free.empty()) return;
  if (!anchors.empty()) {
    // Obstacle members lead (a zone caught between a handle and a moving obstacle must go with the obstacle).
    std::vector<int> obstacle;
    for (int n : anchors)
      if (w.nodeCloth[n] < 0) obstacle.push_back(n);
    const std::vector<int>& lead = obstacle.empty() ? anchors : obstacle;
    Vec3 d = Vec3::Zero();
    for (int n : lead) d += s.x1[n] - s.x0[n];
    d /= double(lead.size());
    for (int n : free) {
      s.x1[n] = s.x0[n] + d;
      s.v[n] = d / s.dt;
    }
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
  for (int pass = 0; pass < p.zoneIterations && !hits.empty(); ++pass) {
    for (const Hit& h : hits) {
      auto nodes = candidateNodes(w, h.candidate);
      for (int n : nodes) inZone[n] = 1;
      for (int k = 1; k < 4; ++k) zones.join(nodes[0], nodes[k]);
    }
    std::vector<std::vector<int>> members(w.nodeCount());
    for (size_t n = 0; n < w.nodeCount(); ++n)
      if (inZone[n]) members[zones.find(int(n))].push_back(int(n));
    int count = 0;
    for (const auto& m : members)
      if (!m.empty()) {
        moveZoneRigidly(w, s, m);
        ++count;
      }
    st.zones = std::max(st.zones, count);
    ++st.zonePasses;
    hits = detector.detect(w, s);
  }
  return int(hits.size());
}

}  // namespace adacloth
