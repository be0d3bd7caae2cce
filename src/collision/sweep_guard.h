#pragma once
// Keeps remeshing from creating intersections (docs/design.md §3, §6). A flip or a collapse changes the shape of a
// piece of cloth surface while its nodes stay put: a flip of edge ab with opposite nodes c and d turns triangles abc,
// abd into cda, cdb, sweeping the tetrahedron abcd; a collapse of node u into v moves each triangle u w w' of u's fan
// to v w w', sweeping the tetrahedron u v w w'. When no other triangle (of this cloth, another cloth or an obstacle)
// and no tetrahedron already swept in the same batch reaches into those tetrahedra, the change can neither create an
// intersection nor carry the surface through anything, so an intersection-free state stays intersection-free.
// A triangle that shares an edge (two corners) with a tetrahedron is one of the faces that change or a neighbour of a
// new face across an edge, and touches the tetrahedron along that edge whatever its shape. It cannot cross the face it
// borders, but a flip makes two faces: the neighbour of cda across ca shares only c with cdb, and where the cloth is
// folded tight it can lie through cdb. The contact passes find crossings as they happen, not ones already there, so
// the cloth then stays through itself (a split that separates the two faces makes it plain); the neighbour is tested
// against each new face it shares one corner with. One that shares a single corner with a tetrahedron can
// still cross a new face that does not hold that corner, so it is tested too: touching at the shared corner is exact
// (the same point projects to the same value on every axis), and the test counts touching as apart. The faces of one
// collapse share its kept node, and are tested against each other the same way (a fan folded over itself).
#include <array>
#include <vector>

#include "collision/bvh.h"
#include "collision/obstacle.h"
#include "collision/obstacle_field.h"
#include "mesh/mesh.h"

namespace adacloth {

using Tet = std::array<Vec3, 4>;
using Triangle = std::array<Vec3, 3>;

// True when the tetrahedron and the triangle overlap by more than `slack` (m) along every separating direction
// (separating axis test over both shapes' face normals and edge-edge cross products). Touching, or overlapping by
// less than `slack`, is not an intersection: rounding at a shared corner or along a shared plane cannot refuse an
// operation.
bool tetIntersectsTriangle(const Tet& tet, const Triangle& tri, double slack = 1e-10);
bool tetsIntersect(const Tet& a, const Tet& b, double slack = 1e-10);
// The same for two triangles; triangles that share a corner touch there and count as apart unless they cross beyond it.
bool trianglesOverlap(const Triangle& a, const Triangle& b, double slack = 1e-10);

// Triangles for sweep queries, in a bounding volume hierarchy or (unindexed, for a set asked only a few times before
// it changes) scanned box by box: the answers are the same.
class TriangleSet {
 public:
  TriangleSet() = default;
  explicit TriangleSet(std::vector<Triangle> triangles, bool indexed = true);
  // Borrows a fixed surface: the triangles `faces` of the points `x`, and a tree built (or refitted) over their boxes
  // in face order. All three must outlive the set and stay unchanged while it is asked. An obstacle's are its
  // field's; copying its triangles and tree for every frame's remeshing (a 5,600-triangle body) was 2-3 % of a
  // character shot's frame.
  TriangleSet(const std::vector<Vec3>& x, const std::vector<Tri>& faces, const Bvh& tree);
  // The faces of a cloth at its current node positions.
  static TriangleSet of(const Mesh& mesh, bool indexed = true);
  // Reads `mesh`'s faces again (as of()), keeping the tree when the face count is the same: it is refitted to the
  // new boxes, which answers the same (a tree is valid over any grouping of its triangles) and costs a fraction of a
  // build. A flip batch changes two faces per flip and keeps the count; the remesher reads the cloth again for every
  // batch, and building a tree each time was 4 % of skirt_walk's frame. Unindexed when the count changed.
  void reread(const Mesh& mesh);
  // Follows the faces through a remesh batch: `faceMap` takes each face the set last read or followed to its index
  // now (-1: removed; faces outside its image are new). The next reread() then keeps an indexed tree when the face
  // count changed too: each face stays in the tree where the face it was sat (a tree is valid over any grouping of
  // its triangles), removed faces leave empty places, and new faces are scanned beside the tree, box by box. A
  // split or collapse batch changes a few dozen faces of thousands, and building the tree again after each was 3 %
  // of skirt_walk's frame. The tree is built afresh once it has grown loose or many faces are beside it.
  void followFaces(const std::vector<int>& faceMap);
  void buildIndex();
  bool indexed() const { return indexed_; }
  // Builds the tree at the first query that comes within the set's bounds instead of now: the other cloths' sets
  // that every cloth's remeshing checks against are mostly never asked near them (a crowd's garments are metres
  // apart), and a single cloth's set is never asked at all. Queries stay const (the remesher asks serially).
  void indexWhenNear() { indexWhenNear_ = true; }
  // True when a triangle that shares at most one corner with `tet` (exact positions) reaches into it, or one that
  // shares two corners (a neighbour across an edge) crosses a face of `made` it shares one corner with.
  bool reaches(const Tet& tet, const std::vector<Triangle>& made = {}) const;
  const Aabb& bounds() const { return bounds_; }

 private:
  // Read from a mesh, in the places of the faces they hold; and beside the tree (unused for a set of fixed triangles).
  void readPlaces(const Mesh& mesh);
  void readEveryFace(const Mesh& mesh);

  std::vector<Triangle> triangles_;  // per place in the tree
  std::vector<Aabb> boxes_;          // per place (empty when the place holds no face)
  std::vector<int> placeFace_;       // per place: the mesh face it holds (-1: none; empty: every face in order)
  std::vector<Triangle> beside_;     // the faces held by no place
  std::vector<Aabb> besideBoxes_;
  Triangle triangleAt(size_t place) const;
  mutable Bvh tree_;
  // A borrowed surface (set for a set of fixed triangles only), used instead of triangles_ and tree_:
  const std::vector<Vec3>* borrowedX_ = nullptr;
  const std::vector<Tri>* borrowedFaces_ = nullptr;
  const Bvh* borrowedTree_ = nullptr;
  mutable bool indexed_ = false;
  bool indexWhenNear_ = false;
  Aabb bounds_;
};

// The triangles of every mesh obstacle of `field`, a set per obstacle borrowing the field's points, faces and tree, so
// `field` must outlive the sets and not move meanwhile (grounds are left out: a flip or collapse of nodes above a
// plane stays above it).
std::vector<TriangleSet> obstacleTriangles(const ObstacleField& field);
std::vector<TriangleSet> obstacleTriangles(ObstacleField&& field) = delete;  // the sets would outlive it

// The check a remesher asks before each flip or collapse of one cloth: `fixed` holds what does not change while the
// cloth is remeshed (obstacles, other cloths), the cloth itself is read afresh at the start of every batch, and the
// sweeps allowed in the current batch are remembered (operations of one batch are checked against the same start).
class SweepGuard {
 public:
  // `checkOwn` false: the cloth's own triangles are not checked (self-collision off).
  SweepGuard(std::vector<const TriangleSet*> fixed, bool checkOwn) : fixed_(std::move(fixed)), checkOwn_(checkOwn) {}
  // `batch` numbers the mesh state; the cloth's triangles are re-read (at the first allow()) only when it changed
  // since they were last read. `mesh` must outlive the batch.
  // `faceMap` is the remesher's (SweepCheck::beginBatch): the faces before the batch that just finished to now.
  void beginBatch(const Mesh& mesh, int batch, const std::vector<int>& faceMap = {});
  // True (and remembered) when nothing reaches into `sweep` and the faces it makes (`made`: SweepCheck in
  // remesh/remesh.h) cross neither their neighbours nor each other; false counts as refused.
  bool allow(const std::vector<Tet>& sweep, const std::vector<Triangle>& made = {});
  int refused() const { return refused_; }

 private:
  std::vector<const TriangleSet*> fixed_;
  bool checkOwn_ = true;
  const Mesh* mesh_ = nullptr;
  int batch_ = -1;     // of the current batch
  TriangleSet own_;
  int ownBatch_ = -1;    // of the mesh state own_ was read from
  int ownQueries_ = 0;   // sweeps asked of own_ since it was read
  std::vector<std::pair<Aabb, Tet>> swept_;  // allowed in the current batch
  int refused_ = 0;
};

}  // namespace adacloth
