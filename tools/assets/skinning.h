#pragma once
// Linear blend skinning of the mannequin's rest surface. A vertex's weight for a bone falls off smoothly with its
// distance to that bone's primitives (exp(-(d - d_nearest) / falloff)): a vertex on a limb follows that limb
// rigidly, a vertex in a joint's fillet blends the two bones. At most 4 bones per vertex, weights sum to 1.
#include <array>
#include <vector>

#include "body_sdf.h"

namespace adacloth::assets {

struct SkinWeights {
  std::vector<std::array<int, 4>> bones;     // per vertex; unused slots have weight 0 and bone 0
  std::vector<std::array<double, 4>> weights;
};

SkinWeights computeSkinWeights(const BodyModel& body, const std::vector<Vec3>& restPositions,
                               double falloff = 0.012 /* m */);

std::vector<Vec3> skin(const SkinWeights& w, const std::vector<Vec3>& restPositions,
                       const std::vector<BoneTransform>& bones);

}  // namespace adacloth::assets
