#pragma once
// Obstacle contacts inside the implicit step.
//
// Why: the contact pass after the step (collision/response.h) moves nodes out of obstacles, but the solve that
// came before it did not know they would be stopped. A sheet landing on a ball at 1.4 m/s moves 15 mm per 1/96 s
// step; the pass puts the nodes on the ball back by that much while their neighbours off the ball keep it all, so
// each edge at the rim stretches by 40 % in one step, and the next solves keep pulling nodes into the ball that the
// pass keeps pushing out (sheet_on_sphere ended with 10 J of elastic energy after a 1 J fall). Here every free node
// whose unconstrained end position lies within the contact distance of an obstacle gets a one-sided spring along
// the obstacle's normal for the step (as ARCSim adds its proximity constraints to the implicit solve), so the solve
// stops it, and its neighbours with it; the contact pass then only has what is left.
//
// The spring's stiffness is `stiffness` m_i / h^2: the solve then takes stiffness / (1 + stiffness) of the
// predicted depth out. It holds for one step only and acts along the normal only: a node that the solve moves
// away from the obstacle is slowed by the same spring for that one step.
#include <vector>

#include "dynamics/implicit_system.h"

namespace adacloth {

struct ObstacleContact {
  int node = -1;
  Vec3 normal = Vec3::UnitY();  // the obstacle's outward unit normal at the nearest surface point
  double depth = 0;             // m, how far the node's end position x + h v lies inside the contact distance along
                                // `normal` (0: a node resting at the contact distance, held from coming closer;
                                // negative: a node that may come that much closer, for contacts found after a solve
                                // that moved it in, step.h)
};

// Adds the contacts' springs to the step's system (diagonal blocks, their inverses and right-hand side). Held
// nodes are left alone. `stiffness` is dimensionless (see above).
void addObstacleContacts(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                         double stiffness);

}  // namespace adacloth
