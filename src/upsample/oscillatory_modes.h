#pragma once
// Oscillatory modes (seed 000 §5): travelling waves the coarse mesh cannot explain, fitted to the residual of a
// trained operator along the normals of the upsampled surface. Per mode: a frequency found by autocorrelation of
// the residual over time, then per-node sine and cosine amplitudes by least squares; the residual is deflated and
// the next mode is fitted to what is left.
#include "upsample/train_operator.h"
#include "upsample/upsample_operator.h"

namespace adacloth {

// The normal displacement D (fine nodes x frames, m) of one sequence: residual p_f - U p_c dotted with the unit
// normals of U p_c (the operator's modes are ignored).
Eigen::MatrixXd normalResidual(const UpsampleOperator& op, const TrainingSequence& seq);

// Strongest period (frames, fractional) of the rows of D: the highest autocorrelation peak after the first zero
// crossing, refined by a parabola through its neighbours; 0 when there is no periodic component.
double dominantPeriod(const Eigen::MatrixXd& D);

// Fits `count` modes to the training data (frames of each sequence equally spaced in time). Returns fewer when the
// residual has no periodic component left.
std::vector<OscillatoryMode> fitOscillatoryModes(const UpsampleOperator& op, const std::vector<TrainingSequence>& data,
                                                 int count);

}  // namespace adacloth
