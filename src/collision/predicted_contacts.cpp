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
// A node "moves away" from the obstacle (no resting contact) when its velocity carries it off by more than this
// fraction of the thickness in the step. Not at any positive normal speed: cloth sliding on a face, its normal
// velocity cancelled by the contact pass, is left with a normal speed of rounding size and either sign (the face's
// normal is off by ~1e-13), and half of a sheet resting on a box lost its contacts, and their friction, every step.
constexpr double kAwayShare = 0.01;
// On a moving obstacle the band is this thin: nodes the contact pass left at the thickness (and there by rounding,
// either side of it), and not moving away from the surface, get their resting contact, and its friction; a belt
// under a sheet got contacts for half of its nodes at a time and carried it with half the friction it has.
constexpr double kMovingBand = 1 + kAwayShare;
// An edge's contact carries its point nearest the obstacle out to this fraction of the thickness, not the whole of it:
// an edge lying on a smooth obstacle sags into the thickness between its nodes by L^2 / 8R (0.6 mm for a 3.75 cm edge
// on conf/sheet_on_sphere.json's 0.3 m ball), and asking for the whole thickness there lifted such cloth off its
// contacts and their friction (the sheet slid off the ball 45 frames early). A quarter of the thickness is left for
// that sag: an edge gets a contact where it sags more (it crosses a sharp edge of the obstacle, or is long against
// the surface's curvature), and the CCD passes, which act within a twentieth of the thickness, are kept clear.
constexpr double kEdgeClearance = 0.75;
// Edge contacts missing less than this fraction of the thickness are not made.
constexpr double kSmallestMissing = 0.01;
// Steps of the search for an edge's point nearest the obstacle beyond the first (edgeContact).
constexpr int kEdgeRefinements = 3;
// A solved step misses a contact where a node or an edge's nearest point without one ends this fraction of the
// thickness or more short of its clearance (missedObstacleContacts): less is left to the contact pass. Measured on
// a box and a ball swept through a curtain (docs/benchmarks.md, "A solid obstacle's side"): at half the thickness
// the cotton curtain's edge p99 still reached 2.2; at a quarter every curtain's stays under 1.3.
constexpr double kMissedShare = 0.25;

// The contact of edge e = (a, b)'s point nearest the obstacle (node -1: none), given the nodes' end positions, their
// signed distances
// (infinity when no obstacle lies within kReach thicknesses, or lower bounds of them) and the depths of the node
// contacts that will move them (0 for none). `edgeDistance` gets the distance (m) of the edge's point nearest the
// obstacle as far as the call measured it: a lower bound where the edge was ruled out before the field was asked
// at that point.
ObstacleContact edgeContact(const ObstacleField& field, int e, int a, int b, const std::vector<Vec3>& end,
                            const std::vector<double>& distance, const std::vector<double>& nodeDepth,
                            double thickness, double& edgeDistance) {
  const ObstacleContact none;
  const Vec3 ab = end[b] - end[a];
  const double length = ab.norm();
  // The distance is 1-Lipschitz: no point of the edge is nearer than its nearer node less half its length, nor
  // nearer than its midpoint less half its length.
  const double clearance = kEdgeClearance * thickness;
  const double nearest = std::min(distance[a], distance[b]);
  edgeDistance = nearest - 0.5 * length;
  if (length < 1e-12 || edgeDistance >= clearance) return none;
  const Vec3 mid = end[a] + 0.5 * ab;
  std::optional<ProximitySample> sample = field.nearest(mid, clearance + 0.5 * length);
  if (!sample) {
    edgeDistance = std::max(edgeDistance, clearance);
    return none;
  }
  // The edge's point nearest the surface point found from the midpoint. Where the midpoint lies outside the obstacle
  // by a convex edge or corner of it (an edge of the cloth across a table's edge), that is the cloth edge's point
  // nearest that feature; over a face, or inside, it is close to the midpoint and the midpoint's answer nearly holds.
  const Vec3 surface = mid - sample->distance * sample->gradient;
  const double sFromMid = std::clamp((surface - end[a]).dot(ab) / (length * length), 0.0, 1.0);
  // The point at s is no nearer than the midpoint less their distance apart: when even that would leave less than
  // the smallest contact missing (most edges of a garment lying on a body), the field need not be asked again.
  const double nearestAtS = sample->distance - std::abs(sFromMid - 0.5) * length;
  edgeDistance = nearestAtS;
  if ((clearance - nearestAtS) - (1 - sFromMid) * nodeDepth[a] - sFromMid * nodeDepth[b] <
      kSmallestMissing * thickness)
    return none;
  double s = sFromMid;
  if (s != 0.5) sample = field.nearest(end[a] + s * ab, kReach * thickness);
  // The point at s is nearest the surface point found from the midpoint, not always nearest the obstacle: over a
  // face near a convex edge of it (an edge of the cloth leaving a bar's top down its side), the nearest point lies
  // further along, by the edge. Projecting back and forth moves s there; a contact held at the wrong point let the
  // edge turn about it into the obstacle's edge every step, and the CCD passes stopped the cloth sliding over it.
  for (int refine = 0; refine < kEdgeRefinements && sample; ++refine) {
    const Vec3 at = end[a] + s * ab, onSurface = at - sample->distance * sample->gradient;
    const double next = std::clamp((onSurface - end[a]).dot(ab) / (length * length), 0.0, 1.0);
    if (std::abs(next - s) * length < kSmallestMissing * thickness) break;
    std::optional<ProximitySample> there = field.nearest(end[a] + next * ab, kReach * thickness);
    if (!there || there->distance >= sample->distance) break;
    s = next, sample = there;
  }
  edgeDistance = sample ? sample->distance : kReach * thickness;
  // Nearest at a node: that node's own contact holds it (a node within the clearance is within the thickness).
  if (!sample || sample->distance >= clearance || s <= 0 || s >= 1) return none;
  const double missing = (clearance - sample->distance) - (1 - s) * nodeDepth[a] - s * nodeDepth[b];
  if (missing < kSmallestMissing * thickness) return none;
  ObstacleContact found{a, sample->gradient, missing, sample->velocity};
  found.other = b, found.edge = e, found.weight = 1 - s, found.otherWeight = s;
  return found;
}

// True when `start` (a node's position at the start of the step) lies on the outer side of the tangent plane at the
// surface point nearest `solvedEnd` (found as `near`): the node entered the obstacle through that surface. A node
// solved deep into a thin obstacle may lie nearer its far side, and a contact there would carry it through.
bool enteredThrough(const ProximitySample& near, const Vec3& solvedEnd, const Vec3& start) {
  const Vec3 surface = solvedEnd - near.distance * near.gradient;
  return near.gradient.dot(start - surface) > 0;
}

}  // namespace

std::vector<ObstacleContact> predictObstacleContacts(const Mesh& mesh, const ObstacleField& field, double thickness,
                                                     double h, bool edges, FreeEndDistances* measured) {
  const int n = int(mesh.nodes.size()), m = int(mesh.edges.size());
  // Scratch kept from call to call (every step of every cloth): bound to references, as inside the parallel loops a
  // thread_local name would denote each worker's own copy.
  thread_local std::vector<Vec3> endStore;
  thread_local std::vector<double> distanceStore, nodeDepthStore;
  thread_local std::vector<ObstacleContact> nodeFoundStore;
  thread_local std::vector<ObstacleContact> edgeFoundStore;
  std::vector<Vec3>& end = endStore;
  std::vector<double>& distance = distanceStore;
  std::vector<double>& nodeDepth = nodeDepthStore;
  std::vector<ObstacleContact>& nodeFound = nodeFoundStore;
  std::vector<ObstacleContact>& edgeFound = edgeFoundStore;
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
      nodeFound[i] = {i, near->gradient, thickness - near->distance, near->velocity};
    else if (near->distance < (obstacle->moves() ? kMovingBand : kRestingBand) * thickness &&
             h * near->gradient.dot(node.v - near->velocity) <= kAwayShare * thickness)
      nodeFound[i] = {i, near->gradient, 0.0, near->velocity};
  }
  std::vector<ObstacleContact> contacts;
  for (const ObstacleContact& c : nodeFound)
    if (c.node >= 0) contacts.push_back(c);
  if (measured) {
    // Not found within reach: at least that far outside, or that deep inside (left to the contact pass, as here).
    measured->node = distance;
    for (double& d : measured->node) d = std::min(d, kReach * thickness);
  }
  if (!edges) return contacts;
  nodeDepth.resize(n);
  for (int i = 0; i < n; ++i) nodeDepth[i] = nodeFound[i].node >= 0 ? nodeFound[i].depth : 0.0;
  edgeFound.assign(m, ObstacleContact());
  if (measured) measured->edge.assign(m, 0.0);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m; ++e) {
    double edgeDistance = 0;
    edgeFound[e] = edgeContact(field, e, mesh.edges[e].nodes[0], mesh.edges[e].nodes[1], end, distance, nodeDepth,
                               thickness, edgeDistance);
    if (measured) measured->edge[e] = edgeDistance;
  }
  for (const ObstacleContact& c : edgeFound)
    if (c.node >= 0) contacts.push_back(c);
  return contacts;
}

std::vector<ObstacleContact> missedObstacleContacts(const Mesh& mesh, double h, const std::vector<Vec3>& solvedEnd,
                                                   const std::vector<ObstacleContact>& known,
                                                   const FreeEndDistances& measured, const ObstacleField& field,
                                                   double thickness) {
  const int n = int(mesh.nodes.size()), m = int(mesh.edges.size());
  const bool haveNodes = int(measured.node.size()) == n, haveEdges = int(measured.edge.size()) == m;
  std::vector<char> hasContact(n, 0);
  for (const ObstacleContact& c : known) {
    // A node held off a layer of cloth may still be pulled into the obstacle by the solve.
    if (c.withCloth) continue;
    if (c.node >= 0 && c.node < n) hasContact[c.node] = 1;
    if (c.holdsEdgePoint() && c.other < n) hasContact[c.other] = 1;
  }
  // How far the solve moved each node from its unconstrained end. The distance is 1-Lipschitz: a node or an edge is
  // no nearer at its solved end than at its free end less that (less the larger of its nodes' for an edge), so most
  // need not be asked again: those the prediction found far, and those the solve moved little.
  std::vector<double> moved(n);
  for (int i = 0; i < n; ++i) moved[i] = (solvedEnd[i] - (mesh.nodes[i].x + h * mesh.nodes[i].v)).norm();
  // A contact found at the solved end asks its point to move `missing` from there; the spring measures its depth
  // from the unconstrained end x + h v, along the same normal.
  auto solveMoved = [&](int i) { return solvedEnd[i] - (mesh.nodes[i].x + h * mesh.nodes[i].v); };
  auto fromFreeEnd = [&](ObstacleContact c) {
    c.depth += c.weight * c.normal.dot(solveMoved(c.node));
    if (c.holdsEdgePoint()) c.depth += c.otherWeight * c.normal.dot(solveMoved(c.other));
    return c;
  };
  const double nodeReach = (1 - kMissedShare) * thickness;
  const double edgeReach = (kEdgeClearance - kMissedShare) * thickness;
  std::vector<double> distance(n), nodeDepth(n, 0.0);
  std::vector<ObstacleContact> nodeFound(n);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const double bound = haveNodes ? measured.node[i] - moved[i] : -std::numeric_limits<double>::infinity();
    distance[i] = bound;
    if (hasContact[i] || bound > nodeReach) continue;
    // As deep as the solve may have moved the node: a stretched sheet that a ball pressing it lets go of springs back
    // into the ball by several centimetres in one step, far deeper than any prediction reaches.
    const std::optional<ProximitySample> near = field.nearest(solvedEnd[i], kReach * thickness + moved[i]);
    const bool usable =
        near && (near->distance >= -kReach * thickness || enteredThrough(*near, solvedEnd[i], mesh.nodes[i].x));
    distance[i] = usable ? near->distance : kReach * thickness;
    if (usable && near->distance <= nodeReach) {
      nodeDepth[i] = thickness - near->distance;
      nodeFound[i] = fromFreeEnd({i, near->gradient, nodeDepth[i], near->velocity});
    }
  }
  std::vector<ObstacleContact> edgeFound(m);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < m; ++e) {
    const int a = mesh.edges[e].nodes[0], b = mesh.edges[e].nodes[1];
    if (haveEdges && measured.edge[e] - std::max(moved[a], moved[b]) > edgeReach) continue;
    double edgeDistance = 0;
    const ObstacleContact c = edgeContact(field, e, a, b, solvedEnd, distance, nodeDepth, thickness, edgeDistance);
    if (c.node < 0 || c.depth < kMissedShare * thickness) continue;
    // An edge no nearer the obstacle than one of its nodes that has a contact (the edge from a node the solve left
    // inside, through the surface) is that contact's to carry out.
    auto nearerNode = [&](int i) {
      if (!hasContact[i]) return false;
      const std::optional<ProximitySample> near = field.nearest(solvedEnd[i], kReach * thickness + moved[i]);
      return near && near->distance <= edgeDistance;
    };
    if (!nearerNode(a) && !nearerNode(b)) edgeFound[e] = fromFreeEnd(c);
  }
  std::vector<ObstacleContact> missed;
  for (const ObstacleContact& c : nodeFound)
    if (c.node >= 0) missed.push_back(c);
  for (const ObstacleContact& c : edgeFound)
    if (c.node >= 0) missed.push_back(c);
  return missed;
}

}  // namespace adacloth
