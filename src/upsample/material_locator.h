#pragma once
// Finds which face of a cloth mesh holds a material point, and where in it (barycentric coordinates). The adaptive
// mesh changes every frame, so the locator is rebuilt per frame: a uniform grid over material space whose cells list
// the faces whose material bounding boxes overlap them (O(F) to build, about O(1) per query).
//
// Panels are separate in material space (a seam joins them only in the world), so a point lies in one face of one
// panel. Points outside every face (round-off at a boundary, or an operator made for a slightly different panel)
// snap to the nearest point of the nearest face; `distance` says how far that was.
#include <vector>

#include "mesh/mesh.h"

namespace adacloth {

struct MaterialLocation {
  int face = -1;                  // -1 only for a mesh without faces
  Vec3 bary = Vec3(1, 0, 0);      // weights of the face's corners 0,1,2 (>= 0, sum 1)
  double distance = 0.0;          // m: from the query point to the face in material space (0 inside)
};

class MaterialLocator {
 public:
  // Reads only verts[].u and faces[].verts of `mesh`, which must outlive the locator and stay unchanged.
  explicit MaterialLocator(const Mesh& mesh);

  // The face holding `u` (material coordinates, m). On an edge shared by two faces, the face in which the point is
  // deepest (ties: the lower face index), so the answer does not depend on the grid.
  MaterialLocation locate(const Vec2& u) const;

 private:
  const Mesh& mesh_;
  Vec2 origin_ = Vec2::Zero();  // m, lower corner of the grid
  double cell_ = 1.0;           // m, side of a square cell
  int nx_ = 1, ny_ = 1;
  std::vector<int> cellStart_;  // nx*ny + 1 offsets into cellFaces_ (compressed rows)
  std::vector<int> cellFaces_;  // faces per cell, in increasing face order

  int cellX(double x) const;
  int cellY(double y) const;
  // Best candidate among the faces of cell (i, j) for `u`, updating `best` (smaller distance, then deeper, then
  // lower index).
  void visitCell(int i, int j, const Vec2& u, MaterialLocation& best, double& bestDepth) const;
};

// Barycentric coordinates of the point of triangle (a, b, c) nearest to `u`, and the distance to it (m).
MaterialLocation nearestInTriangle(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& u);

}  // namespace adacloth
