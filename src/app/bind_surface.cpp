#include "app/bind_surface.h"

#include <algorithm>
#include <limits>
#include <mutex>

#include "collision/bvh.h"
#include "collision/geometry.h"

namespace adacloth {

namespace {

std::vector<Aabb> boxesOf(const std::vector<Vec3>& x, const std::vector<Tri>& faces) {
  std::vector<Aabb> boxes(faces.size());
  for (size_t f = 0; f < faces.size(); ++f)
    for (int c : faces[f]) boxes[f].add(x[c]);
  return boxes;
}

Bvh treeOf(const std::vector<Vec3>& x, const std::vector<Tri>& faces) {
  Bvh tree;
  tree.build(boxesOf(x, faces));
  return tree;
}

// A bound surface's tree, kept from one call to the next. A handle binds its new nodes after most remeshes, with the
// surface at a new pose each time: building two trees per call (nearest, then within) over a 5,600-triangle body was
// 1 % of cape_run's frame. The tree is refitted while it stays tight; the answers do not depend on the tree's shape
// (ties go to the lowest face index). Locked, as a surface is shared by the handles bound to it.
class SurfaceTreeCache {
 public:
  template <class Use>
  auto with(const std::vector<Vec3>& x, const std::vector<Tri>& faces, Use&& use) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (x != x_ || !built_) {
      const std::vector<Aabb> boxes = boxesOf(x, faces);
      tree_.update(boxes.data(), boxes.size());
      x_ = x;
      built_ = true;
    }
    return use(tree_);
  }

 private:
  std::mutex mutex_;
  std::vector<Vec3> x_;  // the positions tree_ was fitted to
  Bvh tree_;
  bool built_ = false;
};

std::vector<SurfacePoint> nearestInTree(const Bvh& tree, const std::vector<Vec3>& x, const std::vector<Tri>& faces,
                                        const std::vector<Vec3>& query) {
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

std::vector<std::vector<SurfacePoint>> withinInTree(const Bvh& tree, const std::vector<Vec3>& x,
                                                    const std::vector<Tri>& faces, const std::vector<Vec3>& query,
                                                    const std::vector<double>& radius) {
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

}  // namespace

std::vector<SurfacePoint> nearestOnTriangles(const std::vector<Vec3>& x, const std::vector<Tri>& faces,
                                             const std::vector<Vec3>& query) {
  return nearestInTree(treeOf(x, faces), x, faces, query);
}

std::vector<std::vector<SurfacePoint>> trianglesWithin(const std::vector<Vec3>& x, const std::vector<Tri>& faces,
                                                       const std::vector<Vec3>& query,
                                                       const std::vector<double>& radius) {
  return withinInTree(treeOf(x, faces), x, faces, query, radius);
}

std::shared_ptr<const BindSurface> makeBindSurface(const Obstacle& obstacle) {
  auto own = std::make_shared<const Obstacle>(obstacle);
  auto surface = std::make_shared<BindSurface>();
  surface->name = obstacle.name();
  surface->faces = obstacle.faces();
  surface->positionsAt = [own](double t) { return own->positionsAt(t); };
  auto trees = std::make_shared<SurfaceTreeCache>();
  surface->nearest = [own, trees](const std::vector<Vec3>& x, const std::vector<Vec3>& query) {
    return trees->with(x, own->faces(), [&](const Bvh& tree) { return nearestInTree(tree, x, own->faces(), query); });
  };
  surface->within = [own, trees](const std::vector<Vec3>& x, const std::vector<Vec3>& query,
                                 const std::vector<double>& radius) {
    return trees->with(x, own->faces(),
                       [&](const Bvh& tree) { return withinInTree(tree, x, own->faces(), query, radius); });
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
