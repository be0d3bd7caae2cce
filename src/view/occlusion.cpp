#include "view/occlusion.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace adacloth {

void Occluders::add(const std::vector<Vec3>& positions, const std::vector<Tri>& tris) {
  const int offset = int(x.size());
  x.insert(x.end(), positions.begin(), positions.end());
  for (const Tri& t : tris) triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
}

void Occluders::add(const Mesh& mesh) {
  std::vector<Vec3> positions(mesh.nodes.size());
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = mesh.nodes[i].x;
  std::vector<Tri> tris(mesh.faces.size());
  for (size_t f = 0; f < tris.size(); ++f) tris[f] = mesh.faceNodes(int(f));
  add(positions, tris);
}

namespace {

// Projection at the depth map's resolution: (pixel x, pixel y, depth).
Vec3 projectScaled(const Camera& camera, const Vec3& x, double scale) {
  Vec3 p = camera.project(x);
  p.x() *= scale;
  p.y() *= scale;
  return p;
}

void drawTriangle(DepthMap& map, const std::array<Vec3, 3>& p) {
  const double area = (p[1].x() - p[0].x()) * (p[2].y() - p[0].y()) - (p[2].x() - p[0].x()) * (p[1].y() - p[0].y());
  if (std::abs(area) < 1e-12) return;
  const int x0 = std::max(0, int(std::floor(std::min({p[0].x(), p[1].x(), p[2].x()}))));
  const int x1 = std::min(map.width - 1, int(std::ceil(std::max({p[0].x(), p[1].x(), p[2].x()}))));
  const int y0 = std::max(0, int(std::floor(std::min({p[0].y(), p[1].y(), p[2].y()}))));
  const int y1 = std::min(map.height - 1, int(std::ceil(std::max({p[0].y(), p[1].y(), p[2].y()}))));
  for (int j = y0; j <= y1; ++j)
    for (int i = x0; i <= x1; ++i) {
      const double cx = i + 0.5, cy = j + 0.5;
      double b[3];
      for (int k = 0; k < 3; ++k) {
        const Vec3 &a = p[(k + 1) % 3], &c = p[(k + 2) % 3];
        b[k] = ((c.x() - a.x()) * (cy - a.y()) - (cx - a.x()) * (c.y() - a.y())) / area;
      }
      if (b[0] < 0 || b[1] < 0 || b[2] < 0) continue;
      const double invDepth = b[0] / p[0].z() + b[1] / p[1].z() + b[2] / p[2].z();  // 1/z is linear on screen
      double& d = map.depth[size_t(j) * map.width + i];
      d = std::min(d, 1.0 / invDepth);
    }
}

}  // namespace

DepthMap renderDepthMap(const Camera& camera, const Occluders& occluders) {
  DepthMap map;
  map.camera = camera;
  map.height = kDepthMapHeight;
  map.width = std::max(1, int(std::lround(kDepthMapHeight * camera.aspect())));
  map.depth.assign(size_t(map.width) * map.height, std::numeric_limits<double>::infinity());
  const double scale = double(map.height) / camera.height;
  for (const Tri& t : occluders.triangles) {
    std::array<Vec3, 3> p;
    bool inFront = true;
    for (int k = 0; k < 3; ++k) {
      p[k] = projectScaled(camera, occluders.x[t[k]], scale);
      inFront = inFront && p[k].z() > camera.near;
    }
    if (inFront) drawTriangle(map, p);
  }
  return map;
}

double DepthMap::occludedDistance(const Vec3& x) const {
  const double none = -std::numeric_limits<double>::infinity();
  const Vec3 p = projectScaled(camera, x, double(height) / camera.height);
  if (!(p.z() > camera.near)) return none;
  const int i = int(std::floor(p.x())), j = int(std::floor(p.y()));
  if (i < 0 || j < 0 || i >= width || j >= height) return none;
  double farthest = -std::numeric_limits<double>::infinity();
  for (int dj = -1; dj <= 1; ++dj)
    for (int di = -1; di <= 1; ++di) {
      const int u = std::clamp(i + di, 0, width - 1), v = std::clamp(j + dj, 0, height - 1);
      farthest = std::max(farthest, depth[size_t(v) * width + u]);
    }
  if (std::isinf(farthest)) return none;  // an empty pixel nearby: x is at a silhouette, count it as seen
  return p.z() - kOcclusionBias - kOcclusionBiasPerMetre * p.z() - farthest;
}

}  // namespace adacloth
