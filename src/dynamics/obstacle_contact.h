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
  Vec3 surfaceVelocity = Vec3::Zero();  // m/s, the obstacle's surface at the contact: friction acts relative to it
  // A contact of a point inside cloth edge `edge` (its dynamics pair has the same index, dynamics_state.h): the point
  // weight x_node + otherWeight x_other (weights > 0, summing to 1) is held, and `depth` is that point's. -1: a
  // contact of the node alone (weight 1).
  int other = -1;
  int edge = -1;
  double weight = 1, otherWeight = 0;
  // Coulomb coefficient of this contact (1); negative: the step's (ContactSprings::friction). Contacts with another
  // cloth (collision/cloth_contacts.h) take the cloth-cloth coefficient.
  double friction = -1;
  // A contact with a layer of cloth (collision/cloth_contacts.h), not with an obstacle: its node may still meet an
  // obstacle that the step's check must look for (predicted_contacts.h, missedObstacleContacts).
  bool withCloth = false;

  bool holdsEdgePoint() const { return other >= 0; }
  // The Coulomb coefficient that acts: this contact's own, or the step's when it has none.
  double frictionOr(double stepFriction) const { return friction >= 0 ? friction : stepFriction; }
};

// The contact point's velocity change along the normal (m/s) for the nodes' velocity changes dv.
double normalChange(const ObstacleContact& c, const std::vector<Vec3>& dv);

// Adds the contacts' springs to the step's system (diagonal blocks, their inverses and right-hand side). Held
// nodes are left alone. The cloth's stiffness at each node is read from sys.W as it is on entry: add every contact of
// a step in one call, to a system without contacts.
// A contact of an edge's point is one spring on that point, K (w_a x_a + w_b x_b): it adds to both nodes' blocks and
// to their pair's coupling (sys.pairJ[edge]). Why not a spring on each node along the same normal (as until
// 2026-11-30): a node's spring holds the node, not the point, so a cloth edge could not slide over the obstacle's
// edge. A towel hung over a bar, a fifth on one side, hung there without friction; a point spring lets the edge
// turn about the point as long as the point stays out (docs/collisions.md).
// With `stiffness`, each contact's spring stiffness K (N/m; 0 for a contact that got no spring) in contact order.
void addObstacleContacts(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                         const ContactSprings& springs, std::vector<double>* stiffness = nullptr);

// True when contact c pulls its node towards the obstacle at the end of the step solved with velocity change dv
// (m/s): the node ended farther out than the spring's rest, so the obstacle would be holding it (step.h lets such
// contacts go).
bool contactPulls(const ObstacleContact& c, double h, const std::vector<Vec3>& dv);

// Coulomb friction of the contacts of a step solved with velocity change dv (m/s), applied to dv. A node's springs
// (stiffness[k], N/m, as addObstacleContacts gave them) act as one, along their stiffness-weighted normal n and
// relative to their stiffness-weighted surface velocity u. What presses the node on the obstacle over the step is its
// approach, stopped, plus the external load on it along -n (`load`: per node, h times the external force, gravity and
// wind, N s), and at most the springs' net push h K (depth - h n.dv); its tangential velocity at the end of the step
// relative to u is reduced by at most `friction` times that impulse over its mass, and stopped when that is enough
// (static friction). A contact of an edge's point acts on both nodes, each with its share of the spring. Nodes that
// `fixed` marks (held; none when empty) are left alone.
// Why not the springs' push alone: a spring also carries a node out of a depth the contact pass left it at, a
// correction of position that presses nothing, and friction in proportion to it dragged a curtain that a box swept
// through with the box. Why not the cloth's pull on the node as well (the force at its free end, which presses cloth
// wrapped over an obstacle's edge onto it): yanked cloth, taut over a table's edge, read loads of 10^5 times its
// weight there, friction held it, it stretched further, and a tablecloth pulled off a table at 3 m/s ended at edge
// p99 3.4 (1.6 frictionless). So cloth wrapped round an obstacle under tension gets the friction of its weight only
// (docs/collisions.md, known limits).
void applyContactFriction(const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                          const std::vector<double>& stiffness, const std::vector<Vec3>& load, double h,
                          double friction, std::vector<Vec3>& dv, const std::vector<char>& fixed = {});

// True when taking the nodes' velocity changes from `dv` to `target` (m/s) changes the end length of some edge by more
// than `share` of its length at the end of the step solved with dv: friction applied to the nodes alone would
// stretch or crush the cloth around them (step.h then solves the step again with addFrictionTargets).
bool frictionDistorts(const Mesh& mesh, double h, const std::vector<Vec3>& dv, const std::vector<Vec3>& target,
                      double share);

// Adds to the system, for each node with contacts whose `target` differs from its `dv`, a spring in the plane of its
// contacts (normal: their stiffness-weighted normal, as applyContactFriction takes it) that pulls its velocity change
// there, of stiffness springs.massMultiple m / h^2 plus springs.clothMultiple times the cloth's stiffness at the node
// in that plane (the mean of its two directions), read from sys.W as it is on entry. Why: friction is known only once
// the step is solved, and changing the velocity of the nodes it acts on after the solve, and not of the cloth around
// them, stretched refined cloth (a 1 cm edge next to a node that friction slows by 0.45 m/s in a 5 ms step: 22 %).
// Solved again with these springs, the cloth around follows.
void addFrictionTargets(ImplicitSystem& sys, const Mesh& mesh, const std::vector<ObstacleContact>& contacts,
                        const std::vector<double>& stiffness, const ContactSprings& springs,
                        const std::vector<Vec3>& dv, const std::vector<Vec3>& target);

}  // namespace adacloth
