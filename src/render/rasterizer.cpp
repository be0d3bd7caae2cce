#include "render/rasterizer.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace adacloth {
namespace {

// A triangle after near-plane clipping and projection, in sample coordinates (sample (i, j) has its centre at
// (i + 0.5, j + 0.5)). Clipping can turn one input triangle into two; both keep the input triangle's identity and
// the barycentric coordinates of their corners in it, so attributes interpolate from the original vertices.
struct ScreenTri {
  double a[3], b[3], c[3];  // screen barycentric of corner i: l_i = a x + b y + c (sum 1, >= 0 inside)
  float invDepth[3];        // 1 / depth of each corner (1/m): linear in screen space
  float corner[3][3];       // corner[i][j]: weight of input vertex j in corner i
  float edgeScale[3];       // distance (samples) from the edge opposite corner i = l_i * edgeScale[i]
  int x0, y0, x1, y1;       // sample bounding box, inclusive, inside the image
  int mesh, tri;
  bool front, clipped;
};

// A corner during clipping: camera coordinates (x right, y up, z = depth) and weights of the input vertices.
struct ClipVertex {
  Vec3 view;
  Vec3 weights;
};

struct Frame {
  const Camera& camera;
  int sampleWidth, sampleHeight;
  double focal;  // samples per unit of lateral offset at depth 1
};

Vec3 toView(const Camera& cam, const Vec3& x) {
  const Vec3 d = x - cam.eye;
  return {cam.right.dot(d), cam.up.dot(d), cam.forward.dot(d)};
}

// Sutherland-Hodgman against depth >= near: a triangle becomes 0, 3 or 4 corners.
int clipNear(const ClipVertex in[3], double near, ClipVertex out[4]) {
  int n = 0;
  for (int i = 0; i < 3; ++i) {
    const ClipVertex &p = in[i], &q = in[(i + 1) % 3];
    const bool pIn = p.view.z() >= near, qIn = q.view.z() >= near;
    if (pIn) out[n++] = p;
    if (pIn != qIn) {
      const double t = (near - p.view.z()) / (q.view.z() - p.view.z());
      out[n++] = {p.view + t * (q.view - p.view), p.weights + t * (q.weights - p.weights)};
    }
  }
  return n;
}

// True when all corners are outside one side plane of the frustum (the triangle cannot be visible).
bool outsideOneSide(const ClipVertex v[3], const Camera& cam) {
  const double ty = std::tan(0.5 * cam.fovYDeg * M_PI / 180.0), tx = ty * cam.aspect();
  auto all = [&](auto outside) { return outside(v[0].view) && outside(v[1].view) && outside(v[2].view); };
  return all([&](const Vec3& p) { return p.z() > cam.far; }) || all([&](const Vec3& p) { return p.z() < cam.near; }) ||
         all([&](const Vec3& p) { return p.x() > tx * p.z(); }) || all([&](const Vec3& p) { return -p.x() > tx * p.z(); }) ||
         all([&](const Vec3& p) { return p.y() > ty * p.z(); }) || all([&](const Vec3& p) { return -p.y() > ty * p.z(); });
}

// Projects three clipped corners; false when the result is degenerate or off screen.
bool setupScreenTri(const Frame& f, const ClipVertex* v, ScreenTri& t) {
  double x[3], y[3];
  for (int i = 0; i < 3; ++i) {
    x[i] = 0.5 * f.sampleWidth + f.focal * v[i].view.x() / v[i].view.z();
    y[i] = 0.5 * f.sampleHeight - f.focal * v[i].view.y() / v[i].view.z();
    t.invDepth[i] = float(1.0 / v[i].view.z());
    for (int j = 0; j < 3; ++j) t.corner[i][j] = float(v[i].weights[j]);
  }
  const double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);  // twice the signed area
  if (!(std::abs(area) > 1e-12)) return false;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;  // the edge opposite corner i runs from j to k
    t.a[i] = (y[j] - y[k]) / area;
    t.b[i] = (x[k] - x[j]) / area;
    t.c[i] = (x[j] * y[k] - x[k] * y[j]) / area;
    t.edgeScale[i] = float(std::abs(area) / std::hypot(x[k] - x[j], y[k] - y[j]));
  }
  const double minX = std::min({x[0], x[1], x[2]}), maxX = std::max({x[0], x[1], x[2]});
  const double minY = std::min({y[0], y[1], y[2]}), maxY = std::max({y[0], y[1], y[2]});
  // Samples whose centre s + 0.5 lies within [min, max]; clamped to the image in double before converting.
  t.x0 = int(std::max(0.0, std::ceil(minX - 0.5)));
  t.x1 = int(std::min(f.sampleWidth - 1.0, std::floor(maxX - 0.5)));
  t.y0 = int(std::max(0.0, std::ceil(minY - 0.5)));
  t.y1 = int(std::min(f.sampleHeight - 1.0, std::floor(maxY - 0.5)));
  return t.x0 <= t.x1 && t.y0 <= t.y1;
}

// Clips and projects one input triangle, appending 0, 1 or 2 screen triangles.
void setupTriangle(const Frame& f, const RenderMesh& mesh, int meshIndex, int tri, std::vector<ScreenTri>& out) {
  const Tri& ids = mesh.triangles[tri];
  ClipVertex v[3];
  for (int i = 0; i < 3; ++i) v[i] = {toView(f.camera, mesh.positions[ids[i]]), Vec3::Unit(i)};
  if (outsideOneSide(v, f.camera)) return;
  ScreenTri t;
  t.mesh = meshIndex;
  t.tri = tri;
  t.front = f.camera.isFrontFacing(mesh.positions[ids[0]], mesh.positions[ids[1]], mesh.positions[ids[2]]);
  ClipVertex clipped[4];
  const int n = clipNear(v, f.camera.near, clipped);
  t.clipped = n != 3 || v[0].view.z() < f.camera.near || v[1].view.z() < f.camera.near ||
              v[2].view.z() < f.camera.near;
  if (n >= 3 && setupScreenTri(f, clipped, t)) out.push_back(t);
  if (n == 4) {
    const ClipVertex second[3] = {clipped[0], clipped[2], clipped[3]};
    if (setupScreenTri(f, second, t)) out.push_back(t);
  }
}

// Every screen triangle, in input order (mesh by mesh, triangle by triangle) whatever the thread count: with
// schedule(static) each thread gets one contiguous chunk, in thread order, so concatenating per-thread lists
// restores the input order.
std::vector<ScreenTri> setupAll(const Frame& f, const std::vector<RenderMesh>& meshes) {
  std::vector<std::pair<int, int>> refs;
  for (int m = 0; m < int(meshes.size()); ++m)
    for (int t = 0; t < int(meshes[m].triangles.size()); ++t) refs.emplace_back(m, t);
  std::vector<std::vector<ScreenTri>> perThread(omp_get_max_threads());
#pragma omp parallel
  {
    std::vector<ScreenTri>& mine = perThread[omp_get_thread_num()];
#pragma omp for schedule(static)
    for (long i = 0; i < long(refs.size()); ++i)
      setupTriangle(f, meshes[refs[i].first], refs[i].first, refs[i].second, mine);
  }
  std::vector<ScreenTri> all;
  for (auto& part : perThread) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// For every tile, the screen triangles whose bounding box touches it, in input order: a counting sort into one flat
// array (tile t's triangles are order[first[t] .. first[t+1])). Most triangles touch one tile, so the two serial
// passes are a few increments per triangle; growing thousands of vectors instead was a tenth of the frame time.
struct Bins {
  std::vector<int> first, order;
};

Bins binByTile(const std::vector<ScreenTri>& tris, int tileSamples, int tilesX, int tilesY) {
  std::vector<std::array<int, 4>> ranges(tris.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < long(tris.size()); ++i)
    ranges[i] = {tris[i].x0 / tileSamples, tris[i].y0 / tileSamples, tris[i].x1 / tileSamples,
                 tris[i].y1 / tileSamples};
  Bins bins;
  bins.first.assign(size_t(tilesX) * tilesY + 1, 0);
  for (const auto& r : ranges)
    for (int ty = r[1]; ty <= r[3]; ++ty)
      for (int tx = r[0]; tx <= r[2]; ++tx) ++bins.first[size_t(ty) * tilesX + tx + 1];
  for (size_t t = 1; t < bins.first.size(); ++t) bins.first[t] += bins.first[t - 1];
  std::vector<int> cursor(bins.first.begin(), bins.first.end() - 1);
  bins.order.resize(bins.first.back());
  for (int i = 0; i < int(ranges.size()); ++i)
    for (int ty = ranges[i][1]; ty <= ranges[i][3]; ++ty)
      for (int tx = ranges[i][0]; tx <= ranges[i][2]; ++tx) bins.order[cursor[size_t(ty) * tilesX + tx]++] = i;
  return bins;
}

// What a sample sees after rasterization: the nearest screen triangle and its screen barycentrics there.
struct Sample {
  float invDepth;  // 0 = nothing
  int tri;         // index into the screen triangles, -1 = background
  float l[3];
};

struct Tile {
  int x0, y0, x1, y1;  // samples, exclusive upper bounds
};

// Narrows [from, to] to the samples of row py that can be inside the triangle (l_i = a_i x + k_i >= 0 bounds x on
// one side per edge), widened by one sample so that round-off cannot lose any: the exact test still decides.
bool rowSpan(const ScreenTri& t, double py, int& from, int& to) {
  double lo = from, hi = to;
  for (int i = 0; i < 3; ++i) {
    const double k = t.b[i] * py + t.c[i];
    if (t.a[i] > 0) lo = std::max(lo, std::floor(-k / t.a[i] - 0.5) - 1.0);
    else if (t.a[i] < 0) hi = std::min(hi, std::ceil(-k / t.a[i] - 0.5) + 1.0);
    else if (k < 0) return false;
  }
  if (lo > hi) return false;
  from = int(lo);
  to = int(hi);
  return true;
}

void rasterizeTile(const std::vector<ScreenTri>& tris, const int* bin, const int* binEnd, const Tile& tile,
                   float minInvDepth, std::vector<Sample>& samples) {
  const int w = tile.x1 - tile.x0;
  for (Sample& s : samples) s = {0.0f, -1, {0, 0, 0}};
  for (; bin != binEnd; ++bin) {
    const int index = *bin;
    const ScreenTri& t = tris[index];
    const int x0 = std::max(t.x0, tile.x0), x1 = std::min(t.x1, tile.x1 - 1);
    const int y0 = std::max(t.y0, tile.y0), y1 = std::min(t.y1, tile.y1 - 1);
    for (int sy = y0; sy <= y1; ++sy) {
      const double py = sy + 0.5;
      int from = x0, to = x1;
      if (!rowSpan(t, py, from, to)) continue;
      for (int sx = from; sx <= to; ++sx) {
        const double px = sx + 0.5;
        const double l0 = t.a[0] * px + t.b[0] * py + t.c[0];
        const double l1 = t.a[1] * px + t.b[1] * py + t.c[1];
        const double l2 = t.a[2] * px + t.b[2] * py + t.c[2];
        if (l0 < 0 || l1 < 0 || l2 < 0) continue;
        const float invDepth = float(l0 * t.invDepth[0] + l1 * t.invDepth[1] + l2 * t.invDepth[2]);
        Sample& s = samples[(sy - tile.y0) * w + (sx - tile.x0)];
        // Nearer = larger 1/depth; strictly nearer wins, so on a tie the earlier triangle stays. Beyond far: skip.
        if (invDepth <= s.invDepth || invDepth < minInvDepth) continue;
        s = {invDepth, index, {float(l0), float(l1), float(l2)}};
      }
    }
  }
}

// x^n by squaring: std::pow per sample was a fifth of the frame time.
float powInt(float x, int n) {
  float result = 1.0f;
  for (; n > 0; n >>= 1, x *= x)
    if (n & 1) result *= x;
  return result;
}

struct Shader {
  const Camera& camera;
  const std::vector<RenderMesh>& meshes;
  const std::vector<ScreenTri>& tris;
  const RenderOptions& options;
  Vec3 key, fill, half;  // world directions towards the lights; half vector of the key light and the view axis
  double wireHalfWidth;  // samples

  Rgb checker(const RenderMesh& mesh, const Vec3& p, const Rgb& base) const {
    const long cell = long(std::floor(p.x() / mesh.checker)) + long(std::floor(p.z() / mesh.checker));
    // Fade the pattern with distance so that it does not alias into moire near the horizon.
    const double fade = std::clamp(1.0 - (p - camera.eye).norm() / (40.0 * mesh.checker), 0.0, 1.0);
    return (cell & 1) ? Rgb(base * float(1.0 - 0.18 * fade)) : base;
  }

  Rgb shade(const Sample& s) const {
    const ScreenTri& t = tris[s.tri];
    const RenderMesh& mesh = meshes[t.mesh];
    const Tri& ids = mesh.triangles[t.tri];
    // Perspective-correct weights of the clipped corners, then of the input vertices.
    const float depth = 1.0f / s.invDepth;
    float w[3];
    for (int i = 0; i < 3; ++i) w[i] = s.l[i] * t.invDepth[i] * depth;
    double b[3];
    for (int j = 0; j < 3; ++j) b[j] = w[0] * t.corner[0][j] + w[1] * t.corner[1][j] + w[2] * t.corner[2][j];
    Vec3 n = b[0] * mesh.normals[ids[0]] + b[1] * mesh.normals[ids[1]] + b[2] * mesh.normals[ids[2]];
    const double length = n.norm();
    n = length > 0 ? Vec3(n / length) : Vec3(-camera.forward);
    if (!t.front) n = -n;  // two-sided: the back side is lit as seen from its own side
    Rgb base = t.front ? mesh.front[t.tri] : mesh.back[t.tri];
    if (mesh.checker > 0)  // the world position is only needed here
      base = checker(mesh, b[0] * mesh.positions[ids[0]] + b[1] * mesh.positions[ids[1]] + b[2] * mesh.positions[ids[2]],
                     base);
    const Lighting& L = options.lighting;
    const float diffuse = L.ambient + L.key * float(std::max(0.0, n.dot(key))) +
                          L.fill * float(std::max(0.0, n.dot(fill)));
    const float sheen = L.specular * powInt(float(std::max(0.0, n.dot(half))), L.shininess);
    return base * diffuse + Rgb::Constant(sheen);
  }

  bool hasWire(const Sample& s) const { return meshes[tris[s.tri].mesh].wireframe && !tris[s.tri].clipped; }

  Rgb wire(const Sample& s, const Rgb& c) const {
    const ScreenTri& t = tris[s.tri];
    float d = std::numeric_limits<float>::infinity();
    for (int i = 0; i < 3; ++i) d = std::min(d, s.l[i] * t.edgeScale[i]);
    // Coverage of a line of the given width by this sample, with a one-sample soft edge.
    const float cover = std::clamp(float(wireHalfWidth) + 0.5f - d, 0.0f, 1.0f) * options.wireOpacity;
    return c * (1 - cover) + options.wireColor * cover;
  }
};

Vec3 cameraToWorld(const Camera& c, const Vec3& d) {
  return (d.x() * c.right + d.y() * c.up - d.z() * c.forward).normalized();
}

// The colour of one pixel: its samples averaged in linear light. Like hardware multisampling, a surface is shaded
// once per pixel and triangle, at the centroid of the samples it covers (screen barycentrics and 1/depth are affine,
// so their mean is their value there, inside the triangle); coverage and wireframe lines stay per sample. Shading
// every sample was three quarters of the frame time at 2x2.
// The common case: every sample of the pixel sees the same triangle.
Rgb resolveCoveredPixel(const Shader& shader, const Sample* const* samples, int count) {
  Sample mean = {0.0f, samples[0]->tri, {0, 0, 0}};
  for (int i = 0; i < count; ++i) {
    mean.invDepth += samples[i]->invDepth;
    for (int k = 0; k < 3; ++k) mean.l[k] += samples[i]->l[k];
  }
  mean.invDepth /= count;
  for (int k = 0; k < 3; ++k) mean.l[k] /= count;
  const Rgb color = shader.shade(mean);
  if (!shader.hasWire(mean)) return color;
  Rgb sum = Rgb::Zero();
  for (int i = 0; i < count; ++i) sum += shader.wire(*samples[i], color);
  return sum / float(count);
}

Rgb resolvePixel(const Shader& shader, const Sample* const* samples, int count, const Rgb* background) {
  bool covered = samples[0]->tri >= 0;
  for (int i = 1; i < count && covered; ++i) covered = samples[i]->tri == samples[0]->tri;
  if (covered) return resolveCoveredPixel(shader, samples, count);
  constexpr int kMax = 64;  // supersample <= 8
  int groupOf[kMax], groupTri[kMax], groupCount[kMax], groups = 0;
  Sample mean[kMax];
  for (int i = 0; i < count; ++i) {
    const Sample& s = *samples[i];
    groupOf[i] = -1;
    if (s.tri < 0) continue;
    int g = 0;
    while (g < groups && groupTri[g] != s.tri) ++g;
    if (g == groups) {
      groupTri[g] = s.tri;
      groupCount[g] = 0;
      mean[g] = {0.0f, s.tri, {0, 0, 0}};
      ++groups;
    }
    groupOf[i] = g;
    ++groupCount[g];
    mean[g].invDepth += s.invDepth;
    for (int k = 0; k < 3; ++k) mean[g].l[k] += s.l[k];
  }
  Rgb color[kMax];
  bool wire[kMax];
  for (int g = 0; g < groups; ++g) {
    mean[g].invDepth /= groupCount[g];
    for (int k = 0; k < 3; ++k) mean[g].l[k] /= groupCount[g];
    color[g] = shader.shade(mean[g]);
    wire[g] = shader.hasWire(mean[g]);
  }
  Rgb sum = Rgb::Zero();
  for (int i = 0; i < count; ++i) {
    const int g = groupOf[i];
    if (g < 0) sum += background[i];
    else sum += wire[g] ? shader.wire(*samples[i], color[g]) : color[g];
  }
  return sum / float(count);
}

// Resolves the pixels of a tile and encodes them as sRGB.
void resolveTile(const Shader& shader, const Tile& tile, const std::vector<Sample>& samples, int ss,
                 int sampleHeight, Image& image) {
  const int w = tile.x1 - tile.x0;
  const RenderOptions& o = shader.options;
  const Sample* pixelSamples[64];
  Rgb background[64];
  for (int py = tile.y0 / ss; py < tile.y1 / ss; ++py) {
    for (int j = 0, n = 0; j < ss; ++j) {  // the background gradient is the same for every pixel of the row
      const float v = (py * ss + j + 0.5f) / sampleHeight;
      for (int i = 0; i < ss; ++i, ++n) background[n] = o.backgroundTop * (1 - v) + o.backgroundBottom * v;
    }
    for (int px = tile.x0 / ss; px < tile.x1 / ss; ++px) {
      int n = 0;
      for (int j = 0; j < ss; ++j) {
        const int sy = py * ss + j;
        for (int i = 0; i < ss; ++i, ++n) pixelSamples[n] = &samples[(sy - tile.y0) * w + (px * ss + i - tile.x0)];
      }
      const Rgb c = resolvePixel(shader, pixelSamples, n, background);
      toSrgb8(c, image.at(px, py));
    }
  }
}

}  // namespace

Image rasterize(const std::vector<RenderMesh>& meshes, const Camera& camera, const RenderOptions& options) {
  const int ss = std::clamp(options.supersample, 1, 8), tilePixels = std::max(1, options.tileSize);
  const Frame frame{camera, camera.width * ss, camera.height * ss, camera.focalPixels() * ss};
  const std::vector<ScreenTri> tris = setupAll(frame, meshes);

  const int tileSamples = tilePixels * ss;
  const int tilesX = (frame.sampleWidth + tileSamples - 1) / tileSamples;
  const int tilesY = (frame.sampleHeight + tileSamples - 1) / tileSamples;
  const Bins bins = binByTile(tris, tileSamples, tilesX, tilesY);

  const Lighting& L = options.lighting;
  Shader shader{camera, meshes, tris, options, cameraToWorld(camera, L.keyDirection),
                cameraToWorld(camera, L.fillDirection), Vec3::Zero(), 0.5 * options.wireWidth * ss};
  shader.half = (shader.key - camera.forward).normalized();

  Image image(camera.width, camera.height, 3);
  const float minInvDepth = float(1.0 / camera.far);
#pragma omp parallel
  {
    std::vector<Sample> samples(size_t(tileSamples) * tileSamples);
#pragma omp for schedule(dynamic, 1)
    for (int tileIndex = 0; tileIndex < tilesX * tilesY; ++tileIndex) {
      const int tx = tileIndex % tilesX, ty = tileIndex / tilesX;
      const Tile tile{tx * tileSamples, ty * tileSamples, std::min((tx + 1) * tileSamples, frame.sampleWidth),
                      std::min((ty + 1) * tileSamples, frame.sampleHeight)};
      rasterizeTile(tris, bins.order.data() + bins.first[tileIndex], bins.order.data() + bins.first[tileIndex + 1],
                    tile, minInvDepth, samples);
      resolveTile(shader, tile, samples, ss, frame.sampleHeight, image);
    }
  }
  return image;
}

RenderMesh groundPlane(double height, const Vec3& center, double halfSize, double cell, const Rgb& color) {
  RenderMesh g;
  const double x = center.x(), z = center.z(), h = halfSize;
  g.positions = {{x - h, height, z - h}, {x + h, height, z - h}, {x + h, height, z + h}, {x - h, height, z + h}};
  g.normals.assign(4, Vec3::UnitY());
  // Counter-clockwise seen from above (+y).
  g.triangles = {{0, 2, 1}, {0, 3, 2}};
  g.front.assign(2, color);
  g.back.assign(2, Rgb(color * 0.5f));
  g.checker = cell;
  return g;
}

std::vector<Vec3> vertexNormals(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles) {
  std::vector<Vec3> normals(positions.size(), Vec3::Zero());
  // Serial in triangle order: each normal is a sum in a fixed order (deterministic).
  for (const Tri& t : triangles) {
    const Vec3 n = (positions[t[1]] - positions[t[0]]).cross(positions[t[2]] - positions[t[0]]);  // 2 x area
    for (int i : t) normals[i] += n;
  }
  for (Vec3& n : normals)
    if (n.norm() > 0) n.normalize();
  return normals;
}

}  // namespace adacloth
