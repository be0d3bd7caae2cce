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
// The spring's stiffness K (N/m) has two parts (`ContactSprings`): `massMultiple` m_i / h^2, which takes
// massMultiple / (1 + massMultiple) of the predicted depth out of a node that only its inertia holds, plus
// `clothMultiple` times the cloth's own stiffness at the node along the normal, n.(W_i - m_i) n / h^2 (W_i the
// node's block of the step's system before any contact), which takes about clothMultiple / (1 + clothMultiple) of
// it out against the cloth's pull. Why the second: the cloth's stiffness at a node grows as its edges shrink
// (h^2 k / m ~ 1 / edge^2), so a spring scaled by the mass alone lost to the tension of a refined, stretched sheet:
// pressed by a ball or pulled over a rod, nodes ended the solve a centimetre or more inside and the contact passes
// pushed them out pair by pair, tearing the sheet (docs/benchmarks.md, "Contact springs as stiff as the cloth").
// A spring holds for one step only and acts along the normal only. With ContactSprings::oneSided (the default), a
// contact that ends a checked step pulling its node towards the obstacle is let go and the step solved again
// (step.h); else a node that the solve moves away from the obstacle is held back by the spring for that one step.
#include <vector>

#include "dynamics/implicit_system.h"
#include "dynamics/params.h"

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
// nodes are left alone. The cloth's stiffness at each node is read from sys.W as it is on entry: add every contact of
// a step in one call, to a system without contacts.
void addObstacleContacts(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                         const ContactSprings& springs);

// True when contact c pulls its node towards the obstacle at the end of the step solved with velocity change dv
// (m/s): the node ended farther out than the spring's rest, so the obstacle would be holding it (step.h lets such
// contacts go).
bool contactPulls(const ObstacleContact& c, double h, const Vec3& dv);

}  // namespace adacloth
