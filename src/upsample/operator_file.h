#pragma once
// The binary file of an UpsampleOperator (docs/upsampling.md, "File format"). save/load are declared in
// upsample_operator.h; this header exposes the format constants so tests and tools can name them.
#include <cstdint>

namespace adacloth {

// First 8 bytes of every operator file.
inline constexpr char kUpsampleMagic[8] = {'A', 'D', 'C', 'U', 'P', 'S', 'M', 'P'};
// Bumped on any change of the layout; loading refuses other versions.
inline constexpr uint32_t kUpsampleVersion = 1;

}  // namespace adacloth
