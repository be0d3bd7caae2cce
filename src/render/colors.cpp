#include "render/colors.h"

#include <algorithm>
#include <cmath>

namespace adacloth {

Rgb colorMap(double t) {
  // Nine stops of viridis (sRGB), interpolated in linear light.
  static const int stops[9][3] = {{68, 1, 84},    {71, 45, 123},  {59, 82, 139},  {44, 114, 142}, {33, 145, 140},
                                  {40, 174, 128}, {94, 201, 98},  {173, 220, 48}, {253, 231, 37}};
  const double x = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 8.0;
  const int i = std::min(7, int(x));
  const float f = float(x - i);
  const Rgb a = srgb(stops[i][0], stops[i][1], stops[i][2]), b = srgb(stops[i + 1][0], stops[i + 1][1], stops[i + 1][2]);
  return a * (1 - f) + b * f;
}

std::pair<Rgb, Rgb> clothColors(int clothIndex) {
  // Front: a saturated fabric colour; back: a light contrasting lining, so a fold shows which side is up.
  static const int palette[5][2][3] = {
      {{62, 104, 186}, {228, 178, 82}},   // blue / ochre
      {{184, 62, 66}, {236, 214, 160}},   // red / cream
      {{58, 146, 98}, {226, 162, 196}},   // green / pink
      {{132, 84, 176}, {200, 214, 120}},  // violet / lime
      {{214, 124, 40}, {130, 190, 222}},  // orange / sky
  };
  const auto& p = palette[((clothIndex % 5) + 5) % 5];
  return {srgb(p[0][0], p[0][1], p[0][2]), srgb(p[1][0], p[1][1], p[1][2])};
}

std::pair<Rgb, Rgb> obstacleColors() { return {srgb(158, 156, 150), srgb(96, 94, 90)}; }

}  // namespace adacloth
