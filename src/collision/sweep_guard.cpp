#include "collision/sweep_guard.h"

#include <algorithm>

namespace adacloth {
namespace {

// The shapes of the separating axis test: corners, face normals, edge directions.
// (Fixed-size: the test runs for every triangle near every sweep, so it must not allocate.)
template <size_t N, size_t F, size_t E>
struct Polytope {
  const std::array<Vec3, N>& corners;
  std::array<Vec3, F> normals;
  std::array<Vec3, E> edges;
};

Polytope<4, 4, 6> polytopeOf(const Tet& t) {
  Polytope<4, 4, 6> p{t, {}, {}};
  static constexpr int faces[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
  for (int k = 0; k < 4; ++k) {
    const auto& f = faces[k];
    p.normals[k] = (t[f[1]] - t[f[0]]).cross(t[f[2]] - t[f[0]]);
  }
  int e = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) p.edges[e++] = t[j] - t[i];
  return p;
}

Polytope<3, 1, 3> polytopeOf(const Triangle& t) {
  Polytope<3, 1, 3> p{t, {}, {}};
  p.normals[0] = (t[1] - t[0]).cross(t[2] - t[0]);
  for (int i = 0; i < 3; ++i) p.edges[i] = t[(i + 1) % 3] - t[i];
  return p;
}

template <size_t N>
void project(const std::array<Vec3, N>& corners, const Vec3& axis, double& lo, double& hi) {
  lo = hi = axis.dot(corners[0]);
  for (size_t i = 1; i < N; ++i) {
    const double d = axis.dot(corners[i]);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
}

// Whether `axis` (any length; near-zero ones, from parallel edges or flat faces, are skipped) separates the two
// shapes up to `slack`.
template <size_t N, size_t M>
bool separates(Vec3 axis, const std::array<Vec3, N>& a, const std::array<Vec3, M>& b, double slack) {
  const double norm = axis.norm();
  if (!(norm > 1e-300)) return false;
  axis /= norm;
  double aLo, aHi, bLo, bHi;
  project(a, axis, aLo, aHi);
  project(b, axis, bLo, bHi);
  return aHi <= bLo + slack || bHi <= aLo + slack;
}

// The separating axis theorem for two convex polytopes: disjoint exactly when a face normal of either or the cross
// product of an edge of each separates them.
template <size_t N, size_t FA, size_t EA, size_t M, size_t FB, size_t EB>
bool overlap(const Polytope<N, FA, EA>& a, const Polytope<M, FB, EB>& b, double slack) {
  for (const Vec3& n : a.normals)
    if (separates(n, a.corners, b.corners, slack)) return false;
  for (const Vec3& n : b.normals)
    if (separates(n, a.corners, b.corners, slack)) return false;
  for (const Vec3& ea : a.edges)
    for (const Vec3& eb : b.edges)
      if (separates(ea.cross(eb), a.corners, b.corners, slack)) return false;
  return true;
}

// Corners (exact positions: remeshing never moves a node) the two shapes share.
template <size_t N, size_t M>
int sharedCorners(const std::array<Vec3, N>& a, const std::array<Vec3, M>& b) {
  int shared = 0;
  for (const Vec3& p : a)
    for (const Vec3& q : b)
      if (p == q) ++shared;
  return shared;
}

// Whether two triangles that share exactly one corner cross beyond it.
bool crossBeyondSharedCorner(const Triangle& a, const Triangle& b) {
  return sharedCorners(a, b) == 1 && trianglesOverlap(a, b);
}

// Whether a corner of one of `faces` lies at `p` (exact positions).
bool holds(const std::vector<Triangle>& faces, const Vec3& p) {
  for (const Triangle& face : faces)
    if (std::find(face.begin(), face.end(), p) != face.end()) return true;
  return false;
}

template <size_t N>
Aabb boxOf(const std::array<Vec3, N>& corners) {
  Aabb box;
  for (const Vec3& p : corners) box.add(p);
  return box;
}

Triangle triangleOf(const Mesh& mesh, int face) {
  const Tri n = mesh.faceNodes(face);
  return {mesh.nodes[n[0]].x, mesh.nodes[n[1]].x, mesh.nodes[n[2]].x};
}

}  // namespace

bool tetIntersectsTriangle(const Tet& tet, const Triangle& tri, double slack) {
  return overlap(polytopeOf(tet), polytopeOf(tri), slack);
}

bool tetsIntersect(const Tet& a, const Tet& b, double slack) { return overlap(polytopeOf(a), polytopeOf(b), slack); }

bool trianglesOverlap(const Triangle& a, const Triangle& b, double slack) {
  return overlap(polytopeOf(a), polytopeOf(b), slack);
}

TriangleSet::TriangleSet(std::vector<Triangle> triangles, bool indexed) : triangles_(std::move(triangles)) {
  boxes_.reserve(triangles_.size());
  for (const Triangle& t : triangles_) {
    boxes_.push_back(boxOf(t));
    bounds_.add(boxes_.back());
  }
  if (indexed) buildIndex();
}

TriangleSet::TriangleSet(const std::vector<Vec3>& x, const std::vector<Tri>& faces, const Bvh& tree)
    : borrowedX_(&x), borrowedFaces_(&faces), borrowedTree_(&tree), indexed_(true) {
  // The points' box: every triangle's box lies within it (it only decides which queries look further).
  for (const Vec3& p : x) bounds_.add(p);
}

Triangle TriangleSet::triangleAt(size_t place) const {
  if (!borrowedFaces_) return triangles_[place];
  const Tri& f = (*borrowedFaces_)[place];
  const std::vector<Vec3>& x = *borrowedX_;
  return {x[size_t(f[0])], x[size_t(f[1])], x[size_t(f[2])]};
}

void TriangleSet::buildIndex() {
  if (indexed_) return;
  tree_.build(boxes_);
  indexed_ = true;
}

TriangleSet TriangleSet::of(const Mesh& mesh, bool indexed) {
  TriangleSet set;
  set.reread(mesh);
  if (indexed) set.buildIndex();
  return set;
}

void TriangleSet::reread(const Mesh& mesh) {
  borrowedX_ = nullptr;  // a set read from a mesh holds its triangles and tree
  borrowedFaces_ = nullptr;
  borrowedTree_ = nullptr;
  // Faces beside the tree are scanned at every query: past an eighth of the faces (at least 64, at most 1024, so
  // that a large cloth's queries stay short) a build pays.
  const size_t besideMax = std::clamp<size_t>(mesh.faces.size() / 8, 64, 1024);
  if (!placeFace_.empty() && indexed_) {
    readPlaces(mesh);
    if (beside_.size() <= besideMax && tree_.refit(boxes_) <= Bvh::kLooseRefit) return;
  }
  readEveryFace(mesh);
}

void TriangleSet::readEveryFace(const Mesh& mesh) {
  placeFace_.clear();
  beside_.clear();
  besideBoxes_.clear();
  triangles_.resize(mesh.faces.size());
  boxes_.resize(mesh.faces.size());
  bounds_ = Aabb();
  for (size_t f = 0; f < mesh.faces.size(); ++f) {
    triangles_[f] = triangleOf(mesh, int(f));
    boxes_[f] = boxOf(triangles_[f]);
    bounds_.add(boxes_[f]);
  }
  // A tree kept through many batches is refitted; once loose, or after a count change, it is built again when asked.
  indexed_ = indexed_ && tree_.primitiveCount() == boxes_.size() && tree_.refit(boxes_) <= Bvh::kLooseRefit;
}

void TriangleSet::readPlaces(const Mesh& mesh) {
  // Every face now is read, in a place or beside, whatever the map said: answers never depend on it.
  std::vector<char> held(mesh.faces.size(), 0);
  bounds_ = Aabb();
  for (size_t p = 0; p < placeFace_.size(); ++p) {
    int& f = placeFace_[p];
    if (f >= int(held.size()) || (f >= 0 && held[size_t(f)])) f = -1;
    if (f < 0) {
      boxes_[p] = Aabb();
      continue;
    }
    held[size_t(f)] = 1;
    triangles_[p] = triangleOf(mesh, f);
    boxes_[p] = boxOf(triangles_[p]);
    bounds_.add(boxes_[p]);
  }
  beside_.clear();
  besideBoxes_.clear();
  for (size_t f = 0; f < held.size(); ++f) {
    if (held[f]) continue;
    beside_.push_back(triangleOf(mesh, int(f)));
    besideBoxes_.push_back(boxOf(beside_.back()));
    bounds_.add(besideBoxes_.back());
  }
}

void TriangleSet::followFaces(const std::vector<int>& faceMap) {
  if (!indexed_) return;  // no tree to keep: the next reread() reads every face
  if (placeFace_.empty()) {
    placeFace_.resize(triangles_.size());
    for (size_t p = 0; p < placeFace_.size(); ++p) placeFace_[p] = int(p);
  }
  for (int& f : placeFace_) f = f >= 0 && size_t(f) < faceMap.size() ? faceMap[size_t(f)] : -1;
}

bool TriangleSet::reaches(const Tet& tet, const std::vector<Triangle>& made) const {
  const Aabb box = boxOf(tet);
  if (triangles_.empty() && beside_.empty() && !borrowedFaces_) return false;
  if (!box.overlaps(bounds_)) return false;
  if (!indexed_ && indexWhenNear_) {
    tree_.build(boxes_);
    indexed_ = true;
  }
  // A triangle with three corners of the tetrahedron is one the operation replaces (a flip's two faces), and so is
  // one with a corner of it that no made face holds: that corner is the node a collapse removes.
  auto replaced = [&](const Triangle& t) {
    for (const Vec3& p : t)
      if (std::find(tet.begin(), tet.end(), p) != tet.end() && !holds(made, p)) return true;
    return false;
  };
  auto reachesInto = [&](const Triangle& t) {
    const int shared = sharedCorners(tet, t);
    if (shared < 2) return tetIntersectsTriangle(tet, t);
    if (shared > 2 || replaced(t)) return false;
    for (const Triangle& face : made)
      if (crossBeyondSharedCorner(face, t)) return true;
    return false;
  };
  for (size_t i = 0; i < beside_.size(); ++i)
    if (besideBoxes_[i].overlaps(box) && reachesInto(beside_[i])) return true;
  if (!indexed_) {
    for (size_t i = 0; i < boxes_.size(); ++i)
      if (boxes_[i].overlaps(box) && reachesInto(triangles_[i])) return true;
    return false;
  }
  bool hit = false;
  (borrowedTree_ ? *borrowedTree_ : tree_).query(box, [&](int i) {
    if (!hit && reachesInto(triangleAt(size_t(i)))) hit = true;
  });
  return hit;
}

std::vector<TriangleSet> obstacleTriangles(const ObstacleField& field) {
  std::vector<TriangleSet> sets;
  const std::vector<ObstacleField::MeshSurface> surfaces = field.meshSurfaces();
  sets.reserve(surfaces.size());
  for (const ObstacleField::MeshSurface& surface : surfaces) sets.emplace_back(surface.x, surface.faces, surface.tree);
  return sets;
}

void SweepGuard::beginBatch(const Mesh& mesh, int batch, const std::vector<int>& faceMap) {
  swept_.clear();
  mesh_ = &mesh;
  if (batch_ >= 0 && batch != batch_) own_.followFaces(faceMap);
  batch_ = batch;
}

bool SweepGuard::allow(const std::vector<Tet>& sweep, const std::vector<Triangle>& made) {
  // Read lazily: split batches also begin with beginBatch() and never ask. The cloth is read again for every batch
  // that asks, and the later flip passes ask a few times only: a scan of its boxes answers those sooner than a tree
  // could be built, so the tree is built once a batch has asked about kScannedSweeps tetrahedra.
  constexpr int kScannedSweeps = 16;
  if (checkOwn_ && mesh_ && ownBatch_ != batch_) {
    own_.reread(*mesh_);
    ownBatch_ = batch_;
    ownQueries_ = 0;
  }
  ownQueries_ += int(sweep.size());
  if (checkOwn_ && ownQueries_ > kScannedSweeps) own_.buildIndex();
  if (checkOwn_)
    for (size_t i = 0; i < made.size(); ++i)
      for (size_t j = i + 1; j < made.size(); ++j)
        if (crossBeyondSharedCorner(made[i], made[j])) {
          ++refused_;
          return false;
        }
  for (const Tet& tet : sweep) {
    bool blocked = own_.reaches(tet, made);
    for (size_t k = 0; k < fixed_.size() && !blocked; ++k) blocked = fixed_[k]->reaches(tet);
    const Aabb box = boxOf(tet);
    for (size_t k = 0; k < swept_.size() && !blocked; ++k)
      blocked = swept_[k].first.overlaps(box) && sharedCorners(tet, swept_[k].second) < 2 &&
                tetsIntersect(tet, swept_[k].second);
    if (blocked) {
      ++refused_;
      return false;
    }
  }
  for (const Tet& tet : sweep) swept_.emplace_back(boxOf(tet), tet);
  return true;
}

}  // namespace adacloth
