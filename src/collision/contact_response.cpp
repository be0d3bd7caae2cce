#include "collision/contact_response.h"
#include "collision/obstacle_side.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "collision/material_distance.h"

namespace adacloth {
namespace {

bool involvesObstacle(const CollisionMesh& w, const std::array<int, 4>& nodes) {
  for (int n : nodes)
    if (w.nodeCloth[n] < 0) return true;
  return false;
}

// Against an obstacle the thickness is kept between cloth nodes and the obstacle's faces only (here and in the
// step's solve, dynamics/obstacle_contact.h). An obstacle's corner under a cloth face, or its edge across a cloth
// edge, would push the cloth along the face's or the edges' own normal, away from where the solve's node contacts
// hold it; step after step that fight pumped elastic energy into cloth resting on a ball (sheet_on_sphere: 2.1 J at
// the start, 14 J on the ball). Those features are still kept from crossing the cloth by the CCD passes.
bool keptApartByProximity(const CollisionMesh& w, const Candidate& c) {
  const std::array<int, 4> nodes = candidateNodes(w, c);
  return c.edgeEdge ? !involvesObstacle(w, nodes) : w.nodeCloth[nodes[0]] >= 0;
}

// True for a pair of places of one cloth at least the fold chord of their material distance apart
// (material_distance.h): neighbours of a cloth finer than the thickness, or the two sides of a fold as close as its
// thickness lets them be, not layers. They are no contact: pushed nowhere (proximityTarget), they had their
// approach along the pair's normal stopped, and that normal lies in the cloth's plane for a node and a face of its
// own neighbourhood, so a cloth with edges shorter than the thickness was held from compressing in its plane, at a
// cost that grew with (thickness / edge)^2 pairs per node: a free-falling 1 m sheet of 5 mm cells held 200,000 such
// pairs a step (docs/collisions.md, "Cloth finer than the thickness").
bool noCloserThanFoldChord(const CollisionMesh& w, const Candidate& c, const ContactGeometry& g) {
  return g.distance >= kFoldChord * materialDistance(w, c);
}

}  // namespace

double proximityTarget(const CollisionMesh& w, const Candidate& c, const ContactGeometry& g, double thickness) {
  if (g.distance >= thickness) return thickness;
  const double foldChord = kFoldChord * materialDistance(w, c);
  if (g.distance >= foldChord) return g.distance;
  // Two places of one cloth pushed farther apart than their fold chord stretch the cloth between them. Gathered cloth
  // finer than the thickness was pushed to the thickness, pair after pair: a 1 cm adaptive sheet swept by a ball
  // stayed caught on it, edges at 10x, in 3 of 9 runs; and pushed to 0.9 of their material distance, the flanks of
  // folds tighter than about 1.4 thicknesses stretched the cloth across them (material_distance.h).
  return std::min(thickness, foldChord);
}

bool separate(CollisionState& s, const std::array<int, 4>& nodes, const ContactGeometry& g, double target, double mu) {
  double denom = 0, s1 = 0, vn = 0;
  Vec3 vrel = Vec3::Zero();
  // A node resting on a ground takes no share of a correction that would move it into the ground; the other side
  // takes it all. Split by inverse mass, a sheet lying on a sheet on the floor pushed the lower one into the floor,
  // the ground lift put it back, and the upper sank into the thickness step after step (3 mm of 5), where the
  // pairs' normals tilt and held it from sliding: frictionless on a 20 degree slope it slid 0.42 m in 1 s, not 1.68.
  std::array<double, 4> invMass;
  for (int i = 0; i < 4; ++i) {
    invMass[i] = s.invMass[nodes[i]];
    if (invMass[i] > 0 && size_t(nodes[i]) < s.support.size() && g.weights[i] * g.normal.dot(s.support[nodes[i]]) < 0)
      invMass[i] = 0;
  }
  for (int i = 0; i < 4; ++i) {
    denom += g.weights[i] * g.weights[i] * invMass[i];
    s1 += g.weights[i] * g.normal.dot(s.x1[nodes[i]]);
    vrel += g.weights[i] * s.v[nodes[i]];
  }
  vn = g.normal.dot(vrel);
  const double ds = target - s1, dvn = std::max(0.0, -vn);
  if (denom <= 0 || (ds <= 0 && dvn == 0)) return false;
  const double push = std::max(ds, 0.0);
  const Vec3 vt = vrel - vn * g.normal;
  const double vtNorm = vt.norm();
  // The normal "impulse" includes the position push as a velocity over the step, as position-based contact does.
  const double dvt = std::min(vtNorm, mu * (dvn + push / s.dt));
  const Vec3 tangentDir = vtNorm > 0 ? Vec3(-vt / vtNorm) : Vec3::Zero();
  for (int i = 0; i < 4; ++i) {
    // A node may move at most as far as the contact point has to: when the only movable node of a pair carries a
    // small weight (a free corner far from the contact, the others held or on an obstacle), the exact projection
    // would move it push / weight, metres for a millimetre. Capped, the pair is left partly unresolved for the
    // next passes and, last, the impact zones.
    const double share = std::clamp(g.weights[i] * invMass[i] / denom, -1.0, 1.0);
    if (share == 0) continue;
    s.x1[nodes[i]] += share * push * g.normal;
    s.v[nodes[i]] += share * (dvn * g.normal + dvt * tangentDir);
  }
  return true;
}

bool onHeldFeatures(const CollisionState& s, const std::array<int, 4>& nodes, const ContactGeometry& g) {
  // The weights' absolute values sum to 2 (1 per side), so 0.1 is 5 % of the contact.
  constexpr double kMovableShare = 0.1;
  double movable = 0;
  for (int i = 0; i < 4; ++i)
    if (s.invMass[nodes[i]] > 0) movable += std::abs(g.weights[i]);
  return movable < kMovableShare;
}

double frictionOf(const CollisionMesh& w, const std::array<int, 4>& nodes, const CollisionParams& p) {
  return involvesObstacle(w, nodes) ? p.obstacleFriction : p.selfFriction;
}

void countContact(const CollisionMesh& w, const std::array<int, 4>& nodes, std::vector<int>& contacts) {
  int counted = -1;  // a pair inside one cloth counts once for it
  for (int n : nodes) {
    int c = w.nodeCloth[n];
    if (c >= 0 && c != counted) {
      ++contacts[c];
      if (counted < 0) counted = c; else break;
    }
  }
}

void proximityPass(const CollisionMesh& w, CollisionState& s, const std::vector<Candidate>& cands,
                   const CollisionParams& p, CollisionStepStats& st) {
  const std::vector<Hit> close =
      contactsInOrder(cands, [&](const Candidate& c) -> std::optional<ContactGeometry> {
        if (!keptApartByProximity(w, c)) return std::nullopt;
        // Against an obstacle, the side is the obstacle's own (obstacle_side.h), not the side at the step's start.
        if (isObstaclePair(w, c)) return obstacleSideContact(w, s, c, p.thickness);
        const MovingPoints m = movingPoints(s, candidateNodes(w, c));
        std::optional<ContactGeometry> g =
            c.edgeEdge ? edgeEdgeProximity(m, p.thickness) : vertexFaceProximity(m, p.thickness);
        if (g && noCloserThanFoldChord(w, c, *g)) return std::nullopt;
        return g;
      });
  // The responses are applied one pair after the other, so their order matters: candidate order (vertex-face pairs
  // first, by node).
  for (const Hit& h : close) {
    auto nodes = candidateNodes(w, h.candidate);
    countContact(w, nodes, st.contacts);
    separate(s, nodes, h.g, proximityTarget(w, h.candidate, h.g, p.thickness), frictionOf(w, nodes, p));
  }
}

}  // namespace adacloth
