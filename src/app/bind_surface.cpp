#include "app/bind_surface.h"

#include <algorithm>
#include <limits>

#include "collision/bvh.h"
#include "collision/geometry.h"

namespace adacloth {

namespace {

Bvh treeOf(const std::vector<Vec3>& x, const std::vector<Tri>& faces) {
  std::vector<Aabb> boxes(faces.size());
  for (size_t f = 0; f < faces.size(); ++f)
    for (int c : faces[f]) boxes[f].add(x[c]);
  Bvh tree;
  tree.build(boxes);
  return tree;
}

}  // namespace

std::vector<SurfacePoint> nearestOnTriangles(const std::vector<Vec3>& x, const std::vector<Tri>& faces,
                                             const std::vector<Vec3>& query) {
  const Bvh tree = treeOf(x, faces);
  std::vector<SurfacePoint> result(query.size());
  for (size_t q = 0; q < query.size(); ++q) {
    SurfacePoint& best = result[q];
    best.distance = std::numeric_limits<double>::infinity();
    tree.nearest(query[q], std::numeric_limits<double>::infinity(), [&](int f) {
      const Tri& t = faces[f];
      TriangleClosest c = closestOnTriangle(query[q], x[t[0]], x[t[1]], x[t[2]]);
      if (c.distance < best.distance || (c.distance == best.distance && f < best.face))
        best = SurfacePoint{f, c.bary, c.distance};
      return best.distance * best.distance;
    });
  }
  return result;
}

std::vector<std::vector<SurfacePoint>> trianglesWithin(const std::vector<Vec3>& x, const std::vector<Tri>& faces,
                                                       const std::vector<Vec3>& query,
                                                       const std::vector<double>& radius) {
  const Bvh tree = treeOf(x, faces);
  std::vector<std::vector<SurfacePoint>> result(query.size());
  for (size_t q = 0; q < query.size(); ++q) {
    Aabb box;
    box.add(query[q] - Vec3::Constant(radius[q]));
    box.add(query[q] + Vec3::Constant(radius[q]));
    tree.query(box, [&](int f) {
      const Tri& t = faces[f];
      TriangleClosest c = closestOnTriangle(query[q], x[t[0]], x[t[1]], x[t[2]]);
      if (c.distance < radius[q]) result[q].push_back(SurfacePoint{f, c.bary, c.distance});
    });
    std::sort(result[q].begin(), result[q].end(),
              [](const SurfacePoint& a, const SurfacePoint& b) { return a.face < b.face; });
  }
  return result;
}

std::shared_ptr<const BindSurface> makeBindSurface(const Obstacle& obstacle) {
  auto own = std::make_shared<const Obstacle>(obstacle);
  auto surface = std::make_shared<BindSurface>();
  surface->name = obstacle.name();
  surface->faces = obstacle.faces();
  surface->positionsAt = [own](double t) { return own->positionsAt(t); };
  surface->nearest = [own](const std::vector<Vec3>& x, const std::vector<Vec3>& query) {
    return nearestOnTriangles(x, own->faces(), query);
  };
  surface->within = [own](const std::vector<Vec3>& x, const std::vector<Vec3>& query,
                          const std::vector<double>& radius) {
    return trianglesWithin(x, own->faces(), query, radius);
  };
  return surface;
}

BindSurfaces bindSurfacesOf(const Shot& shot, const std::vector<Obstacle>& obstacles) {
  BindSurfaces surfaces;
  for (const ClothSpec& cloth : shot.cloths)
    for (const HandleSpec& h : cloth.handles)
      for (const Obstacle& o : obstacles)
        if (!h.bindTo.empty() && o.name() == h.bindTo && !o.isGround() && !surfaces.count(o.name()))
          surfaces[o.name()] = makeBindSurface(o);
  return surfaces;
}

}  // namespace adacloth
