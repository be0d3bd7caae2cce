#pragma once
// How much of a tracked fine simulation's detail is a function of the coarse state at all (docs/upsampling.md,
// "Predictability floor"). Two tracked runs of one shot whose inputs differ by a negligible amount (a wind speed in
// the sixth decimal) keep the same coarse motion for a while, yet their fine detail can part (a flag's fine-scale
// flutter is chaotic). On a frame where both coarse states are equal, any predictor of the fine mesh from the coarse
// one returns one mesh for both runs, so by the triangle inequality its mean error over the two runs is at least
// half the distance between their fine residuals. That bounds every upsampler -- barycentric, learned, non-linear.
#include "upsample/subdivide.h"
#include "upsample/train_operator.h"

namespace adacloth {

struct TwinFrame {
  double time = 0;                // s
  double coarseDivergence = 0;    // m: mean over fine nodes of |B p_c^a - B p_c^b|
  double residualDivergence = 0;  // m: mean over fine nodes of |r^a - r^b|, r = p_f - B p_c
  double barycentricError = 0;    // m: mean over both runs and fine nodes of |r|
};

struct TwinDivergence {
  std::vector<TwinFrame> frames;  // every frame both runs have
  // Over the frames at or after `from` whose coarse divergence is at most `coarseTolerance` x their residual
  // divergence (the runs still share their coarse motion). `from` skips the frames where the fine runs are still
  // parting: the divergence grows from 0 until the fine detail has forgotten where it started.
  size_t framesUsed = 0;
  double residualDivergence = 0;  // m, mean
  double barycentricError = 0;    // m, mean
  // Lower bound of the mean error of any coarse-to-fine predictor on those frames, as a fraction of barycentric
  // interpolation's: residualDivergence / 2 / barycentricError (exact when the coarse states are equal).
  double boundRatio = 0;
  // Error of the best predictor (the conditional mean) when the unpredictable part of the residual is independent
  // between the runs and isotropic: residualDivergence / sqrt(2) / barycentricError.
  double estimateRatio = 0;
};

// `midpoint` is the barycentric map B (fine x coarse). The runs must have the same node counts; the shorter one sets
// the frame count. std::invalid_argument on mismatched sizes.
struct TwinOptions {
  double coarseTolerance = 0.1;
  double from = 0;  // s
};

TwinDivergence twinDivergence(const TrainingSequence& a, const TrainingSequence& b, const SparseMatrixD& midpoint,
                              const TwinOptions& options = {});

// Whether a frame counts for the summary of twinDivergence.
bool twinFrameUsed(const TwinFrame& f, const TwinOptions& options);

}  // namespace adacloth
