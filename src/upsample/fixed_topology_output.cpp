#include "upsample/fixed_topology_output.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "io/obj.h"
#include "upsample/material_locator.h"

namespace adacloth {
namespace {

// m: the longest side of a triangle in material space. The same measure on the simulation's faces and the output
// mesh's faces, so that a ratio of 1 means "as fine".
double longestEdge(const Vec2& a, const Vec2& b, const Vec2& c) {
  return std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
}

double longestEdge(const Mesh& mesh, int face) {
  const Tri& t = mesh.faces[face].verts;
  return longestEdge(mesh.verts[t[0]].u, mesh.verts[t[1]].u, mesh.verts[t[2]].u);
}

// World position (m) of a located material point: the barycentric mix of its face's node positions.
Vec3 worldAt(const Mesh& mesh, const MaterialLocation& m) {
  Vec3 x = Vec3::Zero();
  for (int k = 0; k < 3; ++k) x += m.bary[k] * mesh.nodes[mesh.nodeOf(m.face, k)].x;
  return x;
}

std::string pointText(const Vec2& u) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.6g, %.6g)", u.x(), u.y());
  return buf;
}

// Checks indices and sizes; empty when consistent.
std::string indexMismatch(const UpsampleOperator& op) {
  const size_t nodes = op.fineCount();
  if (op.fineVertNode.size() != op.fineUv.size()) return "fine vert and vert-node counts differ";
  for (size_t v = 0; v < op.fineVertNode.size(); ++v)
    if (op.fineVertNode[v] < 0 || size_t(op.fineVertNode[v]) >= nodes)
      return "fine vert " + std::to_string(v) + " names node " + std::to_string(op.fineVertNode[v]) + " of " +
             std::to_string(nodes);
  for (size_t f = 0; f < op.fineFaces.size(); ++f)
    for (int v : op.fineFaces[f])
      if (v < 0 || size_t(v) >= op.fineUv.size())
        return "fine face " + std::to_string(f) + " names vert " + std::to_string(v) + " of " +
               std::to_string(op.fineUv.size());
  // An empty U: the output mesh of a wrinkle or MLP model, whose predictor is not U.
  if (op.U.size() != 0 && (size_t(op.U.rows()) != nodes || size_t(op.U.cols()) != op.coarseCount()))
    return "U is " + std::to_string(op.U.rows()) + " x " + std::to_string(op.U.cols()) + ", expected " +
           std::to_string(nodes) + " x " + std::to_string(op.coarseCount());
  if (op.fineFaces.empty() || op.coarseCount() == 0) return "it has no fine faces or no coarse points";
  return "";
}

// First point of `points` farther than `tolerance` from every face of `cloth`, as a phrase; empty when none.
std::string uncoveredPoint(const MaterialLocator& locator, const std::vector<Vec2>& points, const char* what,
                           double tolerance) {
  for (size_t i = 0; i < points.size(); ++i) {
    const MaterialLocation m = locator.locate(points[i]);
    if (m.face < 0 || m.distance > tolerance)
      return std::string(what) + " point " + std::to_string(i) + " at " + pointText(points[i]) + " is " +
             std::to_string(m.distance) + " m outside the cloth's panels";
  }
  return "";
}

}  // namespace

double simulationWeight(double ratio, const UpsampleBlend& blend) {
  if (ratio <= blend.lo) return 1.0;
  if (ratio >= blend.hi) return 0.0;
  const double s = (ratio - blend.lo) / (blend.hi - blend.lo);
  return 1.0 - s * s * (3.0 - 2.0 * s);
}

std::string operatorMismatch(const UpsampleOperator& op, const Mesh& cloth, double tolerance) {
  std::string bad = indexMismatch(op);
  if (!bad.empty()) return bad;
  const MaterialLocator locator(cloth);
  bad = uncoveredPoint(locator, op.coarsePoints, "coarse", tolerance);
  if (bad.empty()) bad = uncoveredPoint(locator, op.finePoints, "fine", tolerance);
  return bad;
}

double coverageTolerance(const UpsampleOperator& op, const Mesh& cloth) {
  double panels = 0;
  if (!cloth.verts.empty()) {
    Vec2 lo = cloth.verts.front().u, hi = lo;
    for (const Vert& v : cloth.verts) lo = lo.cwiseMin(v.u), hi = hi.cwiseMax(v.u);
    panels = 1e-3 * (hi - lo).norm();
  }
  std::vector<double> edges;
  for (const std::array<int, 3>& f : op.fineFaces)
    for (int k = 0; k < 3; ++k) {
      const size_t a = size_t(f[k]), b = size_t(f[(k + 1) % 3]);
      if (a < op.fineUv.size() && b < op.fineUv.size()) edges.push_back((op.fineUv[a] - op.fineUv[b]).norm());
    }
  double edge = 0;
  if (!edges.empty()) {
    std::nth_element(edges.begin(), edges.begin() + long(edges.size() / 2), edges.end());
    edge = edges[edges.size() / 2];
  }
  return std::max(panels, 0.5 * edge) + 1e-9;
}

OutputPredictor linearPredictor(std::shared_ptr<const UpsampleOperator> op) {
  OutputPredictor p;
  p.mesh = op;
  p.predict = [op](const std::vector<Eigen::MatrixX3f>& coarse, double time, Eigen::MatrixX3f& fine) {
    op->apply(coarse.front(), time, fine);
  };
  return p;
}

std::shared_ptr<const UpsampleOperator> outputMeshOf(const MeshPair& pair) {
  auto shell = std::make_shared<UpsampleOperator>();
  for (const Node& n : pair.coarse.nodes) shell->coarsePoints.push_back(pair.coarse.verts[size_t(n.verts.front())].u);
  const Mesh& fine = pair.sub.fine;
  for (const Vert& v : fine.verts) shell->fineUv.push_back(v.u), shell->fineVertNode.push_back(v.node);
  for (const Face& f : fine.faces) shell->fineFaces.push_back(f.verts);
  for (const Node& n : fine.nodes) shell->finePoints.push_back(fine.verts[size_t(n.verts.front())].u);
  return shell;
}

FixedTopologyOutput::FixedTopologyOutput(std::shared_ptr<const UpsampleOperator> op, UpsampleBlend blend)
    : FixedTopologyOutput(linearPredictor(std::move(op)), blend) {}

FixedTopologyOutput::FixedTopologyOutput(OutputPredictor predictor, UpsampleBlend blend)
    : op_(predictor.mesh), predictor_(std::move(predictor)), blend_(blend) {
  if (!op_ || !indexMismatch(*op_).empty() || !(blend_.hi > blend_.lo) || !predictor_.predict ||
      predictor_.historyFrames < 1)
    throw std::invalid_argument("FixedTopologyOutput: inconsistent operator, predictor or blend band");
  const UpsampleOperator& o = *op_;
  const size_t nodes = o.fineCount();
  std::vector<double> edgeSum(nodes, 0.0);
  std::vector<int> faceCount(nodes, 0);
  neighbours_.assign(nodes, {});
  for (const auto& f : o.fineFaces) {
    const double h = longestEdge(o.fineUv[f[0]], o.fineUv[f[1]], o.fineUv[f[2]]);
    for (int k = 0; k < 3; ++k) {
      const int n = o.fineVertNode[f[k]];
      edgeSum[n] += h;
      ++faceCount[n];
      neighbours_[n].push_back(o.fineVertNode[f[(k + 1) % 3]]);
      neighbours_[n].push_back(o.fineVertNode[f[(k + 2) % 3]]);
    }
  }
  outputEdge_.resize(nodes);
  for (size_t n = 0; n < nodes; ++n) {
    std::sort(neighbours_[n].begin(), neighbours_[n].end());
    neighbours_[n].erase(std::unique(neighbours_[n].begin(), neighbours_[n].end()), neighbours_[n].end());
    // A node in no face has nothing to compare against: treat it as fine as the output can be (edge 0 never lets
    // the simulation win, so it is upsampled).
    outputEdge_[n] = faceCount[n] > 0 ? edgeSum[n] / faceCount[n] : 0.0;
  }
  objMesh_.nodes.resize(nodes);
  objMesh_.verts.resize(o.fineUv.size());
  for (size_t v = 0; v < o.fineUv.size(); ++v) objMesh_.verts[v] = Vert{o.fineUv[v], o.fineVertNode[v], {}};
  objMesh_.faces.resize(o.fineFaces.size());
  for (size_t f = 0; f < o.fineFaces.size(); ++f) objMesh_.faces[f].verts = o.fineFaces[f];
}

// Jacobi passes of neighbour averaging (each node writes its own slot: deterministic at any thread count).
std::vector<double> FixedTopologyOutput::smoothed(std::vector<double> w) const {
  std::vector<double> next(w.size());
  for (int pass = 0; pass < blend_.smoothingPasses; ++pass) {
#pragma omp parallel for schedule(static)
    for (long n = 0; n < long(w.size()); ++n) {
      double sum = w[n];
      for (int m : neighbours_[n]) sum += w[m];
      next[n] = sum / double(neighbours_[n].size() + 1);
    }
    w.swap(next);
  }
  return w;
}

Eigen::MatrixX3f FixedTopologyOutput::sampleCoarse(const Mesh& sim, const MaterialLocator& locator) const {
  const UpsampleOperator& o = *op_;
  Eigen::MatrixX3f coarse(o.coarseCount(), 3);
#pragma omp parallel for schedule(static)
  for (long c = 0; c < long(o.coarseCount()); ++c)
    coarse.row(c) = worldAt(sim, locator.locate(o.coarsePoints[c])).cast<float>().transpose();
  return coarse;
}

void FixedTopologyOutput::remember(Eigen::MatrixX3f coarse) {
  history_.insert(history_.begin(), std::move(coarse));
  const size_t frames = size_t(predictor_.historyFrames);
  if (history_.size() > frames) history_.resize(frames);
  while (history_.size() < frames) {  // before enough frames: the oldest repeated
    Eigen::MatrixX3f oldest = history_.back();
    history_.push_back(std::move(oldest));
  }
}

void FixedTopologyOutput::primeHistory(const Mesh& sim) {
  if (sim.faces.empty()) throw std::invalid_argument("FixedTopologyOutput::primeHistory: the mesh has no faces");
  remember(sampleCoarse(sim, MaterialLocator(sim)));
}

OutputFrame FixedTopologyOutput::evaluate(const Mesh& sim, double time) {
  const UpsampleOperator& o = *op_;
  if (sim.faces.empty()) throw std::invalid_argument("FixedTopologyOutput::evaluate: the simulation mesh has no faces");
  const MaterialLocator locator(sim);
  // 1-2: sample the simulation at the coarse points and upsample.
  remember(sampleCoarse(sim, locator));
  Eigen::MatrixX3f up;
  predictor_.predict(history_, time, up);
  // 3: the simulation itself at every fine node, and how fine it is there.
  const size_t nodes = o.fineCount();
  OutputFrame frame;
  frame.positions.resize(nodes);
  std::vector<double> w(nodes);
#pragma omp parallel for schedule(static)
  for (long n = 0; n < long(nodes); ++n) {
    const MaterialLocation m = locator.locate(o.finePoints[n]);
    frame.positions[n] = worldAt(sim, m);
    w[n] = outputEdge_[n] > 0 ? simulationWeight(longestEdge(sim, m.face) / outputEdge_[n], blend_) : 0.0;
  }
  // 4: blend with the smoothed weights.
  frame.weight = smoothed(std::move(w));
#pragma omp parallel for schedule(static)
  for (long n = 0; n < long(nodes); ++n) {
    const double wn = frame.weight[n];
    frame.positions[n] = wn * frame.positions[n] + (1.0 - wn) * up.row(n).transpose().cast<double>();
  }
  double upsampled = 0;  // summed in node order
  for (double wn : frame.weight) upsampled += 1.0 - wn;
  frame.upsampledFraction = nodes > 0 ? upsampled / double(nodes) : 0.0;
  return frame;
}

std::string FixedTopologyOutput::formatObj(const std::vector<Vec3>& positions) const {
  if (positions.size() != objMesh_.nodes.size())
    throw std::invalid_argument("FixedTopologyOutput::formatObj: one position per output node expected");
  Mesh mesh = objMesh_;
  for (size_t n = 0; n < positions.size(); ++n) mesh.nodes[n].x = positions[n];
  return adacloth::formatObj(mesh);
}

}  // namespace adacloth
