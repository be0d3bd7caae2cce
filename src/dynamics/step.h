#pragma once
// One implicit time step of a cloth (docs/design.md §5): external forces, the linearized backward-Euler system (solved
// by block-preconditioned CG, or by a sparse Cholesky factorization exactly, by default whichever is the cheaper for
// the cloth; or approximately by Kang and Cho's update), handles; and the blow-up guard. Strain limiting is a
// constraint of the contact pass that follows the step (dynamics/strain_limit.h, collision/response.h).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dynamics/block_pcg.h"
#include "dynamics/dynamics_state.h"
#include "dynamics/obstacle_contact.h"
#include "dynamics/params.h"

namespace adacloth {

// The obstacle contacts a solved step shows to be missing, to be added before the step is solved again: given the
// mesh at the start of the step (x, v), the step h (s), every node's end position x + h (v + dv) in the solved step
// (m) and the contacts it was solved with. Nothing when none is missing. Why: contacts are predicted from the
// unconstrained end positions x + h v, but the solve moves nodes elsewhere, and cloth that a box's edge sweeps
// sideways was pulled by its neighbours into the box, where no contact had been predicted (docs/benchmarks.md,
// "A solid obstacle's side").
using ContactCheck = std::function<std::vector<ObstacleContact>(
    const Mesh& mesh, double h, const std::vector<Vec3>& solvedEnd, const std::vector<ObstacleContact>& contacts)>;

// Advances x, v of `mesh` by h seconds (and state.time). Held nodes land exactly on their handle's target at the
// end of the step. Returns the iterations (sweeps for kang_cho, 0 for direct) and the relative residual of the
// linear solve. `contacts` are the step's obstacle contacts (dynamics/obstacle_contact.h; none by default). With
// `check`, the solved step is checked and, when contacts are missing or some of its contacts end it pulling their
// nodes towards the obstacle (contactPulls), solved again (from the last solution) with the first added and the
// second let go, at most kContactRounds times. Then the contacts' friction (applyContactFriction, with the shot's
// settings.contactSprings.friction), for which the step may be solved once more (addFrictionTargets).
constexpr int kContactRounds = 2;
SolveReport stepCloth(Mesh& mesh, DynamicsState& state, const MaterialParams& material, const StepSettings& settings,
                      double h, const std::vector<ObstacleContact>& contacts = {}, const ContactCheck& check = {});

// Solver auto (StepSolver::Auto) solves a cloth by pcg, or by the factorization where that is the cheaper (stiff
// cloth, e.g. under a tight strain limit), frame by frame. Call startSolverFrame at the start of every frame (without
// it, auto stays pcg). A frame in pcg mode whose solves took more than kAutoSwitchUp x autoSolverBreakEven()
// iterations each, on average, puts the cloth in direct mode from the next frame on (at most kAutoDirectMaxNodes
// free nodes). In direct mode every kAutoCheckEvery-th frame is a check frame, solved by pcg again: the cloth stays
// in direct mode if its solves took more than the break-even. Whole frames, because one step's iterations vary by
// +-50 % from the next, and the first pcg step after factorized ones reads low (it starts from their exact dv). The
// mode and the frame's counts are in the solver cache and in checkpoints.
void startSolverFrame(DynamicsState& state);

// The pcg iterations per solve at which one direct factorization costs as much, for a cloth of `freeNodes` free
// nodes; `blockJacobi`: pcg preconditioned by the blocks alone (cheaper iterations, more of them) instead of SSOR.
double autoSolverBreakEven(int freeNodes, bool blockJacobi);
// A multiple of the break-even. The break-even is measured on cloth under a strain limit, whose face terms make a pcg
// iteration dearer; without them (bench_solvers' sheet) it lies 1.35-1.5x higher.
constexpr double kAutoSwitchUp = 1.5;
constexpr int kAutoCheckEvery = 5;     // frames: one check frame in five in direct mode
constexpr int kAutoDirectMaxNodes = 50000;  // above it the factorization's memory and time grow too fast

// The first node (lowest index) whose position or velocity is not finite or whose speed exceeds maxSpeed (m/s),
// with the reason, or nothing when the state is sound.
struct BadNode {
  int node;
  std::string reason;
};
std::optional<BadNode> findBadNode(const Mesh& mesh, double maxSpeed);

// Kinetic energy 0.5 sum m |v|^2 (J), summed in node order.
double kineticEnergy(const Mesh& mesh);

}  // namespace adacloth
