#include "dynamics/obstacle_contact.h"

#include <algorithm>
#include <vector>

namespace adacloth {

namespace {

// K (N/m) of a spring along unit n at a free node of mass `mass` (kg) whose block before any contact is W.
double springStiffness(const ContactSprings& springs, const Mat3& W, double mass, const Vec3& n, double h) {
  double multiples = springs.massMultiple * mass;  // kg
  if (springs.clothMultiple > 0) multiples += springs.clothMultiple * std::max(0.0, n.dot(W * n) - mass);
  return multiples / (h * h);
}

// Calls f(node, weight) for each node whose position the contact's point takes.
template <class F>
void forEachEnd(const ObstacleContact& c, F&& f) {
  f(c.node, c.weight);
  if (c.holdsEdgePoint()) f(c.other, c.otherWeight);
}

}  // namespace

double normalChange(const ObstacleContact& c, const std::vector<Vec3>& dv) {
  double change = c.weight * c.normal.dot(dv[c.node]);
  if (c.holdsEdgePoint()) change += c.otherWeight * c.normal.dot(dv[c.other]);
  return change;
}

// With K along n and the end distance of the point p = sum w_i x_i linearized as d + h n.(sum w_i dv_i), backward
// Euler adds h^2 K w_i w_j n n^T to the blocks (i, j) and h K depth w_i n to the right-hand side h f_i: for a node's
// own contact (w = 1) h^2 K n n^T and h K depth n. The coupling (i, j) of an edge's point enters the pair's J, which
// the system multiplies by -c. Every spring's K is taken from the blocks as they were on entry, before any of the
// call's contacts: a node with several contacts (its own and its edges') gets the same K for each, in any order. An
// edge's point takes the weighted mean of its nodes' K over sum w_i^2, which gives the point the stiffness of a node
// spring when it sits at a node, and the pair together the stiffness of two node springs when it is midway.
void addObstacleContacts(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                         const ContactSprings& springs, std::vector<double>* stiffnessOut) {
  if (stiffnessOut) stiffnessOut->assign(contacts.size(), 0.0);
  if (sys.h <= 0 || !springs.enabled()) return;
  const double h = sys.h;
  const int n = int(sys.W.size());
  auto valid = [&](int i) { return i >= 0 && i < n && mesh.nodes[i].mass > 0; };
  thread_local std::vector<double> stiffnessStore;  // K of each contact (N/m); 0: none
  std::vector<double>& stiffness = stiffnessStore;
  stiffness.assign(contacts.size(), 0.0);
  for (size_t k = 0; k < contacts.size(); ++k) {
    const ObstacleContact& c = contacts[k];
    if (!valid(c.node)) continue;
    if (!c.holdsEdgePoint()) {
      if (!sys.fixed[c.node])
        stiffness[k] = springStiffness(springs, sys.W[c.node], mesh.nodes[c.node].mass, c.normal, h);
      continue;
    }
    const bool pairOk = valid(c.other) && c.edge >= 0 && size_t(c.edge) < sys.pairJ.size() &&
                        size_t(c.edge) < mesh.edges.size();
    if (!pairOk || (sys.fixed[c.node] && sys.fixed[c.other])) continue;
    const double norm2 = c.weight * c.weight + c.otherWeight * c.otherWeight;
    stiffness[k] = (c.weight * springStiffness(springs, sys.W[c.node], mesh.nodes[c.node].mass, c.normal, h) +
                    c.otherWeight * springStiffness(springs, sys.W[c.other], mesh.nodes[c.other].mass, c.normal, h)) /
                   norm2;
  }
  for (size_t k = 0; k < contacts.size(); ++k) {
    if (stiffness[k] <= 0) continue;
    const ObstacleContact& c = contacts[k];
    const Mat3 nn = c.normal * c.normal.transpose();
    forEachEnd(c, [&](int i, double w) {
      if (sys.fixed[i]) return;
      sys.W[i] += h * h * stiffness[k] * w * w * nn;
      sys.rhs[i] += h * stiffness[k] * c.depth * w * c.normal;
    });
    if (c.holdsEdgePoint() && sys.c > 0)
      sys.pairJ[c.edge] -= (h * h * stiffness[k] * c.weight * c.otherWeight / sys.c) * nn;
  }
  for (size_t k = 0; k < contacts.size(); ++k)
    if (stiffness[k] > 0)
      forEachEnd(contacts[k], [&](int i, double) {
        if (!sys.fixed[i]) sys.Winv[i] = sys.W[i].inverse();
      });
  if (stiffnessOut) *stiffnessOut = stiffness;
}

bool contactPulls(const ObstacleContact& c, double h, const std::vector<Vec3>& dv) {
  return h * normalChange(c, dv) > c.depth;
}

void applyContactFriction(const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                          const std::vector<double>& stiffness, const std::vector<Vec3>& load, double h,
                          double friction, std::vector<Vec3>& dv, const std::vector<char>& fixed) {
  const auto coefficient = [&](const ObstacleContact& c) { return c.frictionOr(friction); };
  const bool any = std::any_of(contacts.begin(), contacts.end(),
                               [&](const ObstacleContact& c) { return coefficient(c) > 0; });
  if (!any || h <= 0 || stiffness.size() != contacts.size() || load.size() != mesh.nodes.size()) return;
  thread_local std::vector<int> firstStore;
  std::vector<int>& first = firstStore;  // per node: index in `sums`, or -1
  first.assign(mesh.nodes.size(), -1);
  struct Sum {
    int node;
    Vec3 force, normal, velocity;  // N; stiffness-weighted sums of the normals and surface velocities
    double stiffness, friction;    // N/m; the stiffness-weighted sum of the contacts' coefficients
    double firstFriction;          // the coefficient of the node's first contact (1)
    bool mixed;                    // whether its contacts have different coefficients
  };
  thread_local std::vector<Sum> sumsStore;
  std::vector<Sum>& sums = sumsStore;  // per node with contacts, in order of its first contact
  sums.clear();
  for (size_t k = 0; k < contacts.size(); ++k) {
    const ObstacleContact& c = contacts[k];
    if (stiffness[k] <= 0) continue;
    const double gap = c.depth - h * normalChange(c, dv);  // m, how far the spring still pushes its point
    forEachEnd(c, [&](int i, double w) {
      if (!fixed.empty() && fixed[i]) return;  // a held node keeps its prescribed velocity
      if (first[i] < 0) {
        first[i] = int(sums.size());
        sums.push_back({i, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 0.0, 0.0, coefficient(c), false});
      }
      Sum& sum = sums[first[i]];
      const double share = stiffness[k] * w * w;  // the spring's stiffness as this node feels it
      sum.force += stiffness[k] * w * gap * c.normal;
      sum.normal += share * c.normal;
      sum.velocity += share * c.surfaceVelocity;
      sum.stiffness += share;
      sum.friction += share * coefficient(c);
      sum.mixed = sum.mixed || coefficient(c) != sum.firstFriction;
    });
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
    // One coefficient taken as it is: the weighted mean would round it.
    const double mu = sum.mixed ? sum.friction / sum.stiffness : sum.firstFriction;
    const double speed = tangential.norm(), reach = mu * impulse / node.mass;  // m/s
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
    if (stiffness[k] > 0)
      forEachEnd(contacts[k], [&](int i, double w) { normal[i] += stiffness[k] * w * w * contacts[k].normal; });
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
