#pragma once
// Compares a measured summary with the reference one within a scene's tolerances (scene_list.h).
#include <string>
#include <vector>

#include "regression/scene_list.h"
#include "regression/summary.h"

namespace adacloth::regression {

// Every metric outside its tolerance, one message each, naming scene, frame, cloth and metric with the reference
// and the measured value, e.g. "drape frame 12 cloth sheet: faces 3120 outside reference range [2400, 2900]".
// Frames or cloths missing on either side are reported too. Empty: the summaries agree.
std::vector<std::string> compareSummaries(const Summary& reference, const Summary& measured,
                                          const Tolerances& tolerances);

}  // namespace adacloth::regression
