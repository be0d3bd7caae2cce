#include "dynamics/obstacle_contact.h"

namespace adacloth {

// With K = stiffness m / h^2 along n and the end distance linearized as d + h n.dv, backward Euler adds
// h^2 K n n^T to W_i and h K depth n to the right-hand side h f_i.
void addObstacleContacts(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                         double stiffness) {
  if (stiffness <= 0 || sys.h <= 0) return;
  for (const ObstacleContact& c : contacts) {
    if (c.node < 0 || size_t(c.node) >= sys.W.size() || sys.fixed[c.node]) continue;
    const double mass = mesh.nodes[c.node].mass;
    if (mass <= 0) continue;
    const double k = stiffness * mass / (sys.h * sys.h);  // N/m
    sys.W[c.node] += sys.h * sys.h * k * c.normal * c.normal.transpose();
    sys.Winv[c.node] = sys.W[c.node].inverse();
    sys.rhs[c.node] += sys.h * k * c.depth * c.normal;
  }
}

}  // namespace adacloth
