#pragma once
// Which obstacle contacts the next implicit step should know about (dynamics/obstacle_contact.h): springs for the
// cloth nodes, and for the cloth edges, predicted to end the step within the contact thickness of an obstacle.
//
// Why edges too: a node contact keeps each node a thickness off the obstacle, but the straight edge between two nodes
// on either side of a sharp obstacle edge (a table's or a box's) cuts the corner. The solve, knowing only the nodes,
// pulled such edges through the corner every step; the contact pass then pushed them out again by moving their nodes
// apart, a little more each step, and a sheet draped over a box ended with its small faces near the box's edges at
// 2-3x their rest size and 4x the energy it started with, at rest (docs/benchmarks.md, "Cloth over sharp obstacle
// edges"). An edge's contact asks the solve for what its nodes' own contacts leave missing at the point of the edge
// nearest the obstacle; on a flat face, or a smooth one, nothing is missing and no edge contact is made.
#include <vector>

#include "collision/obstacle_field.h"
#include "dynamics/obstacle_contact.h"
#include "mesh/mesh.h"

namespace adacloth {

// The distances predictObstacleContacts measured at the unconstrained end positions x + h v, kept to check the solved
// step against (missedObstacleContacts): per node (m; three thicknesses where nothing is that near), and per edge
// that of its point nearest the obstacle as found (a lower bound where the edge was ruled out early). Empty: not
// measured.
struct FreeEndDistances {
  std::vector<double> node, edge;
};

// The contacts of a cloth's next step of length h (s) against the obstacles at the end of that step (`field`), from
// the unconstrained end positions x + h v:
// - every node within `thickness` (m) of an obstacle: depth = thickness - distance, along the distance's gradient.
//   Nodes predicted more than three thicknesses inside are left to the contact pass (the nearest surface of a thin
//   obstacle may then be the far one);
// - every node within 1.2 thicknesses of an obstacle that does not move (Obstacle::moves) and whose velocity does not
//   take it away (h n . v at most 1 % of the thickness): depth 0, a spring that holds cloth resting there from coming
//   closer for the step;
// - with `edges`, every mesh edge whose point p nearest the obstacle (weights 1 - s and s on its nodes, 0 < s < 1;
//   found from the midpoint's nearest surface point, then by projecting back and forth) lies closer than 0.75
//   thickness by more than its nodes' contacts make up for, i.e. by
//       missing = (0.75 thickness - distance(p)) - (1 - s) depth_a - s depth_b   (node depths 0 where not in contact),
//   adds one contact of that point (ObstacleContact::holdsEdgePoint) along the gradient at p, of depth `missing`. The
//   quarter of the thickness left is for the sag of an edge lying on a smooth obstacle between its nodes' contacts,
//   which needs no contact of its own (predicted_contacts.cpp). Where p is a node, that node's own contact holds it.
// Node contacts come first, in node order, then edge contacts in edge order: the same list at any thread count.
// With `measured`, the distances it measured are kept there (FreeEndDistances).
std::vector<ObstacleContact> predictObstacleContacts(const Mesh& mesh, const ObstacleField& field, double thickness,
                                                     double h, bool edges = true,
                                                     FreeEndDistances* measured = nullptr);

// The contacts that a step solved with `known` missed (stepCloth's check, dynamics/step.h), from the nodes' solved
// end positions `solvedEnd` (the mesh holds the step's start, h its length): every node without an obstacle contact in
// `known` (a contact with a layer of cloth, ObstacleContact::withCloth, does not count)
// that ends a quarter of the thickness or more inside it (depth thickness - distance), and every edge whose point
// nearest the obstacle ends a quarter of the thickness or more short of 0.75 thickness beyond what this call's node
// contacts make up for (one contact of that point, as above). A node is looked for as deep as the solve moved it (three
// thicknesses plus its move); one found deeper than three thicknesses gets a contact only when its start position (the
// mesh's) lies on the outer side of the tangent plane at its nearest surface point: it came in through that surface,
// not through the far side of a thin obstacle. Each contact is measured at the solved end and handed to the
// solve from the unconstrained end x + h v along the same normal, so its depth may be negative: the solve, not the
// node's own motion, moved the node in. `measured` (from predictObstacleContacts for this step, or empty) spares
// the field the nodes and edges that cannot have come within reach: the solve moved them less than they were away.
// Why: docs/benchmarks.md, "A solid obstacle's side". Node contacts first, in node order, then edge contacts.
std::vector<ObstacleContact> missedObstacleContacts(const Mesh& mesh, double h, const std::vector<Vec3>& solvedEnd,
                                                   const std::vector<ObstacleContact>& known,
                                                   const FreeEndDistances& measured, const ObstacleField& field,
                                                   double thickness);

}  // namespace adacloth
