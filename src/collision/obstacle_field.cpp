#include "collision/obstacle_field.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/geometry.h"
#include "collision/solid_check.h"

namespace adacloth {
namespace {

// True for the first corner of `t` holding its node (a degenerate face may hold a node twice).
bool firstCornerOfNode(const Tri& t, int k) { return k == 0 || (t[k] != t[0] && (k == 1 || t[k] != t[1])); }

int edgeIndex(const std::vector<std::array<int, 2>>& edges, int a, int b) {
  std::array<int, 2> key = {std::min(a, b), std::max(a, b)};
  return int(std::lower_bound(edges.begin(), edges.end(), key) - edges.begin());
}

}  // namespace

ObstacleField::ObstacleField(const std::vector<ObstaclePose>& poses) {
  for (const ObstaclePose& pose : poses) {
    if (pose.obstacle->isGround()) {
      planes_.push_back({pose.planePoint, pose.planeNormal});
      planeVelocity_.push_back(Vec3::Zero());
      planeObstacles_.push_back(pose.obstacle);
      continue;
    }
    MeshData m;
    m.obstacle = pose.obstacle;
    m.faces = pose.obstacle->faces();
    m.edges = pose.obstacle->edges();
    m.faceEdge.resize(m.faces.size());
    for (size_t f = 0; f < m.faces.size(); ++f)
      for (int k = 0; k < 3; ++k) m.faceEdge[f][k] = edgeIndex(m.edges, m.faces[f][k], m.faces[f][(k + 1) % 3]);
    m.vertexFaceStart.assign(pose.x.size() + 1, 0);
    for (const Tri& t : m.faces)
      for (int k = 0; k < 3; ++k)
        if (firstCornerOfNode(t, k)) ++m.vertexFaceStart[t[k] + 1];
    for (size_t v = 0; v < pose.x.size(); ++v) m.vertexFaceStart[v + 1] += m.vertexFaceStart[v];
    m.vertexFaces.resize(m.vertexFaceStart.back());
    std::vector<int> fill(m.vertexFaceStart.begin(), m.vertexFaceStart.end() - 1);
    for (size_t f = 0; f < m.faces.size(); ++f) {
      const Tri& t = m.faces[f];
      for (int k = 0; k < 3; ++k)
        if (firstCornerOfNode(t, k)) m.vertexFaces[fill[t[k]]++] = int(f);
    }
    m.edgeFaceStart.assign(m.edges.size() + 1, 0);
    for (const auto& fe : m.faceEdge)
      for (int e : fe) ++m.edgeFaceStart[e + 1];
    for (size_t e = 0; e < m.edges.size(); ++e) m.edgeFaceStart[e + 1] += m.edgeFaceStart[e];
    m.edgeFaces.resize(m.edgeFaceStart.back());
    fill.assign(m.edgeFaceStart.begin(), m.edgeFaceStart.end() - 1);
    for (size_t f = 0; f < m.faces.size(); ++f)
      for (int e : m.faceEdge[f]) m.edgeFaces[fill[e]++] = int(f);
    place(m, pose.x, false);
    bool closed = true;
    for (size_t e = 0; e < m.edges.size(); ++e) closed = closed && m.edgeFaceStart[e + 1] - m.edgeFaceStart[e] == 2;
    m.solid = closed && enclosedVolume(m.x, m.faces) > 0;
    meshes_.push_back(std::move(m));
  }
}

bool ObstacleField::moveTo(const std::vector<ObstaclePose>& poses) {
  size_t mesh = 0, plane = 0;
  for (const ObstaclePose& pose : poses) {
    if (pose.obstacle->isGround()) {
      if (plane++ >= planes_.size()) return false;
    } else {
      if (mesh >= meshes_.size() || meshes_[mesh].obstacle != pose.obstacle ||
          meshes_[mesh].x.size() != pose.x.size() || meshes_[mesh].faces.size() != pose.obstacle->faces().size())
        return false;
      ++mesh;
    }
  }
  if (mesh != meshes_.size() || plane != planes_.size()) return false;
  mesh = plane = 0;
  std::fill(planeVelocity_.begin(), planeVelocity_.end(), Vec3::Zero());
  for (const ObstaclePose& pose : poses) {
    if (pose.obstacle->isGround()) planes_[plane++] = {pose.planePoint, pose.planeNormal};
    else place(meshes_[mesh++], pose.x, true);
  }
  return true;
}

bool ObstacleField::setMotion(const std::vector<ObstaclePose>& start, double dt) {
  size_t mesh = 0, plane = 0;
  for (const ObstaclePose& pose : start) {
    if (pose.obstacle->isGround()) ++plane;
    else if (mesh >= meshes_.size() || meshes_[mesh].obstacle != pose.obstacle ||
             meshes_[mesh++].x.size() != pose.x.size())
      mesh = meshes_.size() + 1;
  }
  const bool matches = dt > 0 && mesh == meshes_.size() && plane == planes_.size();
  mesh = plane = 0;
  for (const ObstaclePose& pose : start) {
    if (!matches) break;
    if (pose.obstacle->isGround()) {
      planeVelocity_[plane] = (planes_[plane].first - pose.planePoint) / dt;
      ++plane;
      continue;
    }
    MeshData& m = meshes_[mesh++];
    m.v.resize(m.x.size());
    for (size_t i = 0; i < m.x.size(); ++i) m.v[i] = (m.x[i] - pose.x[i]) / dt;
  }
  if (!matches) {
    for (MeshData& m : meshes_) m.v.clear();
    std::fill(planeVelocity_.begin(), planeVelocity_.end(), Vec3::Zero());
  }
  return matches;
}

void ObstacleField::place(MeshData& m, const std::vector<Vec3>& x, bool refit) {
  m.x = x;
  m.v.clear();
  m.faceBox.resize(m.faces.size());
  m.box = Aabb();
  for (size_t f = 0; f < m.faces.size(); ++f) {
    Aabb& box = m.faceBox[f];
    box = Aabb();
    for (int node : m.faces[f]) box.add(m.x[node]);
    m.box.add(box);
  }
  if (refit) m.tree.update(m.faceBox.data(), m.faceBox.size());
  else m.tree.build(m.faceBox.data(), m.faceBox.size());
  m.surfaceTreeCurrent = false;
}

Vec3 ObstacleField::faceNormal(const MeshData& m, int f) {
  const Tri& t = m.faces[f];
  const Vec3 n = (m.x[t[1]] - m.x[t[0]]).cross(m.x[t[2]] - m.x[t[0]]).normalized();
  return n.allFinite() ? n : Vec3::Zero();
}

Vec3 ObstacleField::edgeNormal(const MeshData& m, int e) {
  Vec3 normal = Vec3::Zero();
  for (int i = m.edgeFaceStart[e]; i < m.edgeFaceStart[e + 1]; ++i) normal += faceNormal(m, m.edgeFaces[i]);
  return normal;
}

std::vector<ObstacleField::MeshSurface> ObstacleField::meshSurfaces() const {
  std::vector<MeshSurface> out;
  for (const MeshData& m : meshes_) {
    if (!m.surfaceTreeCurrent) m.surfaceTree.update(m.faceBox.data(), m.faceBox.size());
    m.surfaceTreeCurrent = true;
    out.push_back({m.x, m.faces, m.surfaceTree});
  }
  return out;
}

Vec3 ObstacleField::vertexNormal(const MeshData& m, int v) {
  Vec3 normal = Vec3::Zero();
  for (int i = m.vertexFaceStart[v]; i < m.vertexFaceStart[v + 1]; ++i) {
    const int f = m.vertexFaces[i];
    const Tri& t = m.faces[f];
    for (int k = 0; k < 3; ++k)
      if (t[k] == v) normal += cornerAngle(m.x[t[k]], m.x[t[(k + 1) % 3]], m.x[t[(k + 2) % 3]]) * faceNormal(m, f);
  }
  return normal;
}

void ObstacleField::nearestPlane(const Vec3& x, double& bestAbs, std::optional<ProximitySample>& best,
                                 const Obstacle** which) const {
  for (size_t p = 0; p < planes_.size(); ++p) {
    const auto& [point, normal] = planes_[p];
    const double h = normal.dot(x - point);
    if (h <= bestAbs) {  // inside a half-space counts at any depth
      best = ProximitySample{h, normal, planeVelocity_[p]};
      bestAbs = std::max(h, 0.0);
      if (which) *which = planeObstacles_[p];
    }
  }
}

double ObstacleField::depthInside(const Vec3& x) const {
  // Outside every solid's box, a mesh's distance is positive: it answers only where no plane has x inside it
  // (bestAbs 0 then admits a mesh at distance 0 alone), and then its answer is no depth either.
  const bool searchMeshes =
      std::any_of(meshes_.begin(), meshes_.end(), [&](const MeshData& m) { return !m.solid || m.box.contains(x); });
  std::optional<ProximitySample> s;
  if (searchMeshes) {
    s = nearest(x, std::numeric_limits<double>::infinity());
  } else {
    double bestAbs = std::numeric_limits<double>::infinity();
    nearestPlane(x, bestAbs, s, nullptr);
  }
  return s && s->distance < 0 ? -s->distance : 0.0;
}

std::optional<ProximitySample> ObstacleField::nearest(const Vec3& x, double maxDistance,
                                                      const Obstacle** which) const {
  std::optional<ProximitySample> best;
  double bestAbs = maxDistance;
  nearestPlane(x, bestAbs, best, which);
  // The answer must not depend on the tree (a moved field refits its trees, a new one builds them): of the faces at
  // the least distance, the lowest-numbered one answers, and the bound the traversal prunes by is widened by a hair
  // so that every such face is visited whatever the grouping (a face's computed distance is within rounding of its
  // box's, and a box holding it is never farther).
  constexpr double kTieSlack = 1.0 + 1e-9;
  for (const MeshData& m : meshes_) {
    // A mesh whose box lies beyond the bound has no face within it: of a crowd's bodies, all but the one a cloth
    // node is near. The margin (relative, and absolute for rounding of the coordinates) leaves a face that rounds
    // to the bound to the search.
    if (std::sqrt(m.box.squaredDistance(x)) > bestAbs * (1 + 1e-6) + 1e-12) continue;
    int bestFace = -1;
    TriangleClosest bestHit{Vec3::Zero(), Vec3::Zero()};
    m.tree.nearest(x, bestAbs * bestAbs * kTieSlack, [&](int f) {
      const Tri& t = m.faces[f];
      TriangleClosest c = closestOnTriangle(x, m.x[t[0]], m.x[t[1]], m.x[t[2]]);
      const bool better = bestFace < 0 || c.distance < bestHit.distance ||
                          (c.distance == bestHit.distance && f < bestFace);
      if (c.distance <= bestAbs && better) {
        bestFace = f;
        bestHit = c;
        bestAbs = c.distance;
      }
      return bestAbs * bestAbs * kTieSlack;
    });
    if (bestFace < 0) continue;
    const Tri& t = m.faces[bestFace];
    Vec3 pseudo;
    switch (bestHit.feature) {
      case TriFeature::Face: pseudo = faceNormal(m, bestFace); break;
      case TriFeature::Edge0: pseudo = edgeNormal(m, m.faceEdge[bestFace][0]); break;
      case TriFeature::Edge1: pseudo = edgeNormal(m, m.faceEdge[bestFace][1]); break;
      case TriFeature::Edge2: pseudo = edgeNormal(m, m.faceEdge[bestFace][2]); break;
      case TriFeature::Vert0: pseudo = vertexNormal(m, t[0]); break;
      case TriFeature::Vert1: pseudo = vertexNormal(m, t[1]); break;
      case TriFeature::Vert2: pseudo = vertexNormal(m, t[2]); break;
    }
    const Vec3 away = x - bestHit.point;
    const double sign = away.dot(pseudo) < 0 ? -1.0 : 1.0;
    ProximitySample s;
    s.distance = sign * bestHit.distance;
    s.gradient = bestHit.distance > 1e-12 ? Vec3(sign * away / bestHit.distance) : Vec3(pseudo.normalized());
    if (!m.v.empty())
      s.velocity = bestHit.bary[0] * m.v[t[0]] + bestHit.bary[1] * m.v[t[1]] + bestHit.bary[2] * m.v[t[2]];
    best = s;
    if (which) *which = m.obstacle;
  }
  return best;
}

}  // namespace adacloth
