#include "collision/held_yield.h"

#include <algorithm>
#include <vector>

#include "collision/bvh.h"
#include "collision/candidates.h"
#include "collision/impact_zones.h"
#include "collision/rigid_fit.h"

namespace adacloth {
namespace {

bool heldCloth(const CollisionMesh& w, const CollisionState& s, int n) {
  return w.nodeCloth[n] >= 0 && s.invMass[n] == 0;
}

// A primitive made of held cloth nodes only: a node (kind 0), an edge (1) or a face (2), index in w's lists.
struct HeldPrimitive {
  int kind = 0, index = 0;
  Aabb box;  // swept over the step, grown by half the tolerance
};

std::vector<HeldPrimitive> heldPrimitives(const CollisionMesh& w, const CollisionState& s, double tolerance) {
  std::vector<HeldPrimitive> out;
  auto add = [&](int kind, int index, std::initializer_list<int> nodes) {
    HeldPrimitive p{kind, index, Aabb()};
    for (int n : nodes) p.box.add(s.x0[n]), p.box.add(s.x1[n]);
    p.box.inflate(0.5 * tolerance);
    out.push_back(p);
  };
  const ClothCounts cloth = clothCounts(w);  // every step: the obstacles' elements are left out, not looked at
  for (int n = 0; n < cloth.nodes; ++n)
    if (heldCloth(w, s, n)) add(0, n, {n});
  for (int e = 0; e < cloth.edges; ++e) {
    const auto& ends = w.edges[e];
    if (heldCloth(w, s, ends[0]) && heldCloth(w, s, ends[1])) add(1, e, {ends[0], ends[1]});
  }
  for (int f = 0; f < cloth.faces; ++f) {
    const Tri& t = w.faces[f];
    if (heldCloth(w, s, t[0]) && heldCloth(w, s, t[1]) && heldCloth(w, s, t[2])) add(2, f, {t[0], t[1], t[2]});
  }
  return out;
}

// Vertex-face and edge-edge pairs of held primitives whose boxes overlap, sorted.
std::vector<Candidate> heldCandidates(const CollisionMesh& w, const std::vector<HeldPrimitive>& prims) {
  std::vector<Aabb> boxes;
  boxes.reserve(prims.size());
  for (const HeldPrimitive& p : prims) boxes.push_back(p.box);
  Bvh tree;
  tree.build(boxes);
  std::vector<Candidate> out;
  tree.selfOverlaps([&](int i, int j) {
    const HeldPrimitive *a = &prims[i], *b = &prims[j];
    if (a->kind > b->kind) std::swap(a, b);
    Candidate c;
    if (a->kind == 0 && b->kind == 2) c = {false, a->index, b->index};
    else if (a->kind == 1 && b->kind == 1) c = {true, std::min(a->index, b->index), std::max(a->index, b->index)};
    else return;
    if (!sharesNode(candidateNodes(w, c), c.edgeEdge)) out.push_back(c);
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

HeldYieldStats yieldHeldCrossings(const CollisionMesh& w, CollisionState& s, double tolerance, int maxPasses) {
  HeldYieldStats st;
  std::vector<Vec3> targets;  // where the handles put the nodes (kept once a group moves)
  // Made at the first pass that finds a pair: nearly every step finds none, and these are per node of the scene.
  Zones groups(0);
  std::vector<char> grouped;
  // A group moves as one rigid body, so a pair inside it cannot cross. CCD would still see its distance shrink by up
  // to the chord of the turn (it interpolates positions linearly), and a pair just outside the contact distance then
  // kept the passes going (skirt_walk at 1 cm, frame 70).
  auto insideOneGroup = [&](const std::array<int, 4>& nodes) {
    if (grouped.empty() || !grouped[nodes[0]]) return false;
    const int group = groups.find(nodes[0]);
    for (int k = 1; k < 4; ++k)
      if (!grouped[nodes[k]] || groups.find(nodes[k]) != group) return false;
    return true;
  };
  for (;;) {
    std::vector<std::array<int, 4>> touching;
    for (const Candidate& c : heldCandidates(w, heldPrimitives(w, s, tolerance))) {
      const auto nodes = candidateNodes(w, c);
      if (insideOneGroup(nodes)) continue;
      const MovingPoints m = movingPoints(s, nodes);
      if (candidateCCD(c, m, tolerance)) touching.push_back(nodes);
    }
    if (touching.empty() || st.passes == maxPasses) {
      st.left = int(touching.size());
      break;
    }
    ++st.passes;
    if (grouped.empty()) grouped.assign(w.nodeCount(), 0), groups = Zones(w.nodeCount());
    for (const auto& nodes : touching)
      for (int k = 0; k < 4; ++k) {
        grouped[nodes[k]] = 1;
        if (k > 0) groups.join(nodes[0], nodes[k]);
      }
    std::vector<std::vector<int>> members(w.nodeCount());
    for (int n = 0; n < int(w.nodeCount()); ++n)
      if (grouped[n]) members[groups.find(n)].push_back(n);
    if (targets.empty()) targets = s.x1;
    int count = 0;
    for (const std::vector<int>& group : members) {
      if (group.empty()) continue;
      ++count;
      const RigidMotion motion = bestRigidMotion(s, group);
      for (int n : group) {
        s.x1[n] = motion(s.x0[n]);
        s.v[n] = (s.x1[n] - s.x0[n]) / s.dt;
        st.largestShift = std::max(st.largestShift, (s.x1[n] - targets[n]).norm());
      }
    }
    st.groups = std::max(st.groups, count);
  }
  return st;
}

}  // namespace adacloth
