#pragma once
// Turns the meshes of one output frame into what the rasterizer draws, coloured by the chosen mode.
#include <filesystem>
#include <optional>
#include <utility>

#include "mesh/mesh.h"
#include "render/rasterizer.h"
#include "view/view_factor.h"

namespace adacloth {

enum class ColorMode {
  Material,  // each cloth's front and back colour
  View,      // view factor F (view/view_factor.h) of each face: colorMap((F - f_out) / (1 - f_out))
  Sizing,    // mean edge length of each face on a log scale between the shot's shortest and longest edge
};

struct FrameStyle {
  ColorMode color = ColorMode::Material;
  bool wireframe = false;                               // overlay the cloth's edges (shows the adaptive mesh)
  std::optional<Camera> viewCamera;                     // View: the camera the factor is computed for
  ViewFactorOptions viewFactor;                         // View
  std::optional<std::pair<double, double>> edgeRange;  // Sizing: shortest and longest edge (m); else this mesh's
};

// The cloth with this index in the shot (for its material colour), smooth-shaded with node normals.
RenderMesh clothRenderMesh(const Mesh& mesh, int clothIndex, const FrameStyle& style);

// An obstacle from an OBJ file (positions and faces only; polygons are fan-triangulated), drawn grey.
// Unreadable or malformed files are InputErrors naming the file.
RenderMesh obstacleRenderMesh(const std::filesystem::path& file);

// Colour of a mean edge length on the log scale of `range` (m).
Rgb sizingColor(double edgeLength, const std::pair<double, double>& range);

}  // namespace adacloth
