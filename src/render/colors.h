#pragma once
// Colours of the renderer: per-cloth material colours (front and back) and the colour map of `--color view` and
// `--color sizing`.
#include <utility>

#include "render/image.h"

namespace adacloth {

// A perceptually ordered colour map (viridis-like, dark blue-violet -> green -> yellow) of t in [0, 1] (clamped).
Rgb colorMap(double t);

// Front and back colour of the cloth with this index in the shot (a fixed palette, repeating).
std::pair<Rgb, Rgb> clothColors(int clothIndex);

// Obstacles are neutral grey so that the cloth stands out.
std::pair<Rgb, Rgb> obstacleColors();

}  // namespace adacloth
