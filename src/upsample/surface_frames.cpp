#include "upsample/surface_frames.h"

#include <Eigen/Geometry>

namespace adacloth {

SurfaceFrameTopology surfaceFrameTopology(const Mesh& mesh) {
  SurfaceFrameTopology topo;
  topo.faces.reserve(mesh.faces.size());
  for (int f = 0; f < int(mesh.faces.size()); ++f) topo.faces.push_back(mesh.faceNodes(f));
  topo.reference.assign(mesh.nodes.size(), -1);
  for (int i = 0; i < int(mesh.nodes.size()); ++i) {
    if (mesh.nodes[i].edges.empty()) continue;
    const Edge& e = mesh.edges[mesh.nodes[i].edges.front()];
    topo.reference[i] = e.nodes[0] == i ? e.nodes[1] : e.nodes[0];
  }
  return topo;
}

namespace {

// A unit vector orthogonal to unit `n`.
Eigen::Vector3d anyOrthogonal(const Eigen::Vector3d& n) {
  const Eigen::Vector3d axis = std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  return n.cross(axis).normalized();
}

}  // namespace

std::vector<Eigen::Matrix3d> surfaceFrames(const SurfaceFrameTopology& topo, const Eigen::MatrixX3d& x) {
  const size_t n = size_t(x.rows());
  std::vector<Eigen::Vector3d> normal(n, Eigen::Vector3d::Zero());
  for (const Tri& t : topo.faces) {
    const Eigen::Vector3d a = x.row(t[0]), b = x.row(t[1]), c = x.row(t[2]);
    const Eigen::Vector3d areaNormal = (b - a).cross(c - a);  // twice the area, so larger faces weigh more
    for (int k = 0; k < 3; ++k) normal[t[k]] += areaNormal;
  }
  std::vector<Eigen::Matrix3d> frames(n);
  for (size_t i = 0; i < n; ++i) {
    const double len = normal[i].norm();
    const Eigen::Vector3d nz = len > 0 ? Eigen::Vector3d(normal[i] / len) : Eigen::Vector3d::UnitZ();
    Eigen::Vector3d tangent = Eigen::Vector3d::Zero();
    if (topo.reference[i] >= 0) {
      const Eigen::Vector3d d = x.row(topo.reference[i]) - x.row(i);
      tangent = d - d.dot(nz) * nz;
    }
    const double tl = tangent.norm();
    tangent = tl > 1e-12 ? Eigen::Vector3d(tangent / tl) : anyOrthogonal(nz);
    frames[i].col(0) = tangent;
    frames[i].col(1) = nz.cross(tangent);
    frames[i].col(2) = nz;
  }
  return frames;
}

}  // namespace adacloth
