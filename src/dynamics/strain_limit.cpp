#include "dynamics/strain_limit.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "dynamics/face_stiffening.h"
#include "dynamics/handles.h"
#include "dynamics/strain_limit_repair.h"

namespace adacloth {
namespace {

// The face's deformation gradient F (3x2) at x.
Mat32 deformationGradient(const Vec3* x, const FaceLimit& f) {
  Mat32 ds;
  ds << x[f.nodes[1]] - x[f.nodes[0]], x[f.nodes[2]] - x[f.nodes[0]];
  return ds * f.materialInverse;
}

}  // namespace

FaceDeformation faceDeformation(const Vec3* x, const FaceLimit& f) {
  FaceDeformation d;
  d.F = deformationGradient(x, f);
  d.eig.computeDirect(d.F.transpose() * d.F);
  d.sigma = d.eig.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  return d;
}

namespace {

// Edges between nodes (hops) from each node to the nearest held node; -1 where none is reachable.
std::vector<int> hopsFromHeld(const DynamicsState& state, const std::vector<char>& held, size_t nodeCount) {
  std::vector<int> hops(nodeCount, -1), queue;
  for (size_t i = 0; i < nodeCount && i < held.size(); ++i)
    if (held[i]) hops[i] = 0, queue.push_back(int(i));
  for (size_t k = 0; k < queue.size(); ++k) {
    const int i = queue[k];
    for (int e = state.incidenceStart[i]; e < state.incidenceStart[i + 1]; ++e) {
      const int j = state.incidenceOther[e];
      if (hops[j] < 0 && state.pairs[state.incidencePair[e]].isEdge) hops[j] = hops[i] + 1, queue.push_back(j);
    }
  }
  return hops;
}

std::vector<LengthLimit> edgeLengthLimits(const DynamicsState& state, const StrainLimitParams& limit,
                                          const std::vector<char>& held) {
  std::vector<LengthLimit> out;
  for (const SpringPair& p : state.pairs)
    if (p.isEdge && p.restLength > 0) out.push_back({p.a, p.b, limit.min * p.restLength, limit.max * p.restLength});
  if (std::find(held.begin(), held.end(), 1) == held.end()) return out;
  // Outward from the held nodes: a forward pass then carries a held node's pull across the sheet.
  const std::vector<int> hops = hopsFromHeld(state, held, state.incidenceStart.size() - 1);
  for (LengthLimit& l : out) {
    const int a = hops[l.a], b = hops[l.b];
    if (a >= 0 && (b < 0 || a < b)) l.leader = 1;
    if (b >= 0 && (a < 0 || b < a)) l.leader = 2;
  }
  auto level = [&](const LengthLimit& l) {
    const int a = hops[l.a], b = hops[l.b];
    return a < 0 ? (b < 0 ? INT_MAX : b) : (b < 0 ? a : std::min(a, b));
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const LengthLimit& x, const LengthLimit& y) { return level(x) < level(y); });
  return out;
}

std::vector<FaceLimit> faceLimits(const Mesh& mesh) {
  std::vector<FaceLimit> out;
  for (size_t f = 0; f < mesh.faces.size(); ++f) {
    const Tri& v = mesh.faces[f].verts;
    const Vec2 &u0 = mesh.verts[v[0]].u, &u1 = mesh.verts[v[1]].u, &u2 = mesh.verts[v[2]].u;
    Mat2 dm;
    dm << u1 - u0, u2 - u0;
    if (!(std::abs(dm.determinant()) > 1e-14)) continue;  // degenerate in material space: nothing to limit
    FaceLimit l;
    for (int k = 0; k < 3; ++k) l.nodes[k] = mesh.verts[v[k]].node;
    l.materialEdges = dm;
    l.materialInverse = dm.inverse();
    out.push_back(l);
  }
  return out;
}

// How an edge's correction is split between its ends a and b: shares of the position change and of the velocity
// change (each pair sums to 1).
struct EdgeShares {
  double positionA = 0.5, positionB = 0.5, velocityA = 0.5, velocityB = 0.5;
};

// Both changes split by inverse mass (wa, wb: the ends' inverse masses, not both 0).
EdgeShares massShares(double wa, double wb) {
  return {wa / (wa + wb), wb / (wa + wb), wa / (wa + wb), wb / (wa + wb)};
}

// Moves the ends of `e` back within its limits, by the given shares of the correction; removes the relative speed
// along it that would take it further past the limit. Returns false when the edge was off by more than `slack`.
bool correctEdge(Vec3* x, Vec3* v, const LengthLimit& e, const EdgeShares& shares, double slack) {
  const Vec3 d = x[e.b] - x[e.a];
  const double len = d.norm();
  if (len <= 1e-12) return true;
  const double target = std::clamp(len, e.minLength, e.maxLength);
  if (target == len) return true;
  const Vec3 n = d / len;
  x[e.a] += shares.positionA * (len - target) * n;
  x[e.b] -= shares.positionB * (len - target) * n;
  const double rate = n.dot(v[e.b] - v[e.a]);
  if ((len > target && rate > 0) || (len < target && rate < 0)) {
    v[e.a] += shares.velocityA * rate * n;
    v[e.b] -= shares.velocityB * rate * n;
  }
  return std::abs(len - target) <= slack * target;
}

bool edgePass(Vec3* x, Vec3* v, const double* invMass,
              const std::vector<LengthLimit>& edges, bool forward, double slack) {
  bool within = true;
  const int count = int(edges.size());
  for (int k = 0; k < count; ++k) {
    const LengthLimit& e = edges[forward ? k : count - 1 - k];
    const double wa = invMass[e.a], wb = invMass[e.b];
    if (wa + wb > 0) within = correctEdge(x, v, e, massShares(wa, wb), slack) && within;
  }
  return within;
}

// Whether the face's principal stretches lie inside [lo, hi] by a margin that rounding cannot cross: the eigenvalues
// of F^T F in closed form, without the eigenvectors. Most faces are well inside their limits on most passes, and the
// eigen solver was most of the limiter's time; a face this test does not clear takes the exact path, so the limiter
// answers bit for bit as without it.
bool clearlyWithin(const Vec3* x, const FaceLimit& f, double lo, double hi) {
  const Mat32 F = deformationGradient(x, f);
  const Mat2 C = F.transpose() * F;
  const double mean = 0.5 * (C(0, 0) + C(1, 1));
  const double radius = std::sqrt(0.25 * (C(0, 0) - C(1, 1)) * (C(0, 0) - C(1, 1)) + C(0, 1) * C(0, 1));
  constexpr double kMargin = 1e-9;  // relative, far above the rounding of either way of computing the eigenvalues
  return mean + radius <= hi * hi * (1 - kMargin) && mean - radius >= lo * lo * (1 + kMargin);
}

// Brings a face's principal stretches into [lo, hi]: its deformation gradient F = U S V^T (3x2) becomes U S' V^T
// with S clamped, placed about the centroid of its movable corners' positions (of all, when none is held), so the
// face keeps its place and turn. Positions only. Returns false when a stretch was off by more than `slack`.
bool correctFace(Vec3* x, const double* invMass, const FaceLimit& f, double lo, double hi,
                 double slack) {
  if (clearlyWithin(x, f, lo, hi)) return true;
  const FaceDeformation d = faceDeformation(x, f);
  const Mat32& F = d.F;
  const Vec2& sigma = d.sigma;
  if (!(sigma.minCoeff() > 1e-6)) return true;  // crushed flat: the edges' lower limits act instead
  const Vec2 clamped = sigma.cwiseMax(lo).cwiseMin(hi);
  if (clamped == sigma) return true;
  const Mat2& V = d.eig.eigenvectors();
  // F V = U S, so F' = F V S^-1 S' V^T.
  const Mat32 target = F * V * (clamped.array() / sigma.array()).matrix().asDiagonal() * V.transpose();
  // Corner k's offset from corner 0 in material space is column k - 1 of the edge matrix: corner 0 at 0.
  const Vec2 u[3] = {Vec2::Zero(), f.materialEdges.col(0), f.materialEdges.col(1)};
  bool anyHeld = false;
  for (int k = 0; k < 3; ++k) anyHeld = anyHeld || invMass[f.nodes[k]] == 0;
  // The shape is placed about the held corners (they cannot move) or, with none held, the centroid.
  Vec3 xc = Vec3::Zero();
  Vec2 uc = Vec2::Zero();
  int count = 0;
  for (int k = 0; k < 3; ++k)
    if (!anyHeld || invMass[f.nodes[k]] == 0) xc += x[f.nodes[k]], uc += u[k], ++count;
  xc /= count;
  uc /= count;
  for (int k = 0; k < 3; ++k)
    if (invMass[f.nodes[k]] > 0) x[f.nodes[k]] = xc + target * (u[k] - uc);
  return ((clamped - sigma).array().abs() <= slack * clamped.array()).all();
}

bool facePass(Vec3* x, const double* invMass, const StrainLimits& limits, double slack) {
  bool within = true;
  for (const FaceLimit& f : limits.faces) within = correctFace(x, invMass, f, limits.min, limits.max, slack) && within;
  return within;
}

// How far the worst face or edge is past its upper limit, as a ratio (1 when every one holds): a larger principal
// stretch or a length over its limit. Crushed faces count through their edges (as in correctFace).
double worstStretch(const Vec3* x, const StrainLimits& limits) {
  double worst = 1;
  for (const FaceLimit& f : limits.faces) {
    if (clearlyWithin(x, f, 0, limits.max)) continue;  // its ratio is below 1
    const Vec2 sigma = faceDeformation(x, f).sigma;
    if (!(sigma.minCoeff() > 1e-6)) continue;
    worst = std::max(worst, sigma.maxCoeff() / limits.max);
  }
  for (const LengthLimit& e : limits.edges) {
    const double len = (x[e.b] - x[e.a]).norm();
    if (len > 1e-12) worst = std::max(worst, len / e.maxLength);
  }
  return worst;
}

// The limits' nodes are 0 .. nodeCount - 1.
int nodeCount(const StrainLimits& limits) {
  int n = 0;
  for (const LengthLimit& e : limits.edges) n = std::max({n, e.a + 1, e.b + 1});
  for (const Tether& t : limits.tethers) n = std::max({n, t.node + 1, t.anchor + 1});
  for (const FaceLimit& f : limits.faces) n = std::max({n, f.nodes[0] + 1, f.nodes[1] + 1, f.nodes[2] + 1});
  return n;
}

// The kinetic energy (J) that taking the speed `rate` (m/s, along the unit edge direction n) out of an edge's ends by
// the given shares would add: dv_a = shareA rate n, dv_b = -shareB rate n; wa, wb are the ends' inverse masses.
double energyAdded(const Vec3& va, const Vec3& vb, double wa, double wb, const Vec3& n, double rate, double shareA,
                   double shareB) {
  double added = 0;
  if (wa > 0) added += (shareA * rate * n.dot(va) + 0.5 * shareA * shareA * rate * rate) / wa;
  if (wb > 0) added += (-shareB * rate * n.dot(vb) + 0.5 * shareB * shareB * rate * rate) / wb;
  return added;
}

// The last pass: outward from the held nodes, each edge's end nearer to them stays put, as if held, so that a held
// node's pull crosses the cloth in one pass. The speed the edge loses is taken from the far end alone too (which
// carries the pull's stop across the cloth) when that takes kinetic energy out, else split by the true masses as in
// every other pass: taken from the far end alone whatever it did, it handed the near end's speed to the far one and
// added energy each step the passes ran out (ARCSim's flag rebuilt with a soft knit held to a 1.05 limit in 10 m/s
// wind gained ~10 J per step in the limiter, reached 2,600 J and blew up by frame 6; docs/benchmarks.md).
void shockPass(Vec3* x, Vec3* v, const double* invMass,
               const std::vector<LengthLimit>& edges, double slack) {
  for (const LengthLimit& e : edges) {
    const double wa = invMass[e.a], wb = invMass[e.b];
    const double movesA = e.leader == 1 ? 0 : wa, movesB = e.leader == 2 ? 0 : wb;
    if (movesA + movesB <= 0) continue;
    const double shareA = movesA / (movesA + movesB), shareB = movesB / (movesA + movesB);
    const EdgeShares byMass = massShares(wa, wb);
    const EdgeShares oneSided{shareA, shareB, shareA, shareB};
    EdgeShares shares{shareA, shareB, byMass.velocityA, byMass.velocityB};
    const Vec3 d = x[e.b] - x[e.a];
    const double len = d.norm();
    if (len > 1e-12) {
      const Vec3 n = d / len;
      const double rate = n.dot(v[e.b] - v[e.a]);
      if (energyAdded(v[e.a], v[e.b], wa, wb, n, rate, shareA, shareB) <= 0) shares = oneSided;
    }
    correctEdge(x, v, e, shares, slack);
  }
}

}  // namespace

StrainLimits strainLimits(const Mesh& mesh, const DynamicsState& state, const StrainLimitParams& limit,
                          const std::vector<char>& held) {
  StrainLimits out;
  if (!limit.enabled) return out;
  out.edges = edgeLengthLimits(state, limit, held);
  out.faces = faceLimits(mesh);
  if (limit.tethers) out.tethers = tethers(mesh, state, held, limit.max);
  out.min = limit.min;
  out.max = limit.max;
  out.passes = limit.iterations;
  out.keepLeastStretched = limit.stiffening > 0;
  return out;
}

namespace {

// The repair (strain_limit_repair.h) of the limits' region past 1.1x, when `worst` (worstStretch at x) says there is
// one; its result is kept only when it is less stretched. Returns the nodes it moved (0: none, or not kept).
int repairWhereFarPast(Vec3* x, const double* invMass, const StrainLimits& limits, double worst) {
  const UpperLimitRepair repair;
  if (worst <= repair.startAt) return 0;
  const int n = nodeCount(limits);
  const std::vector<Vec3> before(x, x + n);
  const int moved = repairUpperLimits(x, invMass, limits, n, repair);
  if (worstStretch(x, limits) <= worst) return moved;
  std::copy(before.begin(), before.end(), x);
  return 0;
}

}  // namespace

int limitStrain(std::vector<Vec3>& xs, std::vector<Vec3>& vs, const std::vector<double>& invMasses,
                const StrainLimits& limits, double slack, int first) {
  Vec3 *x = xs.data() + first, *v = vs.data() + first;
  const double* invMass = invMasses.data() + first;
  auto pass = [&](bool forward) {
    bool within = tetherPass(x, v, invMass, limits.tethers, slack);
    within = facePass(x, invMass, limits, slack) && within;
    return edgePass(x, v, invMass, limits.edges, forward, slack) && within;
  };
  // The passes need not converge: where a crumpled region's faces and edges cannot all hold, each projection undoes
  // another, and on a flag crumpling in 14 m/s wind four passes took the worst face from 1.08 to 1.39. With
  // keepLeastStretched the state with the smallest worst stretch is kept (the one the limiter started from, if
  // nothing was better). It trades the passes' progress elsewhere for the worst face: right when the solve's face
  // stiffening leaves the passes only residuals to correct, not on garments, whose worst faces the body decides (on
  // skirt_walk it kept whole steps uncorrected, and 3 steps ended with unresolved contacts). Stretch, not
  // compression: stretch is what shows (and what the limit is for), compression comes from folds finer than the
  // mesh, and ranked by both the guard kept states whose stretch had grown so long as a compressed face improved
  // (ARCSim's soft flag: edges past 1.2 in 15 of 60 frames, against 2 ranked by stretch). The whole cloth's state,
  // not only where it got worse: restoring just the nodes of the faces and edges that ended worse than the best
  // state kept more of the passes' progress but left that flag past 1.2 in 9 frames of 60 (docs/benchmarks.md).
  const bool guard = limits.keepLeastStretched;
  const int n = guard ? nodeCount(limits) : 0;
  std::vector<Vec3> bestX, bestV;
  double best = 0;
  if (guard) best = worstStretch(x, limits), bestX.assign(x, x + n), bestV.assign(v, v + n);
  int run = 0;
  bool within = false;
  while (run < limits.passes && !within) {
    within = pass(run++ % 2 == 0);
    if (!guard) continue;
    const double now = within ? 1.0 : worstStretch(x, limits);
    if (now < best) best = now, std::copy(x, x + n, bestX.begin()), std::copy(v, v + n, bestV.begin());
  }
  if (within || run == 0) return run;
  // Shock propagation (Guendelman et al. 2003), then a plain pass for what it moved.
  shockPass(x, v, invMass, limits.edges, slack);
  pass(true);
  if (!guard) return run + 2;
  double worst = worstStretch(x, limits);
  if (worst > best) {
    std::copy(bestX.begin(), bestX.end(), x);
    std::copy(bestV.begin(), bestV.end(), v);
    worst = best;
  }
  // Where the passes still leave a face or an edge well past its limit, the limits of that region are solved
  // together (strain_limit_repair.h: thin faces between an upper and a lower limit make the passes diverge). With the
  // guard only, as the whole of this branch is meant for cloth whose limit the solve keeps (on garments the body
  // decides the worst faces).
  repairWhereFarPast(x, invMass, limits, worst);
  return run + 2;
}

bool needsStrainRepair(const std::vector<Vec3>& x, const StrainLimits& limits, int first) {
  return !limits.empty() &&
         worstStretch(x.data() + first, limits) > UpperLimitRepair().startAt;
}

int repairStrain(std::vector<Vec3>& x, const std::vector<double>& invMass, const StrainLimits& limits, int first) {
  if (limits.empty()) return 0;
  return repairWhereFarPast(x.data() + first, invMass.data() + first, limits, worstStretch(x.data() + first, limits));
}

namespace {

StretchSummary summarize(std::vector<double>& ratio) {
  StretchSummary s;
  if (ratio.empty()) return s;
  const size_t k = std::min(ratio.size() - 1, size_t(0.99 * double(ratio.size())));
  std::nth_element(ratio.begin(), ratio.begin() + long(k), ratio.end());
  s.p99 = ratio[k];
  s.max = *std::max_element(ratio.begin() + long(k), ratio.end());
  return s;
}

}  // namespace

StretchSummary edgeStretch(const Mesh& mesh, const DynamicsState& state) {
  const std::vector<char> held = pinnedMask(state.handles, mesh.nodes.size());
  std::vector<double> ratio;
  for (const SpringPair& p : state.pairs)
    if (p.isEdge && p.restLength > 0 && !(held[p.a] && held[p.b]))
      ratio.push_back((mesh.nodes[p.b].x - mesh.nodes[p.a].x).norm() / p.restLength);
  return summarize(ratio);
}

StretchSummary faceStretch(const Mesh& mesh, const DynamicsState& state) {
  const std::vector<char> held = pinnedMask(state.handles, mesh.nodes.size());
  std::vector<double> ratio;
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Tri n = mesh.faceNodes(f);
    if (!(held[n[0]] && held[n[1]] && held[n[2]]) && mesh.faces[f].materialArea != 0)
      ratio.push_back(largerPrincipalStretch(mesh, f));
  }
  return summarize(ratio);
}

double maxStretchRatio(const Mesh& mesh, const DynamicsState& state) {
  double worst = 1.0;
  for (const SpringPair& p : state.pairs)
    if (p.isEdge && p.restLength > 0)
      worst = std::max(worst, (mesh.nodes[p.b].x - mesh.nodes[p.a].x).norm() / p.restLength);
  return worst;
}

}  // namespace adacloth
