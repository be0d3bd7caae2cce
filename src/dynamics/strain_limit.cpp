#include "dynamics/strain_limit.h"

#include <algorithm>

namespace adacloth {
namespace {

// Correction moving node a of pair p (node b moves by the opposite times its own share), split by inverse mass.
Vec3 pairCorrection(const Mesh& mesh, const SpringPair& p, const StrainLimitParams& limit,
                    const std::vector<char>& held, double& shareA, double& shareB) {
  Vec3 d = mesh.nodes[p.b].x - mesh.nodes[p.a].x;
  double len = d.norm();
  shareA = shareB = 0;
  if (!p.isEdge || p.restLength <= 0 || len <= 1e-12) return Vec3::Zero();
  double target = std::clamp(len, limit.min * p.restLength, limit.max * p.restLength);
  if (target == len) return Vec3::Zero();
  double wa = held[p.a] || mesh.nodes[p.a].mass <= 0 ? 0.0 : 1.0 / mesh.nodes[p.a].mass;
  double wb = held[p.b] || mesh.nodes[p.b].mass <= 0 ? 0.0 : 1.0 / mesh.nodes[p.b].mass;
  if (wa + wb <= 0) return Vec3::Zero();
  shareA = wa / (wa + wb);
  shareB = wb / (wa + wb);
  return (len - target) / len * d;  // moving a by +this and b by -this restores the target length
}

}  // namespace

void limitStrain(Mesh& mesh, const DynamicsState& state, const StrainLimitParams& limit, const std::vector<char>& held,
                 double h) {
  // Gauss-Seidel in pair order: each correction sees the ones before it, so a limit propagates across the whole
  // sheet in a few passes (a Jacobi version needs about as many passes as the sheet is edges wide). Serial, hence
  // the same result at any thread count.
  const int np = int(state.pairs.size());
  for (int pass = 0; pass < limit.iterations; ++pass)
    for (int p = 0; p < np; ++p) {
      const SpringPair& pair = state.pairs[p];
      double shareA, shareB;
      Vec3 c = pairCorrection(mesh, pair, limit, held, shareA, shareB);
      if (shareA + shareB <= 0) continue;
      mesh.nodes[pair.a].x += shareA * c;
      mesh.nodes[pair.a].v += shareA * c / h;
      mesh.nodes[pair.b].x -= shareB * c;
      mesh.nodes[pair.b].v -= shareB * c / h;
    }
}

double maxStretchRatio(const Mesh& mesh, const DynamicsState& state) {
  double worst = 1.0;
  for (const SpringPair& p : state.pairs)
    if (p.isEdge && p.restLength > 0)
      worst = std::max(worst, (mesh.nodes[p.b].x - mesh.nodes[p.a].x).norm() / p.restLength);
  return worst;
}

}  // namespace adacloth
