#include "collision/predicted_contacts.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace adacloth {

namespace {

// Nodes predicted deeper than this many thicknesses are left to the contact pass.
constexpr double kReach = 3;
// Nodes within this many thicknesses of an obstacle that does not move, and not moving away from it, get a contact
// of depth 0 (held from coming closer for the step): the contact pass leaves cloth resting on an obstacle exactly a
// thickness off it, where no contact is predicted, and the solve then let the cloth those nodes carry push them in (a
// sheet dropped on its edge onto the floor crushed its bottom row and sprang back up). Not on moving obstacles: held
// for a step where the body under it moves, a garment pressed by its waistband ended crowd runs with intersecting
// pairs (docs/benchmarks.md, "Cloth over sharp obstacle edges").
constexpr double kRestingBand = 1.2;
// An edge's contact carries its point nearest the obstacle out to this fraction of the thickness, not the whole of it:
// an edge lying on a smooth obstacle sags into the thickness between its nodes by L^2 / 8R (0.6 mm for a 3.75 cm edge
// on conf/sheet_on_sphere.json's 0.3 m ball), and asking for the whole thickness there lifted such cloth off its
// contacts and their friction (the sheet slid off the ball 45 frames early). A quarter of the thickness is left for
// that sag: an edge gets a contact where it sags more (it crosses a sharp edge of the obstacle, or is long against
// the surface's curvature), and the CCD passes, which act within a twentieth of the thickness, are kept clear.
constexpr double kEdgeClearance = 0.75;
// Edge contacts missing less than this fraction of the thickness are not made.
constexpr double kSmallestMissing = 0.01;

// The contacts of edge (a, b) (none, or one per node), given the nodes' end positions and signed distances (infinity
// when no obstacle lies within kReach thicknesses).
std::array<ObstacleContact, 2> edgeContacts(const ObstacleField& field, int a, int b, const std::vector<Vec3>& end,
                                            const std::vector<double>& distance, double thickness) {
  std::array<ObstacleContact, 2> none{};
  const Vec3 ab = end[b] - end[a];
  const double length = ab.norm();
  if (length < 1e-12) return none;
  // The distance is 1-Lipschitz: no point of the edge is nearer than its nearer node less half its length, nor
  // nearer than its midpoint less half its length.
  const double clearance = kEdgeClearance * thickness;
  const double nearest = std::min(distance[a], distance[b]);
  if (nearest - 0.5 * length >= clearance) return none;
  const Vec3 mid = end[a] + 0.5 * ab;
  std::optional<ProximitySample> sample = field.nearest(mid, clearance + 0.5 * length);
  if (!sample) return none;
  // The edge's point nearest the surface point found from the midpoint. Where the midpoint lies outside the obstacle
  // by a convex edge or corner of it (an edge of the cloth across a table's edge), that is the cloth edge's point
  // nearest that feature; over a face, or inside, it is close to the midpoint and the midpoint's answer nearly holds.
  const Vec3 surface = mid - sample->distance * sample->gradient;
  const double s = std::clamp((surface - end[a]).dot(ab) / (length * length), 0.0, 1.0);
  auto depthOf = [&](int node) { return std::max(0.0, thickness - distance[node]); };
  // The point at s is no nearer than the midpoint less their distance apart: when even that would leave less than
  // the smallest contact missing (most edges of a garment lying on a body), the field need not be asked again.
  const double nearestAtS = sample->distance - std::abs(s - 0.5) * length;
  if ((clearance - nearestAtS) - (1 - s) * depthOf(a) - s * depthOf(b) < kSmallestMissing * thickness) return none;
  if (s != 0.5) sample = field.nearest(end[a] + s * ab, kReach * thickness);
  if (!sample || sample->distance >= clearance) return none;
  const double missing = (clearance - sample->distance) - (1 - s) * depthOf(a) - s * depthOf(b);
  if (missing < kSmallestMissing * thickness) return none;
  const double wa = 1 - s, wb = s, norm2 = wa * wa + wb * wb;
  std::array<ObstacleContact, 2> found{};
  if (wa > 0) found[0] = {a, sample->gradient, missing * wa / norm2};
  if (wb > 0) found[1] = {b, sample->gradient, missing * wb / norm2};
  return found;
}

}  // namespace

std::vector<ObstacleContact> predictObstacleContacts(const Mesh& mesh, const ObstacleField& field, double thickness,
                                                     double h, bool edges) {
  const int n = int(mesh.nodes.size()), m = int(mesh.edges.size());
  // Scratch kept from call to call (every step of every cloth): bound to references, as inside the parallel loops a
  // thread_local name would denote each worker's own copy.
  thread_local std::vector<Vec3> endStore;
  thread_local std::vector<double> distanceStore;
  thread_local std::vector<ObstacleContact> nodeFoundStore;
  thread_local std::vector<std::array<ObstacleContact, 2>> edgeFoundStore;
  std::vector<Vec3>& end = endStore;
  std::vector<double>& distance = distanceStore;
  std::vector<ObstacleContact>& nodeFound = nodeFoundStore;
  std::vector<std::array<ObstacleContact, 2>>& edgeFound = edgeFoundStore;
  end.resize(n);
  distance.assign(n, std::numeric_limits<double>::infinity());
  nodeFound.assign(n, ObstacleContact());
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const Node& node = mesh.nodes[i];
    end[i] = node.x + h * node.v;
    const Obstacle* obstacle = nullptr;
    const std::optional<ProximitySample> near = field.nearest(end[i], kReach * thickness, &obstacle);
    if (!near) continue;
    distance[i] = near->distance;
    if (near->distance < thickness)
      nodeFound[i] = {i, near->gradient, thickness - near->distance};
    else if (near->distance < kRestingBand * thickness && !obstacle->moves() && near->gradient.dot(node.v) <= 0)
      nodeFound[i] = {i, near->gradient, 0.0};
  }
  std::vector<ObstacleContact> contacts;
  for (const ObstacleContact& c : nodeFound)
    if (c.node >= 0) contacts.push_back(c);
  if (!edges) return contacts;
  edgeFound.assign(m, {});
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m; ++e)
    edgeFound[e] = edgeContacts(field, mesh.edges[e].nodes[0], mesh.edges[e].nodes[1], end, distance, thickness);
  for (const auto& pair : edgeFound)
    for (const ObstacleContact& c : pair)
      if (c.node >= 0) contacts.push_back(c);
  return contacts;
}

}  // namespace adacloth
