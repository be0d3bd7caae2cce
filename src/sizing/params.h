#pragma once
// Thresholds and limits of the sizing field (docs/design.md §2; the per-cloth `remeshing` key, docs/remeshing.md).
// The member initializers are the single source of the defaults: the shot schema reads them.

namespace adacloth {

struct SizingParams {
  double refineAngle = 0.3;         // rad: largest normal change across an edge
  double refineCompression = 0.01;  // strain (per metre of reference length) tolerated across an edge
  double refineVelocity = 1.0;      // m/s: largest velocity change across an edge
  double sizeMin = 0.02;            // m: shortest edge the field may ask for
  double sizeMax = 0.2;             // m: longest edge the field allows
  double aspectMin = 0.2;           // smallest ratio of the shortest to the longest allowed edge at a point
};

}  // namespace adacloth
