#include "collision/ground_contact.h"

#include <algorithm>

namespace adacloth {

namespace {
// Nodes within this many thicknesses of a ground rest on it (CollisionState::support): the pass leaves them exactly at
// the thickness, and the solve's resting contacts hold them there to within rounding.
constexpr double kSupportBand = 1.01;
}  // namespace

int groundPass(const CollisionMesh& w, CollisionState& s, const ObstaclePose& start, const ObstaclePose& end,
               const CollisionParams& p, std::vector<int>* contacts) {
  int lifted = 0;
  const Vec3 n = end.planeNormal;
  const double planeSpeed = n.dot(end.planePoint - start.planePoint) / s.dt;  // along the normal (m/s)
  for (size_t i = 0; i < s.x1.size(); ++i) {
    if (w.nodeCloth[i] < 0 || s.invMass[i] == 0) continue;
    const double h = n.dot(s.x1[i] - end.planePoint);
    if (h < kSupportBand * p.thickness && i < s.support.size()) s.support[i] = n;
    if (h >= p.thickness) continue;
    if (contacts) ++(*contacts)[w.nodeCloth[i]];
    ++lifted;
    const double push = p.thickness - h;
    s.x1[i] += push * n;
    const double vn = n.dot(s.v[i]) - planeSpeed, dvn = std::max(0.0, -vn);
    const Vec3 vt = s.v[i] - n.dot(s.v[i]) * n;
    const double vtNorm = vt.norm(), dvt = std::min(vtNorm, p.obstacleFriction * (dvn + push / s.dt));
    s.v[i] += dvn * n;
    if (vtNorm > 0) s.v[i] -= dvt * vt / vtNorm;
  }
  return lifted;
}

}  // namespace adacloth
