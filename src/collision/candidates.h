#pragma once
// Primitive pairs of the collision mesh: vertex-face and edge-edge, the unit every narrow-phase test (proximity, CCD)
// and every response works on. Small and called once per pair in the hot loops, so defined here.
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
