#pragma once
// Versioned binary file of a WrinkleModel (docs/upsampling.md "File formats"), in the BinaryWriter encoding:
//   magic[8] "ADCWRNKL", u32 version (1), the mesh pair (mesh_pair.h), u32 base (0 Loop, 1 midpoint),
//   f64 metric radius (m), u32 metric edges, f64 RBF damping, u64 P poses, per pose: f64[E] feature vector (array),
//   u64 N, f32[N][3] displacements (m), then u64 FNV-1a hash of every byte before it.
// Everything derived (metrics, RBF inverses, frames) is rebuilt on load.
#include <string>

#include "upsample/wrinkle_model.h"

namespace adacloth {

void saveWrinkleModel(const WrinkleModel& model, const std::string& file);
// InputError naming the file and what is wrong (magic, version, truncation, hash, sizes, non-finite values).
WrinkleModel loadWrinkleModel(const std::string& file);

}  // namespace adacloth
