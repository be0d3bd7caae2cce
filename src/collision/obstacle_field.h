#pragma once
// Signed distance to the obstacles at one instant, from face trees of their meshes (and the ground planes
// analytically). Used for the sizing field's obstacle term (ObstacleProximity, a ProximityQuery) and to measure how
// deep cloth nodes are inside obstacles. The sign of a mesh's distance comes from the angle-weighted pseudo-normal
// of the nearest feature (face, edge or corner), which is exact for closed, consistently oriented meshes.
#include <optional>
#include <vector>

#include "collision/bvh.h"
#include "collision/obstacle.h"
#include "collision/wide_bvh.h"
#include "sizing/proximity.h"

namespace adacloth {

class ObstacleField {
 public:
  explicit ObstacleField(const std::vector<ObstaclePose>& poses);
  // Moves the field to other poses of the same obstacles (as the simulation does every step and every frame):
  // positions are replaced and the face trees refitted, or built again once loose (WideBvh::update; building them
  // was a third of cape_run's frame when it was done every step). Returns false, changing nothing, when `poses` are
  // not of the field's obstacles and meshes; construct a new field then. Answers are bit for bit a new field's:
  // nearest() does not depend on how a tree groups the faces.
  bool moveTo(const std::vector<ObstaclePose>& poses);
  // The obstacles' motion into the current poses: each vertex's (and plane's) mean velocity over the dt (s) since
  // `start` (poses of the same obstacles), which nearest() then reports at the nearest point
  // (ProximitySample::velocity; the contacts' friction acts relative to it). Until this is called, and after a call
  // with poses that do not match, every surface is reported at rest (moveTo puts them at rest too). Returns false
  // when `start` does not match.
  bool setMotion(const std::vector<ObstaclePose>& start, double dt);
  // The nearest obstacle surface point to x within maxDistance (m): signed distance (negative inside) and the
  // distance's gradient (the outward normal). Nothing when no obstacle is that close (a node deeper inside than
  // maxDistance is not found either: pass a large maxDistance to measure penetration).
  // With `which`, also the obstacle the nearest point lies on (unchanged when nothing is found).
  std::optional<ProximitySample> nearest(const Vec3& x, double maxDistance, const Obstacle** which = nullptr) const;
  // How deep x is inside the obstacles (m): minus nearest(x, infinity)'s distance when that is negative, else 0.
  // A point outside the box of a mesh that bounds a solid (closed, its faces outward) is not inside that mesh, so
  // when every mesh is such a mesh and x is outside all their boxes the answer is the ground planes' and no tree is
  // searched (most cloth nodes of a character shot are there; the search was 4 % of cape_run's frame). The same
  // answer as from nearest() but at the surface, where the sign of a rounded zero distance may differ.
  double depthInside(const Vec3& x) const;
  bool empty() const { return meshes_.empty() && planes_.empty(); }

  // A mesh obstacle's surface as the field holds it: positions, faces and a tree over the faces' boxes (exact, not
  // grown). Other queries about the same surfaces at the same instant read it instead of building their own trees.
  // The tree is brought up to date here, not at every move (the remesher's sweep guard asks once a frame, the field
  // moves every step): not to be called from two threads at once.
  struct MeshSurface {
    const std::vector<Vec3>& x;
    const std::vector<Tri>& faces;
    const Bvh& tree;
  };
  std::vector<MeshSurface> meshSurfaces() const;

 private:
  struct MeshData {
    const Obstacle* obstacle = nullptr;
    std::vector<Vec3> x;
    std::vector<Vec3> v;  // per vertex (m/s), from setMotion; empty: at rest
    std::vector<Tri> faces;
    std::vector<int> vertexFaceStart, vertexFaces;  // faces around each vertex, ascending (CSR)
    std::vector<int> edgeFaceStart, edgeFaces;      // faces along each edge, ascending, once per side (CSR)
    std::vector<std::array<int, 2>> edges;       // sorted
    std::vector<std::array<int, 3>> faceEdge;    // index in `edges` of each face's edges (t0 t1, t1 t2, t2 t0)
    std::vector<Aabb> faceBox;                   // the faces' boxes at the current positions
    Aabb box;                                    // their union
    bool solid = false;  // closed (two faces at every edge) and facing out (positive volume) when constructed
    WideBvh tree;                                // for nearest()
    mutable Bvh surfaceTree;                     // for meshSurfaces(), updated when asked
    mutable bool surfaceTreeCurrent = false;
  };
  // Sets m's positions to x and recomputes its tree (built anew, or with `refit` refitted while it stays tight).
  static void place(MeshData& m, const std::vector<Vec3>& x, bool refit);
  // The planes' part of nearest(): the answer and its bound when a plane is within `bestAbs` (m).
  void nearestPlane(const Vec3& x, double& bestAbs, std::optional<ProximitySample>& best,
                    const Obstacle** which) const;
  // The pseudo-normals of a query's nearest feature, computed for that feature alone: the field moves every step
  // and answers a few thousand queries, and computing every face's and edge's normal at each move was most of
  // moving it (crowd: 2-3 % of the frame). Computed as a computation of all of them would (edges and vertices sum
  // their faces' normals in face order), so bit for bit the same.
  static Vec3 faceNormal(const MeshData& m, int f);
  static Vec3 edgeNormal(const MeshData& m, int e);  // sum of the adjacent face normals
  // The angle-weighted (unnormalized) pseudo-normal of vertex v.
  static Vec3 vertexNormal(const MeshData& m, int v);
  std::vector<MeshData> meshes_;
  std::vector<std::pair<Vec3, Vec3>> planes_;  // point, unit normal
  std::vector<Vec3> planeVelocity_;             // m/s, from setMotion (zero: at rest)
  std::vector<const Obstacle*> planeObstacles_;  // the ground of each plane
};

// The sizing field's view of the obstacles: "near" means within `range` (m), about ten cloth thicknesses
// (docs/design.md §2).
class ObstacleProximity : public ProximityQuery {
 public:
  // `field` must outlive this.
  ObstacleProximity(const ObstacleField& field, double range) : field_(field), range_(range) {}
  std::optional<ProximitySample> query(const Vec3& x) const override { return field_.nearest(x, range_); }

 private:
  const ObstacleField& field_;
  double range_;
};

}  // namespace adacloth
