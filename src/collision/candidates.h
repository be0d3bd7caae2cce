#pragma once
// Primitive pairs of the collision mesh: vertex-face and edge-edge, the unit every narrow-phase test (proximity, CCD)
// and every response works on. Small and called once per pair in the hot loops, so defined here.
#include <algorithm>
#include <array>
#include <optional>
#include <tuple>
#include <vector>

#include "collision/ccd.h"
#include "collision/collision_mesh.h"

namespace adacloth {

// Candidate (a primitive pair) is defined with the collision mesh (collision_mesh.h).

// Sorts pairs into Candidate order (operator<), as std::sort would (pairs are distinct, so the order is unique), by a
// radix sort of their keys: the first CCD pass sorts the ten to twenty thousand pairs of a garment's seed every step,
// and comparison sorting them was 2 % of crowd's frame.
void sortCandidates(std::vector<Candidate>& pairs);

// The pair's four nodes in MovingPoints order: vertex-face {p, a, b, c}, edge-edge {p0, p1, q0, q1}.
inline std::array<int, 4> candidateNodes(const CollisionMesh& w, const Candidate& c) {
  if (c.edgeEdge) return {w.edges[c.a][0], w.edges[c.a][1], w.edges[c.b][0], w.edges[c.b][1]};
  const Tri& f = w.faces[c.b];
  return {c.a, f[0], f[1], f[2]};
}

inline MovingPoints movingPoints(const CollisionState& s, const std::array<int, 4>& nodes) {
  MovingPoints m;
  for (int i = 0; i < 4; ++i) {
    m.x0[i] = s.x0[nodes[i]];
    m.x1[i] = s.x1[nodes[i]];
  }
  return m;
}

// A pair and its contact (a proximity or a CCD one).
struct Hit {
  Candidate candidate;
  ContactGeometry g;
};

// The pairs of `cands` that `contactOf(pair)` (a std::optional<ContactGeometry>) finds in contact, in candidate order.
// The threads share the pairs and each lists what it finds; a pair is a candidate once, so the sorted result does not
// depend on them. Only the few pairs in contact take memory: a slot per candidate (80 bytes, some 17,500 candidates
// a step on crowd) was most of what the collision phase wrote and read.
template <class ContactOf>
std::vector<Hit> contactsInOrder(const std::vector<Candidate>& cands, ContactOf&& contactOf) {
  std::vector<Hit> hits;
#pragma omp parallel
  {
    std::vector<Hit> found;
#pragma omp for schedule(dynamic, 64) nowait
    for (long i = 0; i < long(cands.size()); ++i)
      if (const std::optional<ContactGeometry> g = contactOf(cands[i])) found.push_back({cands[i], *g});
#pragma omp critical
    hits.insert(hits.end(), found.begin(), found.end());
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.candidate < b.candidate; });
  return hits;
}

// The pair's CCD contact over the step at contact distance `tolerance` (m), if any (ccd.h).
inline std::optional<ContactGeometry> candidateCCD(const Candidate& c, const MovingPoints& m, double tolerance) {
  return c.edgeEdge ? edgeEdgeCCD(m, tolerance) : vertexFaceCCD(m, tolerance);
}

// Neighbours (a vertex of the face, edges with a common end) are not contacts.
inline bool sharesNode(const std::array<int, 4>& n, bool edgeEdge) {
  if (edgeEdge) return n[0] == n[2] || n[0] == n[3] || n[1] == n[2] || n[1] == n[3];
  return n[0] == n[1] || n[0] == n[2] || n[0] == n[3];
}

inline bool touchesFlagged(const std::array<int, 4>& nodes, const std::vector<char>& flags) {
  return flags[nodes[0]] || flags[nodes[1]] || flags[nodes[2]] || flags[nodes[3]];
}

}  // namespace adacloth
