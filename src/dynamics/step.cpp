#include "dynamics/step.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dynamics/direct_solve.h"
#include "dynamics/face_stiffening.h"
#include "dynamics/forces.h"
#include "dynamics/implicit_system.h"
#include "dynamics/multigrid.h"
#include "dynamics/ssor_pcg.h"
#include "dynamics/warm_start.h"

namespace adacloth {

namespace {

// The multigrid hierarchy for this step: kept from earlier steps while it fits the system's structure and still
// works (see noteMultigridIterations), rebuilt otherwise.
Multigrid& currentMultigrid(SolverCache& cache, const ImplicitSystem& sys, const DynamicsState& state) {
  if (!cache.multigrid) cache.multigrid = std::make_shared<Multigrid>();
  if (cache.multigridStale || !cache.multigrid->fits(sys, state)) {
    cache.multigrid->build(sys, state);
    cache.multigridBaseIterations = -1;
    cache.multigridStale = false;
  }
  return *cache.multigrid;
}

// A hierarchy built from an earlier step's matrix goes stale as the cloth deforms: once a solve needs clearly more
// iterations than the first one after the build did, the next step rebuilds it.
void noteMultigridIterations(SolverCache& cache, int iterations) {
  if (cache.multigridBaseIterations < 0) cache.multigridBaseIterations = iterations;
  else if (iterations > 2 * cache.multigridBaseIterations + 2) cache.multigridStale = true;
}

PcgSettings::Preconditioner chosenPreconditioner(const PcgSettings& pcg, const ImplicitSystem& sys) {
  using P = PcgSettings::Preconditioner;
  if (pcg.preconditioner != P::Auto) return pcg.preconditioner;
  const long freeNodes = long(std::count(sys.fixed.begin(), sys.fixed.end(), 0));
  return freeNodes >= pcg.ssorMinNodes ? P::Ssor : P::BlockJacobi;
}

std::vector<Vec3> solvePcg(const Mesh& mesh, DynamicsState& state, const ImplicitSystem& sys,
                           const std::vector<Vec3>& external, const StepSettings& settings, SolveReport& report,
                           const std::vector<Vec3>* again) {
  if (!settings.pcg.warmStart && !again) state.solver.lastDv.clear(), state.solver.prevDv.clear();
  const std::vector<Vec3> guess = again ? *again : warmStartGuess(mesh, state, external, sys.h);
  const PcgSettings::Preconditioner chosen = chosenPreconditioner(settings.pcg, sys);
  if (chosen == PcgSettings::Preconditioner::Ssor)
    return solveSsorPcg(sys, state, mesh, guess, settings.pcg, state.solver.pcg, &report);
  Preconditioner precondition;
  const bool multigrid = chosen == PcgSettings::Preconditioner::Multigrid;
  if (multigrid) {
    const Multigrid* hierarchy = &currentMultigrid(state.solver, sys, state);
    precondition = [&sys, &state, hierarchy](const std::vector<Vec3>& r, std::vector<Vec3>& z) {
      hierarchy->apply(sys, state, r, z);
    };
  }
  std::vector<Vec3> dv = solveBlockPcg(sys, state, guess, settings.pcg, state.solver.pcg, &report, precondition);
  if (multigrid && !again) noteMultigridIterations(state.solver, report.iterations);
  return dv;
}

std::vector<Vec3> solveDirect(DynamicsState& state, const ImplicitSystem& sys, SolveReport& report) {
  if (!state.solver.direct) state.solver.direct = std::make_shared<DirectSolver>();
  std::vector<Vec3> dv = state.solver.direct->solve(sys, state);
  report.residual = relativeResidual(sys, state, dv);
  report.directSolves = 1;
  return dv;
}

// Solver auto: the factorization in direct mode (but in its check frames); else pcg, whose work is counted for the
// next frame's choice (startSolverFrame).
std::vector<Vec3> solveAuto(const Mesh& mesh, DynamicsState& state, const ImplicitSystem& sys,
                            const std::vector<Vec3>& external, const StepSettings& settings, SolveReport& report,
                            const std::vector<Vec3>* again) {
  AutoSolverChoice& choice = state.solver.autoChoice;
  if (choice.direct && !choice.checking) return solveDirect(state, sys, report);
  std::vector<Vec3> dv = solvePcg(mesh, state, sys, external, settings, report, again);
  choice.iterations += report.iterations;
  ++choice.solves;
  choice.freeNodes = int(std::count(sys.fixed.begin(), sys.fixed.end(), 0));
  choice.blockJacobi = chosenPreconditioner(settings.pcg, sys) == PcgSettings::Preconditioner::BlockJacobi;
  return dv;
}

// A frame's pcg iterations per solve over the break-even. Per solve, not per step: a step solved again for contacts
// and friction pays a factorization each time, and pcg only a few iterations from the last solution.
double iterationsPerBreakEven(const AutoSolverChoice& choice) {
  if (choice.solves == 0) return 0;
  return double(choice.iterations) / choice.solves / autoSolverBreakEven(choice.freeNodes, choice.blockJacobi);
}

// dv of the step's system by the chosen solver, with what the solve reached. `again`: the same step solved before
// with fewer contacts, which the iterative solves start from (and whose dv this one replaces in the warm start's
// history).
std::vector<Vec3> solveStep(const Mesh& mesh, DynamicsState& state, const ImplicitSystem& sys,
                            const std::vector<Vec3>& external, const StepSettings& settings, SolveReport& report,
                            const std::vector<Vec3>* again = nullptr) {
  auto remember = [&](const std::vector<Vec3>& dv) { again ? replaceLastDv(state, dv) : rememberDv(state, dv); };
  switch (settings.solver) {
    case StepSolver::Auto: {
      std::vector<Vec3> dv = solveAuto(mesh, state, sys, external, settings, report, again);
      remember(dv);  // factorized ones too: a check frame's pcg starts from them
      return dv;
    }
    case StepSolver::Pcg: {
      std::vector<Vec3> dv = solvePcg(mesh, state, sys, external, settings, report, again);
      remember(dv);
      return dv;
    }
    case StepSolver::Direct:
      return solveDirect(state, sys, report);
    case StepSolver::CG:
      return solveConjugateGradient(sys, state, settings.cgTolerance, &report.iterations, &report.residual);
    case StepSolver::KangCho:
      break;
  }
  std::vector<Vec3> dv = solveKangCho(sys, state, settings.iterations);
  report.iterations = settings.iterations;
  report.residual = relativeResidual(sys, state, dv);
  return dv;
}

// True when a free face that had no stiffening term in the step just solved (below the onset at the step's start)
// ends it more than 1.1x past the strain limit: further than the limiter's passes are meant to correct (their repair
// starts there too, strain_limit_repair.h).
bool crossedUnstiffened(const Mesh& mesh, const ImplicitSystem& sys, const FaceStiffening& limit) {
  constexpr double kFarPast = 1.1;  // a multiple of the limit
  if (limit.limitStretch <= limit.onsetStretch || sys.faceTerms.size() != mesh.faces.size()) return false;
  for (int f = 0; f < int(mesh.faces.size()); ++f)
    if (!sys.faceStiffened[f] && hasFaceStiffening(mesh, f, sys.fixed, sys.touching) &&
        largerPrincipalStretch(mesh, f) > kFarPast * limit.limitStretch)
      return true;
  return false;
}

// True when no node moves (a cloth at the start of a shot): no face is then past the stiffening's onset, whatever
// the step will do.
bool atRest(const Mesh& mesh) {
  return std::all_of(mesh.nodes.begin(), mesh.nodes.end(), [](const Node& n) { return n.v == Vec3::Zero(); });
}

// The diagonal blocks, their inverses and right-hand side of the nodes that obstacle contacts touch, and the
// couplings of the edges whose points they hold, as they were before any contact: each round of the check puts them
// back and adds the contacts that are then active. Only those are kept (a copy of the whole system every step cost
// ~170 bytes a node for a few contacted ones).
struct BareBlocks {
  std::vector<char> kept;  // per node: 1 when its blocks are below
  std::vector<int> nodes;
  std::vector<Mat3> W, Winv;
  std::vector<Vec3> rhs;
  std::vector<char> keptPair;  // per pair: 1 when its J is below
  std::vector<int> pairs;
  std::vector<Mat3> pairJ;

  void reset(int n) {
    kept.assign(n, 0), nodes.clear(), W.clear(), Winv.clear(), rhs.clear();
    for (int p : pairs) keptPair[p] = 0;
    pairs.clear(), pairJ.clear();
  }
  // Keeps the blocks of the contacts' nodes and pairs not kept yet; call before adding their springs.
  void keep(const ImplicitSystem& sys, const std::vector<ObstacleContact>& contacts) {
    auto keepNode = [&](int i) {
      if (i < 0 || size_t(i) >= kept.size() || kept[i]) return;
      kept[i] = 1;
      nodes.push_back(i), W.push_back(sys.W[i]), Winv.push_back(sys.Winv[i]), rhs.push_back(sys.rhs[i]);
    };
    for (const ObstacleContact& c : contacts) {
      keepNode(c.node);
      if (!c.holdsEdgePoint()) continue;
      keepNode(c.other);
      if (keptPair.size() < sys.pairJ.size()) keptPair.resize(sys.pairJ.size(), 0);
      if (c.edge < 0 || size_t(c.edge) >= sys.pairJ.size() || keptPair[c.edge]) continue;
      keptPair[c.edge] = 1;
      pairs.push_back(c.edge), pairJ.push_back(sys.pairJ[c.edge]);
    }
  }
  void restore(ImplicitSystem& sys) const {
    for (size_t k = 0; k < nodes.size(); ++k)
      sys.W[nodes[k]] = W[k], sys.Winv[nodes[k]] = Winv[k], sys.rhs[nodes[k]] = rhs[k];
    for (size_t k = 0; k < pairs.size(); ++k) sys.pairJ[pairs[k]] = pairJ[k];
  }
};

// Marks the nodes that contacts move as touching an obstacle (no face terms there, implicit_system.h).
void markTouching(ImplicitSystem& sys, const std::vector<ObstacleContact>& contacts) {
  for (const ObstacleContact& c : contacts) {
    sys.touching[c.node] = 1;
    if (c.holdsEdgePoint()) sys.touching[c.other] = 1;
  }
}

// The rounds of stepCloth's `check` (step.h): while the solved step `dv` misses contacts, or ends with contacts that
// pull their nodes towards the obstacle, the first join the system, the second leave it, and it is solved again from
// `dv`. Contacts let go are not looked for again in the step. The iterations add up in `report`; its residual is the
// last solve's. `active` holds the contacts the system was solved with, on entry and on return, and `stiffness`
// their springs' (addObstacleContacts).
void checkContacts(const Mesh& mesh, DynamicsState& state, ImplicitSystem& sys, BareBlocks& bare,
                   const std::vector<Vec3>& external, const StepSettings& settings,
                   std::vector<ObstacleContact>& active, std::vector<double>& stiffness, const ContactCheck& check,
                   std::vector<Vec3>& dv, SolveReport& report) {
  const int n = int(mesh.nodes.size());
  std::vector<ObstacleContact> released, known;
  std::vector<Vec3> end(n);
  for (int round = 0; round < kContactRounds; ++round) {
    for (int i = 0; i < n; ++i) end[i] = mesh.nodes[i].x + sys.h * (mesh.nodes[i].v + dv[i]);
    known = active;
    known.insert(known.end(), released.begin(), released.end());
    const std::vector<ObstacleContact> missing = check(mesh, sys.h, end, known);
    const size_t before = active.size();
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](const ObstacleContact& c) {
                                  if (!settings.contactSprings.oneSided || !contactPulls(c, sys.h, dv))
                                    return false;
                                  released.push_back(c);
                                  return true;
                                }),
                 active.end());
    if (missing.empty() && active.size() == before) return;
    active.insert(active.end(), missing.begin(), missing.end());
    bare.restore(sys);
    bare.keep(sys, missing);
    addObstacleContacts(sys, mesh, active, settings.contactSprings, &stiffness);
    sys.touching.resize(n, 0);
    markTouching(sys, missing);
    SolveReport again;
    const std::vector<Vec3> first = dv;
    dv = solveStep(mesh, state, sys, external, settings, again, &first);
    report.iterations += again.iterations;
    report.directSolves += again.directSolves;
    report.residual = again.residual;
  }
}

// Friction changes the velocity of the nodes it acts on by more than this share of an edge's length at the end of
// the step: the step is solved again with the friction's targets (addFrictionTargets), so the cloth around follows.
constexpr double kFrictionDistortion = 0.01;

// The friction of the step's contacts (applyContactFriction) applied to its solution dv; where it would distort the
// cloth (frictionDistorts), the step is first solved again with springs towards it, and friction applied to that.
void applyFriction(const Mesh& mesh, DynamicsState& state, ImplicitSystem& sys, const std::vector<Vec3>& external,
                   const StepSettings& settings, const std::vector<ObstacleContact>& active,
                   const std::vector<double>& stiffness, std::vector<Vec3>& dv, SolveReport& report) {
  const double mu = settings.contactSprings.friction;
  // A contact may carry its own coefficient (ObstacleContact::friction): a step with frictionless obstacles can still
  // hold contacts with another cloth that have friction.
  const bool any = std::any_of(active.begin(), active.end(),
                               [&](const ObstacleContact& c) { return c.frictionOr(mu) > 0; });
  if (!any) return;
  // Scratch kept between steps, bound to references (as stepOnce's).
  thread_local std::vector<Vec3> loadStore, targetStore;
  std::vector<Vec3>& load = loadStore;  // N s
  std::vector<Vec3>& target = targetStore;
  load.resize(external.size());
  for (size_t i = 0; i < external.size(); ++i) load[i] = sys.h * external[i];
  target = dv;
  applyContactFriction(mesh, active, stiffness, load, sys.h, mu, target, sys.fixed);
  if (frictionDistorts(mesh, sys.h, dv, target, kFrictionDistortion)) {
    addFrictionTargets(sys, mesh, active, stiffness, settings.contactSprings, dv, target);
    SolveReport again;
    const std::vector<Vec3> first = dv;
    dv = solveStep(mesh, state, sys, external, settings, again, &first);
    report.iterations += again.iterations;
    report.directSolves += again.directSolves;
    report.residual = again.residual;
    target = dv;
    applyContactFriction(mesh, active, stiffness, load, sys.h, mu, target, sys.fixed);
  }
  dv.swap(target);
}

// One step as step.h describes it; with `crossed`, whether crossedUnstiffened() holds at its end.
SolveReport stepOnce(Mesh& mesh, DynamicsState& state, const MaterialParams& material, const StepSettings& settings,
                     double h, const std::vector<ObstacleContact>& contacts, const ContactCheck& check,
                     bool* crossed) {
  const int n = int(mesh.nodes.size());
  const double tNext = state.time + h;
  // Reused between steps (see assembleSystemInto); one per thread calling stepCloth.
  // Bound to references: inside a parallel loop a thread_local name would denote each worker's own copy.
  thread_local ImplicitSystem sysStore;
  thread_local std::vector<Vec3> externalStore;
  ImplicitSystem& sys = sysStore;
  std::vector<Vec3>& external = externalStore;
  sys.fixed = pinnedMask(state.handles, mesh.nodes.size());
  // A held node gets the velocity that puts it on its target at the end of the step.
  sys.fixedDv.assign(n, Vec3::Zero());
  // For a bound node the target moves with the obstacle, so its velocity is the surface point's mean velocity over
  // the step (plus the correction of any drift), consistent with its positions.
  for (const HandleState& handle : state.handles) {
    const std::vector<Vec3> targets = handleTargets(handle, tNext);
    for (size_t k = 0; k < handle.nodes.size(); ++k) {
      const Node& node = mesh.nodes[handle.nodes[k]];
      sys.fixedDv[handle.nodes[k]] = (targets[k] - node.x) / h - node.v;
    }
  }
  sys.touching.assign(contacts.empty() ? 0 : n, 0);
  markTouching(sys, contacts);
  external.assign(n, Vec3::Zero());
  addGravity(mesh, settings.gravity, external);
  addWind(mesh, settings.wind, external);
  assembleSystemInto(sys, mesh, state, material, external, h);
  thread_local BareBlocks bareStore;
  BareBlocks& bare = bareStore;
  if (check) bare.reset(n), bare.keep(sys, contacts);
  thread_local std::vector<ObstacleContact> activeStore;
  thread_local std::vector<double> stiffnessStore;
  std::vector<ObstacleContact>& active = activeStore;
  std::vector<double>& stiffness = stiffnessStore;
  active = contacts;
  addObstacleContacts(sys, mesh, active, settings.contactSprings, &stiffness);
  SolveReport report;
  std::vector<Vec3> dv = solveStep(mesh, state, sys, external, settings, report);
  if (check) checkContacts(mesh, state, sys, bare, external, settings, active, stiffness, check, dv, report);
  applyFriction(mesh, state, sys, external, settings, active, stiffness, dv, report);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    mesh.nodes[i].v += dv[i];
    mesh.nodes[i].x += h * mesh.nodes[i].v;
  }
  state.time = tNext;
  if (crossed) *crossed = crossedUnstiffened(mesh, sys, state.faceStiffening);
  return report;
}

// The stiffening is linearized at the start of a step, and a face has a term only if it is past the onset there. A
// cloth at rest has none, so its first step meets no resistance from the limit: a flag from rest into 12-16 m/s wind
// at one step per frame (42 ms) ended its first frame at p99 1.08 of a 1.05 limit, where the limiter's passes could
// not pull it back (docs/benchmarks.md, "Issue 16 (b) across materials"). Such a step, when faces end it far past the
// limit, is done again as two half steps, the first checked the same way, `halvings` deep at most; the second half
// starts from the first's end, where the faces that crossed have their terms. Only from rest: halving every step
// in which a face crossed (the folds of a crumpling flag snap open within a step) made ARCSim's soft flag 2.3x slower
// and left it past 1.2 in two frames of 150 with tethers; mid-run, the limiter's passes and repair take such faces.
SolveReport stepHalving(Mesh& mesh, DynamicsState& state, const MaterialParams& material,
                        const StepSettings& settings, double h, const std::vector<ObstacleContact>& contacts,
                        const ContactCheck& check, int halvings) {
  const bool mayHalve = halvings > 0 && state.faceStiffening.active() && atRest(mesh);
  // What the step changes, kept to undo it: positions, velocities, the clock and the warm start's history.
  std::vector<Vec3> x, v;
  const double time = state.time;
  SolverCache history;
  if (mayHalve) {
    for (const Node& node : mesh.nodes) x.push_back(node.x), v.push_back(node.v);
    history.lastDv = state.solver.lastDv, history.lastDvKnown = state.solver.lastDvKnown;
    history.prevDv = state.solver.prevDv, history.prevDvKnown = state.solver.prevDvKnown;
  }
  bool crossed = false;
  const SolveReport whole =
      stepOnce(mesh, state, material, settings, h, contacts, check, mayHalve ? &crossed : nullptr);
  if (!mayHalve || !crossed) return whole;
  for (size_t i = 0; i < mesh.nodes.size(); ++i) mesh.nodes[i].x = x[i], mesh.nodes[i].v = v[i];
  state.time = time;
  state.solver.lastDv = history.lastDv, state.solver.lastDvKnown = history.lastDvKnown;
  state.solver.prevDv = history.prevDv, state.solver.prevDvKnown = history.prevDvKnown;
  const SolveReport first = stepHalving(mesh, state, material, settings, 0.5 * h, contacts, check, halvings - 1);
  const SolveReport second = stepHalving(mesh, state, material, settings, 0.5 * h, contacts, check, halvings - 1);
  state.time = time + h;
  SolveReport all;
  all.iterations = whole.iterations + first.iterations + second.iterations;
  all.residual = std::max(first.residual, second.residual);
  all.directSolves = whole.directSolves + first.directSolves + second.directSolves;
  return all;
}

}  // namespace

SolveReport stepCloth(Mesh& mesh, DynamicsState& state, const MaterialParams& material, const StepSettings& settings,
                      double h, const std::vector<ObstacleContact>& contacts, const ContactCheck& check) {
  // Two halvings: a step in four at most (at one step per frame, the 42 ms step from rest to wind in quarters).
  constexpr int kHalvings = 2;
  return stepHalving(mesh, state, material, settings, h, contacts, check, kHalvings);
}

void startSolverFrame(DynamicsState& state) {
  AutoSolverChoice& choice = state.solver.autoChoice;
  const double load = iterationsPerBreakEven(choice);
  if (!choice.direct) {
    // Past break-even by a margin, so that a frame near it leaves the choice alone.
    choice.direct = choice.solves > 0 && choice.freeNodes <= kAutoDirectMaxNodes && load > kAutoSwitchUp;
    choice.directFrames = 0;
  } else if (choice.checking) {
    // The check frame just solved by pcg: stay while the factorization is the cheaper (and the cloth small enough).
    choice.direct = load > 1 && choice.freeNodes <= kAutoDirectMaxNodes;
    choice.checking = false;
    choice.directFrames = 0;
  } else if (++choice.directFrames >= kAutoCheckEvery) {
    choice.checking = true;
  }
  choice.iterations = choice.solves = 0;
}

double autoSolverBreakEven(int freeNodes, bool blockJacobi) {
  // Measured, physics ms per frame of both solves over the same frames (docs/benchmarks.md, "Solver auto"):
  // conf/flag.json (651 nodes, block Jacobi) 78 iterations a solve, ARCSim's flag (~3,200 nodes, SSOR) 89. The
  // growth with the node count is bench_solvers' sheet's (the factorization grows as n^1.37, an iteration as n);
  // that sheet, without face terms, puts the break-even 1.35x higher.
  constexpr double kAtThousand = 58, kExponent = 0.37, kBlockJacobi = 1.5;
  const double ssor = kAtThousand * std::pow(std::max(freeNodes, 1) / 1000.0, kExponent);
  return blockJacobi ? kBlockJacobi * ssor : ssor;
}

std::optional<BadNode> findBadNode(const Mesh& mesh, double maxSpeed) {
  for (size_t i = 0; i < mesh.nodes.size(); ++i) {
    const Node& node = mesh.nodes[i];
    if (!node.x.allFinite() || !node.v.allFinite()) return BadNode{int(i), "has a non-finite position or velocity"};
    double speed = node.v.norm();
    if (speed > maxSpeed) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "moves at %.4g m/s, faster than max_speed %.4g m/s", speed, maxSpeed);
      return BadNode{int(i), buf};
    }
  }
  return std::nullopt;
}

double kineticEnergy(const Mesh& mesh) {
  double e = 0;
  for (const Node& node : mesh.nodes) e += 0.5 * node.mass * node.v.squaredNorm();
  return e;
}

}  // namespace adacloth
