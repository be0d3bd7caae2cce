#include "upsample/evaluate.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <map>

namespace adacloth {

UpsamplingError upsamplingError(const Upsampler& upsample, const std::vector<TrainingSequence>& data) {
  UpsamplingError e;
  double sum = 0;
  size_t count = 0;
  for (const TrainingSequence& seq : data)
    for (size_t f = 0; f < seq.coarse.size(); ++f) {
      const Eigen::VectorXd d = (upsample(seq, f) - seq.fine[f]).rowwise().norm();
      sum += d.sum();
      count += size_t(d.size());
      e.max = std::max(e.max, d.maxCoeff());
      ++e.frames;
    }
  e.mean = count ? sum / double(count) : 0.0;
  return e;
}

Upsampler sparseUpsampler(const SparseMatrixD& map) {
  return [map](const TrainingSequence& seq, size_t f) -> Eigen::MatrixX3d { return map * seq.coarse[f]; };
}

Upsampler operatorUpsampler(const UpsampleOperator& op) {
  return [&op](const TrainingSequence& seq, size_t f) -> Eigen::MatrixX3d {
    Eigen::MatrixX3f fine;
    op.apply(seq.coarse[f].cast<float>(), seq.time[f], fine);
    return fine.cast<double>();
  };
}

double meanAbsoluteCurvature(const std::vector<Tri>& faces, const Eigen::MatrixX3d& x,
                             const std::vector<char>& counted) {
  std::map<std::pair<int, int>, std::vector<int>> edgeFaces;
  double area = 0;
  std::vector<Vec3> normal(faces.size());
  for (size_t f = 0; f < faces.size(); ++f) {
    const Vec3 a = x.row(faces[f][0]), b = x.row(faces[f][1]), c = x.row(faces[f][2]);
    const Vec3 n = (b - a).cross(c - a);
    normal[f] = n.norm() > 0 ? Vec3(n.normalized()) : Vec3::Zero();
    if (!counted.empty() && !counted[f]) continue;
    area += 0.5 * n.norm();
    for (int k = 0; k < 3; ++k) {
      const int i = faces[f][k], j = faces[f][(k + 1) % 3];
      edgeFaces[{std::min(i, j), std::max(i, j)}].push_back(int(f));
    }
  }
  double integrated = 0;
  for (const auto& [edge, fs] : edgeFaces) {
    if (fs.size() != 2) continue;
    const double cosAngle = std::clamp(normal[size_t(fs[0])].dot(normal[size_t(fs[1])]), -1.0, 1.0);
    integrated += 0.5 * std::acos(cosAngle) * (x.row(edge.first) - x.row(edge.second)).norm();
  }
  return area > 0 ? integrated / area : 0.0;
}

std::vector<char> facesInView(const std::vector<Tri>& faces, const Eigen::MatrixX3d& x, const Camera& camera) {
  const Vec3 &eye = camera.eye, &forward = camera.forward, &right = camera.right, &camUp = camera.up;
  const double tanY = std::tan(0.5 * camera.fovYDeg * M_PI / 180.0), tanX = tanY * camera.aspect();
  std::vector<char> seen(faces.size(), 0);
  for (size_t f = 0; f < faces.size(); ++f) {
    const Vec3 a = x.row(faces[f][0]), b = x.row(faces[f][1]), c = x.row(faces[f][2]);
    const Vec3 centroid = (a + b + c) / 3.0, toFace = centroid - eye;
    const double depth = toFace.dot(forward);
    if (depth <= 0) continue;
    if (std::abs(toFace.dot(right)) > tanX * depth || std::abs(toFace.dot(camUp)) > tanY * depth) continue;
    const Vec3 n = (b - a).cross(c - a);
    const double len = n.norm() * toFace.norm();
    seen[f] = len > 0 && -n.dot(toFace) / len > 0.05;
  }
  return seen;
}

}  // namespace adacloth
