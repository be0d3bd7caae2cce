#include "decimate.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>

namespace adacloth::assets {
namespace {

class Collapser {
 public:
  Collapser(const Surface& s, const std::function<double(const Vec3&)>& f) : x_(s.x), faces_(s.faces), f_(f) {
    alive_.assign(faces_.size(), 1);
    facesOf_.resize(x_.size());
    for (size_t i = 0; i < faces_.size(); ++i)
      for (int c : faces_[i]) facesOf_[c].push_back(int(i));
    aliveFaces_ = int(faces_.size());
  }

  // Passes over all edges until the target is met or a pass collapses nothing (a rejected collapse may become
  // possible once its neighbourhood has changed).
  void run(int target) {
    for (int pass = 0; pass < 8 && aliveFaces_ > target; ++pass) {
      const int before = aliveFaces_;
      queue_ = {};
      for (size_t i = 0; i < faces_.size(); ++i)
        if (alive_[i])
          for (int c = 0; c < 3; ++c) push(faces_[i][c], faces_[i][(c + 1) % 3]);
      runQueue(target);
      if (aliveFaces_ == before) break;
    }
  }

  void runQueue(int target) {
    while (aliveFaces_ > target && !queue_.empty()) {
      auto [length, a, b] = queue_.top();
      queue_.pop();
      if (!isEdge(a, b) || std::abs((x_[a] - x_[b]).norm() - length) > 1e-15) continue;  // stale entry
      collapse(a, b);
    }
  }

  // Flips edges whose two faces are nearly coplanar when the flip improves the worse of the two faces' shapes.
  // Returns the number of flips.
  int flipPass() {
    int flips = 0;
    for (size_t fi = 0; fi < faces_.size(); ++fi)
      for (int c = 0; c < 3 && alive_[fi]; ++c) flips += tryFlip(int(fi), c);
    return flips;
  }

  // Moves every vertex towards the average of its neighbours (along the surface only), then back onto f: evens
  // out the triangles without changing the shape. A move that would flip a face is skipped.
  void smoothPass() {
    for (size_t v = 0; v < x_.size(); ++v) {
      if (facesOf_[v].empty()) continue;
      const std::vector<int> ring = neighbours(int(v));
      Vec3 centre = Vec3::Zero(), normal = Vec3::Zero();
      for (int n : ring) centre += x_[n] / double(ring.size());
      for (int fi : facesOf_[v]) normal += faceNormal(faces_[fi]);
      normal.normalize();
      Vec3 d = centre - x_[v];
      d -= d.dot(normal) * normal;
      const Vec3 p = projectOnto(f_, x_[v] + d);
      if (movePreservesFaces(int(v), -1, -1, p)) x_[v] = p;
    }
  }

  Surface result() const {
    Surface s;
    std::vector<int> newIndex(x_.size(), -1);
    for (size_t i = 0; i < faces_.size(); ++i) {
      if (!alive_[i]) continue;
      Tri t;
      for (int c = 0; c < 3; ++c) {
        int& n = newIndex[faces_[i][c]];
        if (n < 0) {
          n = int(s.x.size());
          s.x.push_back(x_[faces_[i][c]]);
        }
        t[c] = n;
      }
      s.faces.push_back(t);
    }
    return s;
  }

 private:
  using Entry = std::tuple<double, int, int>;

  void push(int a, int b) {
    if (a > b) std::swap(a, b);
    queue_.emplace((x_[a] - x_[b]).norm(), a, b);
  }

  std::vector<int> neighbours(int v) const {
    std::vector<int> n;
    for (int fi : facesOf_[v])
      for (int c : faces_[fi])
        if (c != v) n.push_back(c);
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
    return n;
  }

  bool isEdge(int a, int b) const {
    for (int fi : facesOf_[a])
      for (int c : faces_[fi])
        if (c == b) return true;
    return false;
  }

  // True when triangle (a, b, c) is not degenerate and faces the way the surface does (its normal within ~80
  // degrees of the gradient of f at its centre). Compared with the implicit surface rather than with the face's
  // old normal, which is meaningless for the slivers that marching tetrahedra leave.
  bool facesOutwards(const Vec3& a, const Vec3& b, const Vec3& c) const {
    const Vec3 n = (b - a).cross(c - a);
    if (n.norm() < 1e-12) return false;
    const Vec3 g = gradient(f_, (a + b + c) / 3.0);
    return n.dot(g) > 0.2 * n.norm() * g.norm();
  }

  Vec3 faceNormal(const Tri& t) const { return (x_[t[1]] - x_[t[0]]).cross(x_[t[2]] - x_[t[0]]); }

  static double quality(const Vec3& a, const Vec3& b, const Vec3& c) { return quality(std::array<Vec3, 3>{a, b, c}); }

  // Flips the edge from corner c to corner c+1 of face fi: faces (a, b, p) and (b, a, q) become (a, q, p) and
  // (q, b, p).
  bool tryFlip(int fi, int c) {
    const Tri t = faces_[fi];
    const int a = t[c], b = t[(c + 1) % 3], p = t[(c + 2) % 3];
    int fj = -1, q = -1;
    for (int g : facesOf_[b]) {
      const Tri& u = faces_[g];
      for (int k = 0; k < 3; ++k)
        if (u[k] == b && u[(k + 1) % 3] == a) fj = g, q = u[(k + 2) % 3];
    }
    if (fj < 0 || p == q || isEdge(p, q) || facesOf_[a].size() <= 3 || facesOf_[b].size() <= 3) return false;
    const Vec3 n1 = faceNormal(t).normalized(), n2 = faceNormal(faces_[fj]).normalized();
    const double before = std::min(quality(x_[a], x_[b], x_[p]), quality(x_[b], x_[a], x_[q]));
    if (n1.dot(n2) < 0.95 && before > 0.1) return false;  // a crease of the shape between decent faces: keep it
    const double after = std::min(quality(x_[a], x_[q], x_[p]), quality(x_[q], x_[b], x_[p]));
    if (after <= 1.05 * before) return false;
    if (!facesOutwards(x_[a], x_[q], x_[p]) || !facesOutwards(x_[q], x_[b], x_[p])) return false;
    faces_[fi] = {a, q, p};
    faces_[fj] = {q, b, p};
    // a loses face fj, b loses fi; p gains fj, q gains fi.
    facesOf_[a].erase(std::remove(facesOf_[a].begin(), facesOf_[a].end(), fj), facesOf_[a].end());
    facesOf_[b].erase(std::remove(facesOf_[b].begin(), facesOf_[b].end(), fi), facesOf_[b].end());
    facesOf_[p].push_back(fj);
    facesOf_[q].push_back(fi);
    return true;
  }

  // Twice the area over the longest edge squared: 0.87 for an equilateral triangle, 0 for a degenerate one.
  static double quality(const std::array<Vec3, 3>& p) {
    double longest = 0;
    for (int c = 0; c < 3; ++c) longest = std::max(longest, (p[(c + 1) % 3] - p[c]).squaredNorm());
    return (p[1] - p[0]).cross(p[2] - p[0]).norm() / longest;
  }

  // True when moving vertex v to p keeps every face of v (other than those on edge a-b) well shaped and unflipped.
  bool movePreservesFaces(int v, int a, int b, const Vec3& p) const {
    for (int fi : facesOf_[v]) {
      const Tri& t = faces_[fi];
      if (a >= 0 && std::count(t.begin(), t.end(), a) && std::count(t.begin(), t.end(), b)) continue;  // removed
      std::array<Vec3, 3> before, after;
      for (int c = 0; c < 3; ++c) {
        before[c] = x_[t[c]];
        after[c] = t[c] == v ? p : x_[t[c]];
      }
      if (!facesOutwards(after[0], after[1], after[2])) return false;
      // No new needle: a face may end up thin (smallest angle below ~3 degrees) only if it was thinner before.
      if (quality(after) < 0.05 && quality(after) < 0.9 * quality(before)) return false;
    }
    return true;
  }

  void collapse(int a, int b) {
    // Link condition: on a closed manifold the edge's ends share exactly its two opposite corners.
    std::vector<int> na = neighbours(a), nb = neighbours(b), common;
    std::set_intersection(na.begin(), na.end(), nb.begin(), nb.end(), std::back_inserter(common));
    if (common.size() != 2 || x_.size() < 5) return;
    const Vec3 p = projectOnto(f_, 0.5 * (x_[a] + x_[b]));
    if (!movePreservesFaces(a, a, b, p) || !movePreservesFaces(b, a, b, p)) return;
    x_[a] = p;
    const std::vector<int> facesOfB = facesOf_[b];  // copy: the loop edits the lists
    for (int fi : facesOfB) {
      Tri& t = faces_[fi];
      if (std::count(t.begin(), t.end(), a)) {  // one of the two faces on the edge: gone
        alive_[fi] = 0;
        --aliveFaces_;
        for (int c : t) facesOf_[c].erase(std::remove(facesOf_[c].begin(), facesOf_[c].end(), fi), facesOf_[c].end());
        continue;
      }
      for (int& c : t)
        if (c == b) c = a;
      facesOf_[a].push_back(fi);
    }
    facesOf_[b].clear();
    for (int n : neighbours(a)) push(a, n);
  }

  std::vector<Vec3> x_;
  std::vector<Tri> faces_;
  const std::function<double(const Vec3&)>& f_;
  std::vector<char> alive_;
  std::vector<std::vector<int>> facesOf_;
  int aliveFaces_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue_;
};

}  // namespace

Vec3 gradient(const std::function<double(const Vec3&)>& f, const Vec3& p) {
  const double h = 5e-4;  // m: central differences
  return Vec3(f(p + h * Vec3::UnitX()) - f(p - h * Vec3::UnitX()), f(p + h * Vec3::UnitY()) - f(p - h * Vec3::UnitY()),
              f(p + h * Vec3::UnitZ()) - f(p - h * Vec3::UnitZ())) /
         (2 * h);
}

Vec3 projectOnto(const std::function<double(const Vec3&)>& f, Vec3 p) {
  for (int it = 0; it < 4; ++it) {
    const double v = f(p);
    if (std::abs(v) < 1e-6) break;
    const Vec3 g = gradient(f, p);
    if (g.squaredNorm() < 1e-8) break;
    p -= v * g / g.squaredNorm();
  }
  return p;
}

Surface decimate(const Surface& input, int targetFaces, const std::function<double(const Vec3&)>& f) {
  Collapser c(input, f);
  // Collapsing and evening out alternate: marching tetrahedra leaves many slivers, which block collapses until
  // flips and smoothing have turned them into reasonable triangles.
  for (int round = 0; round < 7; ++round) {
    if (round > 0) c.run(targetFaces);
    for (int k = 0; k < 3; ++k) {
      c.flipPass();
      c.smoothPass();
    }
  }
  c.flipPass();
  return c.result();
}

}  // namespace adacloth::assets
