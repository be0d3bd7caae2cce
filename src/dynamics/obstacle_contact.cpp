#include "dynamics/obstacle_contact.h"

#include <algorithm>
#include <vector>

namespace adacloth {

// With K along n and the end distance linearized as d + h n.dv, backward Euler adds h^2 K n n^T to W_i and
// h K depth n to the right-hand side h f_i. Every spring's K is taken from the blocks as they were on entry, before
// any of the call's contacts: a node with several contacts (its own and its edges') gets the same K for each, in any
// order.
void addObstacleContacts(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                         const ContactSprings& springs, std::vector<double>* stiffnessOut) {
  if (stiffnessOut) stiffnessOut->assign(contacts.size(), 0.0);
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
  if (stiffnessOut) *stiffnessOut = stiffness;
}

bool contactPulls(const ObstacleContact& c, double h, const Vec3& dv) { return h * c.normal.dot(dv) > c.depth; }

void applyContactFriction(const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                          const std::vector<double>& stiffness, const std::vector<Vec3>& load, double h,
                          double friction, std::vector<Vec3>& dv) {
  if (!(friction > 0) || h <= 0 || stiffness.size() != contacts.size() || load.size() != mesh.nodes.size()) return;
  thread_local std::vector<int> firstStore;
  std::vector<int>& first = firstStore;  // per node: index in `sums`, or -1
  first.assign(mesh.nodes.size(), -1);
  struct Sum {
    int node;
    Vec3 force, normal, velocity;  // N; stiffness-weighted sums of the normals and surface velocities
    double stiffness;
  };
  thread_local std::vector<Sum> sumsStore;
  std::vector<Sum>& sums = sumsStore;  // per node with contacts, in order of its first contact
  sums.clear();
  for (size_t k = 0; k < contacts.size(); ++k) {
    const ObstacleContact& c = contacts[k];
    if (stiffness[k] <= 0) continue;
    if (first[c.node] < 0)
      first[c.node] = int(sums.size()), sums.push_back({c.node, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 0.0});
    Sum& sum = sums[first[c.node]];
    sum.force += stiffness[k] * (c.depth - h * c.normal.dot(dv[c.node])) * c.normal;
    sum.normal += stiffness[k] * c.normal;
    sum.velocity += stiffness[k] * c.surfaceVelocity;
    sum.stiffness += stiffness[k];
  }
  for (const Sum& sum : sums) {
    const Node& node = mesh.nodes[sum.node];
    const Vec3 normal = sum.normal.normalized(), surface = sum.velocity / sum.stiffness;
    if (!normal.allFinite()) continue;
    // What presses the node on the obstacle (obstacle_contact.h): its approach, stopped, and the external load on it
    // along the normal, no more than the springs' net push.
    const double pressing = std::max(0.0, -node.mass * normal.dot(node.v - surface) - normal.dot(load[sum.node]));
    const double impulse = std::min(pressing, h * std::max(0.0, sum.force.dot(normal)));  // N s
    const Vec3 relative = node.v + dv[sum.node] - surface;
    const Vec3 tangential = relative - normal.dot(relative) * normal;
    const double speed = tangential.norm(), reach = friction * impulse / node.mass;  // m/s
    if (speed > 0) dv[sum.node] -= std::min(1.0, reach / speed) * tangential;
  }
}

bool frictionDistorts(const Mesh& mesh, double h, const std::vector<Vec3>& dv, const std::vector<Vec3>& target,
                      double share) {
  for (const Edge& e : mesh.edges) {
    const int a = e.nodes[0], b = e.nodes[1];
    if (dv[a] == target[a] && dv[b] == target[b]) continue;
    const Vec3 start = mesh.nodes[b].x - mesh.nodes[a].x;
    const Vec3 solved = start + h * (mesh.nodes[b].v + dv[b] - mesh.nodes[a].v - dv[a]);
    const Vec3 moved = start + h * (mesh.nodes[b].v + target[b] - mesh.nodes[a].v - target[a]);
    const double length = solved.norm();
    if (std::abs(moved.norm() - length) > share * length) return true;
  }
  return false;
}

void addFrictionTargets(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                        const std::vector<double>& stiffness, const ContactSprings& springs,
                        const std::vector<Vec3>& dv, const std::vector<Vec3>& target) {
  const double h = sys.h;
  if (h <= 0 || stiffness.size() != contacts.size()) return;
  std::vector<Vec3> normal(mesh.nodes.size(), Vec3::Zero());
  for (size_t k = 0; k < contacts.size(); ++k)
    if (stiffness[k] > 0) normal[contacts[k].node] += stiffness[k] * contacts[k].normal;
  for (size_t i = 0; i < mesh.nodes.size(); ++i) {
    if (normal[i] == Vec3::Zero() || target[i] == dv[i] || sys.fixed[i]) continue;
    const Vec3 n = normal[i].normalized();
    if (!n.allFinite()) continue;
    const Mat3 plane = Mat3::Identity() - n * n.transpose();
    const double mass = mesh.nodes[i].mass;
    const double cloth = std::max(0.0, 0.5 * (sys.W[i].trace() - n.dot(sys.W[i] * n)) - mass);
    const double springKg = springs.massMultiple * mass + springs.clothMultiple * cloth;  // h^2 K (kg)
    sys.W[i] += springKg * plane;
    sys.rhs[i] += springKg * (plane * target[i]);
    sys.Winv[i] = sys.W[i].inverse();
  }
}

}  // namespace adacloth
