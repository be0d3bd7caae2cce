#pragma once
// The surfaces handles can be bound to (`bind_to`), built from the scene's obstacles for src/dynamics/handles.h.
#include <memory>
#include <vector>

#include "collision/obstacle.h"
#include "config/shot.h"
#include "dynamics/handles.h"

namespace adacloth {

// The obstacle as a BindSurface. It holds its own copy of the obstacle, so it outlives the scene's vector (a handle
// keeps it across remeshes) and its sequence cache is not shared with the collision phase.
std::shared_ptr<const BindSurface> makeBindSurface(const Obstacle& obstacle);

// A BindSurface for every obstacle some handle of the shot is bound to, by name.
BindSurfaces bindSurfacesOf(const Shot& shot, const std::vector<Obstacle>& obstacles);

// For each query point (m), the nearest point of the triangles `faces` at node positions `x` (a bounding volume
// hierarchy built once per call; ties go to the lowest face index, so the answer depends only on the input).
std::vector<SurfacePoint> nearestOnTriangles(const std::vector<Vec3>& x, const std::vector<Tri>& faces,
                                             const std::vector<Vec3>& query);

// For each query point (m), every triangle of `faces` at node positions `x` closer than radius[k] (m), with its
// nearest point, by face index.
std::vector<std::vector<SurfacePoint>> trianglesWithin(const std::vector<Vec3>& x, const std::vector<Tri>& faces,
                                                       const std::vector<Vec3>& query,
                                                       const std::vector<double>& radius);

}  // namespace adacloth
