#pragma once
// A software rasterizer (no GPU, no display): triangles seen by a perspective Camera, z-buffered, with
// perspective-correct interpolation, smooth shading from vertex normals, two-sided lighting (distinct front and
// back colours) with a key and a fill light, optional wireframe overlay and checkerboard (for the ground), and
// supersampling anti-aliasing.
//
// Work is split into screen tiles run in parallel with OpenMP. Each tile owns its pixels and draws the triangles
// that touch it in input order (earlier wins a depth tie), so the image is the same, byte for byte, at any thread
// count.
#include <vector>

#include "mesh/types.h"
#include "render/image.h"
#include "view/camera.h"

namespace adacloth {

struct RenderMesh {
  std::vector<Vec3> positions;  // world (m)
  std::vector<Vec3> normals;    // unit, one per position (smooth shading)
  std::vector<Tri> triangles;   // indices into positions, counter-clockwise seen from the front side
  std::vector<Rgb> front, back; // colour of each triangle's front and back side (linear light)
  bool wireframe = false;       // draw the triangle edges over it
  double checker = 0.0;         // > 0: checkerboard in world x/z with cells of this size (m), for the ground
};

// Lights move with the camera (like a photographer's key and fill lights), so every camera angle is lit. Directions
// point towards the light in camera coordinates: x right, y up, z towards the viewer.
struct Lighting {
  Vec3 keyDirection{-0.45, 0.75, 0.65};
  Vec3 fillDirection{0.75, -0.15, 0.65};  // slightly from below, so that undersides are not black
  float key = 0.75f, fill = 0.3f, ambient = 0.14f;
  float specular = 0.06f;  // a faint sheen from the key light...
  int shininess = 24;       // ...of this Blinn-Phong exponent
};

struct RenderOptions {
  int supersample = 2;  // samples per pixel along each axis (2 = 2x2 anti-aliasing), 1..8
  Rgb backgroundTop = srgb(214, 222, 232), backgroundBottom = srgb(168, 178, 192);
  Lighting lighting;
  Rgb wireColor = srgb(25, 25, 30);
  float wireOpacity = 0.7f;
  double wireWidth = 1.0;  // pixels
  int tileSize = 32;       // pixels per tile side
};

// Renders the meshes seen by `camera` into a camera.width x camera.height RGB image (sRGB). Geometry closer than
// camera.near is clipped, beyond camera.far it is not drawn.
Image rasterize(const std::vector<RenderMesh>& meshes, const Camera& camera, const RenderOptions& options = {});

// A square ground plane at height y = `height` (m) centred below `center`, large enough to reach the far plane,
// normal +y, with a checkerboard of `cell` metres.
RenderMesh groundPlane(double height, const Vec3& center, double halfSize, double cell, const Rgb& color);

// Area-weighted unit vertex normals of a triangle soup (for meshes that come without them).
std::vector<Vec3> vertexNormals(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles);

}  // namespace adacloth
