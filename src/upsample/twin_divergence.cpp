#include "upsample/twin_divergence.h"

#include <cmath>
#include <stdexcept>

namespace adacloth {
namespace {

double meanRowNorm(const Eigen::MatrixX3d& m) { return m.rows() ? m.rowwise().norm().mean() : 0.0; }

TwinFrame compareFrame(const TrainingSequence& a, const TrainingSequence& b, size_t f, const SparseMatrixD& B) {
  const Eigen::MatrixX3d ba = B * a.coarse[f], bb = B * b.coarse[f];
  const Eigen::MatrixX3d ra = a.fine[f] - ba, rb = b.fine[f] - bb;
  TwinFrame t;
  t.time = a.time[f];
  t.coarseDivergence = meanRowNorm(ba - bb);
  t.residualDivergence = meanRowNorm(ra - rb);
  t.barycentricError = 0.5 * (meanRowNorm(ra) + meanRowNorm(rb));
  return t;
}

}  // namespace

bool twinFrameUsed(const TwinFrame& f, const TwinOptions& options) {
  // A frame where the fine runs have not parted at all says nothing (0 <= 0 would count it).
  return f.time >= options.from && f.residualDivergence > 0 &&
         f.coarseDivergence <= options.coarseTolerance * f.residualDivergence;
}

TwinDivergence twinDivergence(const TrainingSequence& a, const TrainingSequence& b, const SparseMatrixD& midpoint,
                              const TwinOptions& options) {
  const size_t frames = std::min(a.coarse.size(), b.coarse.size());
  TwinDivergence out;
  for (size_t f = 0; f < frames; ++f) {
    if (a.coarse[f].rows() != midpoint.cols() || b.coarse[f].rows() != midpoint.cols() ||
        a.fine[f].rows() != midpoint.rows() || b.fine[f].rows() != midpoint.rows())
      throw std::invalid_argument("twinDivergence: node counts differ from the barycentric map's");
    const TwinFrame t = compareFrame(a, b, f, midpoint);
    out.frames.push_back(t);
    if (!twinFrameUsed(t, options)) continue;
    ++out.framesUsed;
    out.residualDivergence += t.residualDivergence;
    out.barycentricError += t.barycentricError;
  }
  if (out.framesUsed == 0) return out;
  out.residualDivergence /= double(out.framesUsed);
  out.barycentricError /= double(out.framesUsed);
  if (out.barycentricError > 0) {
    out.boundRatio = out.residualDivergence / 2 / out.barycentricError;
    out.estimateRatio = out.residualDivergence / std::sqrt(2.0) / out.barycentricError;
  }
  return out;
}

}  // namespace adacloth
