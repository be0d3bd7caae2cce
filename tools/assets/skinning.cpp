#include "skinning.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace adacloth::assets {

SkinWeights computeSkinWeights(const BodyModel& body, const std::vector<Vec3>& x, double falloff) {
  const size_t nBones = body.skeleton.bones.size();
  SkinWeights w;
  w.bones.resize(x.size());
  w.weights.resize(x.size());
  for (size_t v = 0; v < x.size(); ++v) {
    std::vector<double> d(nBones, std::numeric_limits<double>::infinity());
    for (const Primitive& p : body.primitives) d[p.bone] = std::min(d[p.bone], primitiveDistance(p, x[v]));
    const double nearest = *std::min_element(d.begin(), d.end());
    std::vector<int> order(nBones);
    std::iota(order.begin(), order.end(), 0);
    // Nearest bones first; ties by bone index so the choice is deterministic.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return d[a] < d[b]; });
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      w.bones[v][k] = order[k];
      w.weights[v][k] = std::exp(-(d[order[k]] - nearest) / falloff);
      sum += w.weights[v][k];
    }
    for (double& wk : w.weights[v]) wk /= sum;
  }
  return w;
}

std::vector<Vec3> skin(const SkinWeights& w, const std::vector<Vec3>& x, const std::vector<BoneTransform>& bones) {
  std::vector<Vec3> out(x.size());
  for (size_t v = 0; v < x.size(); ++v) {
    Vec3 p = Vec3::Zero();
    for (int k = 0; k < 4; ++k) p += w.weights[v][k] * bones[w.bones[v][k]].apply(x[v]);
    out[v] = p;
  }
  return out;
}

}  // namespace adacloth::assets
