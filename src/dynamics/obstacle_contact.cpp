#include "dynamics/obstacle_contact.h"

#include <algorithm>
#include <vector>

namespace adacloth {

// With K along n and the end distance linearized as d + h n.dv, backward Euler adds h^2 K n n^T to W_i and
// h K depth n to the right-hand side h f_i. Every spring's K is taken from the blocks as they were on entry, before
// any of the call's contacts: a node with several contacts (its own and its edges') gets the same K for each, in any
// order.
void addObstacleContacts(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                         const ContactSprings& springs) {
  if (sys.h <= 0 || !springs.enabled()) return;
  const double h = sys.h;
  thread_local std::vector<double> stiffnessStore;  // K of each contact (N/m); 0: none
  std::vector<double>& stiffness = stiffnessStore;
  stiffness.assign(contacts.size(), 0.0);
  for (size_t k = 0; k < contacts.size(); ++k) {
    const ObstacleContact& c = contacts[k];
    if (c.node < 0 || size_t(c.node) >= sys.W.size() || sys.fixed[c.node]) continue;
    const double mass = mesh.nodes[c.node].mass;
    if (mass <= 0) continue;
    double multiples = springs.massMultiple * mass;  // kg
    if (springs.clothMultiple > 0)
      multiples += springs.clothMultiple * std::max(0.0, c.normal.dot(sys.W[c.node] * c.normal) - mass);
    stiffness[k] = multiples / (h * h);
  }
  for (size_t k = 0; k < contacts.size(); ++k) {
    if (stiffness[k] <= 0) continue;
    const ObstacleContact& c = contacts[k];
    sys.W[c.node] += h * h * stiffness[k] * c.normal * c.normal.transpose();
    sys.rhs[c.node] += h * stiffness[k] * c.depth * c.normal;
  }
  for (size_t k = 0; k < contacts.size(); ++k)
    if (stiffness[k] > 0) sys.Winv[contacts[k].node] = sys.W[contacts[k].node].inverse();
}

bool contactPulls(const ObstacleContact& c, double h, const Vec3& dv) { return h * c.normal.dot(dv) > c.depth; }

}  // namespace adacloth
