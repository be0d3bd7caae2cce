#include <catch2/catch.hpp>

#include <omp.h>

#include "mesh/generators.h"
#include "render/frame_scene.h"
#include "render/rasterizer.h"

using namespace adacloth;

namespace {

const Rgb kFront = srgb(200, 40, 30), kBack = srgb(30, 60, 210), kOther = srgb(20, 180, 40);

// Unlit (ambient 1, no lights) and a flat background: pixels are exactly the colours, so tests can be exact.
RenderOptions flatOptions(int supersample = 2) {
  RenderOptions o;
  o.supersample = supersample;
  o.backgroundTop = o.backgroundBottom = srgb(10, 10, 10);
  o.lighting.ambient = 1.0f;
  o.lighting.key = o.lighting.fill = o.lighting.specular = 0.0f;
  return o;
}

// A triangle in the plane z = `z`, counter-clockwise seen from +z, covering the middle of a view from +z.
RenderMesh triangleAt(double z, double size, const Rgb& front, const Rgb& back) {
  RenderMesh m;
  m.positions = {{-size, -size, z}, {size, -size, z}, {0.0, size, z}};
  m.normals.assign(3, Vec3::UnitZ());
  m.triangles = {{0, 1, 2}};
  m.front = {front};
  m.back = {back};
  return m;
}

Camera cameraOnZ(double eyeZ, double far = 100.0) {
  return makeCamera({0, 0, eyeZ}, {0, 0, 0}, {0, 1, 0}, 60.0, 0.1, far, 33, 21);
}

std::array<int, 3> pixel(const Image& image, int x, int y) {
  const uint8_t* p = image.at(x, y);
  return {p[0], p[1], p[2]};
}

std::array<int, 3> encoded(const Rgb& c) { return {toSrgb8(c[0]), toSrgb8(c[1]), toSrgb8(c[2])}; }

}  // namespace

TEST_CASE("a triangle facing the camera shows its front colour in the centre, background in the corners",
          "[render]") {
  const RenderOptions o = flatOptions();
  const Image image = rasterize({triangleAt(0.0, 1.0, kFront, kBack)}, cameraOnZ(3.0), o);
  REQUIRE(image.width == 33);
  REQUIRE(image.height == 21);
  CHECK(pixel(image, 16, 10) == encoded(kFront));
  const auto background = encoded(o.backgroundTop);
  for (auto [x, y] : {std::pair{0, 0}, {32, 0}, {0, 20}, {32, 20}}) CHECK(pixel(image, x, y) == background);
}

TEST_CASE("seen from behind a triangle shows its back colour", "[render]") {
  const Image image = rasterize({triangleAt(0.0, 1.0, kFront, kBack)}, cameraOnZ(-3.0), flatOptions());
  CHECK(pixel(image, 16, 10) == encoded(kBack));
}

TEST_CASE("a nearer triangle hides a farther one, in either drawing order", "[render]") {
  const RenderMesh nearer = triangleAt(0.5, 1.0, kOther, kOther), farther = triangleAt(0.0, 1.0, kFront, kBack);
  CHECK(pixel(rasterize({farther, nearer}, cameraOnZ(3.0), flatOptions()), 16, 10) == encoded(kOther));
  CHECK(pixel(rasterize({nearer, farther}, cameraOnZ(3.0), flatOptions()), 16, 10) == encoded(kOther));
}

TEST_CASE("geometry beyond the far plane is not drawn, in front of it is", "[render]") {
  const RenderOptions o = flatOptions();
  // The triangle is 3 m away.
  CHECK(pixel(rasterize({triangleAt(0.0, 1.0, kFront, kBack)}, cameraOnZ(3.0, 2.5), o), 16, 10) ==
        encoded(o.backgroundTop));
  CHECK(pixel(rasterize({triangleAt(0.0, 1.0, kFront, kBack)}, cameraOnZ(3.0, 3.5), o), 16, 10) ==
        encoded(kFront));
}

TEST_CASE("a triangle crossing the near plane is clipped, its visible part drawn", "[render]") {
  // A floor-like triangle from behind the camera to far in front of it, below the eye: clipped at near.
  RenderMesh floor;
  floor.positions = {{-50, -1, 10}, {50, -1, 10}, {0, -1, -100}};
  floor.normals.assign(3, Vec3::UnitY());
  floor.triangles = {{0, 1, 2}};
  floor.front = {kFront};
  floor.back = {kBack};
  const RenderOptions o = flatOptions();
  const Image image = rasterize({floor}, cameraOnZ(3.0), o);
  CHECK(pixel(image, 16, 20) == encoded(kFront));        // bottom row: floor
  CHECK(pixel(image, 16, 0) == encoded(o.backgroundTop));  // top row: sky
}

TEST_CASE("lighting: a face turned to the key light is brighter than one turned away, both sides lit", "[render]") {
  RenderOptions o;
  o.backgroundTop = o.backgroundBottom = srgb(0, 0, 0);
  const Camera cam = cameraOnZ(3.0);
  auto centre = [&](const Vec3& normal, double eyeZ) {
    RenderMesh m = triangleAt(0.0, 1.0, srgb(128, 128, 128), srgb(128, 128, 128));
    m.normals.assign(3, normal.normalized());
    return pixel(rasterize({m}, cameraOnZ(eyeZ), o), 16, 10)[0];
  };
  // The key light is up and to the left of the camera: normals tilted that way get more light.
  const Vec3 towardsKey = o.lighting.keyDirection.x() * cam.right + o.lighting.keyDirection.y() * cam.up -
                          o.lighting.keyDirection.z() * cam.forward;
  CHECK(centre(towardsKey, 3.0) > centre(Vec3(0.5, -0.6, 0.6), 3.0));
  // Seen from behind, the back side is shaded with the flipped normal, not left black.
  CHECK(centre(Vec3::UnitZ(), -3.0) > 40);
}

TEST_CASE("the same scene renders to the same bytes at 1 and 2 threads", "[render]") {
  Mesh grid = makeGrid(1.0, 1.0, 24, 24);
  for (Node& n : grid.nodes) n.x.z() = 0.15 * std::sin(7 * n.x.x()) * std::cos(5 * n.x.y());
  grid.updateGeometry();
  FrameStyle style;
  style.wireframe = true;
  style.color = ColorMode::Sizing;
  const Camera cam = makeCamera({0.9, 0.4, 1.6}, {0.5, 0.5, 0}, {0, 1, 0}, 45, 0.05, 20, 160, 90);
  const std::vector<RenderMesh> meshes = {clothRenderMesh(grid, 0, style),
                                          groundPlane(-0.2, cam.eye, 20.0, 0.25, srgb(180, 180, 170))};
  RenderOptions o;
  o.tileSize = 8;  // many tiles, so that two threads interleave them
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const Image one = rasterize(meshes, cam, o);
  omp_set_num_threads(2);
  const Image two = rasterize(meshes, cam, o);
  omp_set_num_threads(saved);
  CHECK(one.pixels == two.pixels);
  // And the scene is not trivially empty.
  const Image empty = rasterize({}, cam, o);
  long lit = 0;
  for (int y = 0; y < one.height; ++y)
    for (int x = 0; x < one.width; ++x) lit += pixel(one, x, y) != pixel(empty, x, y);
  CHECK(lit > one.width * one.height / 4);
}

TEST_CASE("supersampling blends an edge pixel between the two colours", "[render]") {
  // A square covering the left half of the view exactly: the column at the boundary is pure, the
  // anti-aliased column lies at a non-integer edge.
  RenderMesh m;
  const Camera cam = cameraOnZ(3.0);
  // Put the right edge at pixel x = 16.5 (half of pixel 16 covered).
  const double halfWidth = 3.0 * std::tan(30.0 * M_PI / 180.0) * cam.aspect();  // world half-width at z = 0
  const double edge = (16.5 / 33.0 * 2 - 1) * halfWidth;
  m.positions = {{-10, -10, 0}, {edge, -10, 0}, {edge, 10, 0}, {-10, 10, 0}};
  m.normals.assign(4, Vec3::UnitZ());
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  m.front = m.back = {srgb(255, 255, 255), srgb(255, 255, 255)};
  const Image image = rasterize({m}, cam, flatOptions(2));
  CHECK(pixel(image, 10, 10)[0] == 255);
  CHECK(pixel(image, 20, 10)[0] == 10);
  const int blended = pixel(image, 16, 10)[0];
  CHECK(blended > 100);
  CHECK(blended < 220);
}
