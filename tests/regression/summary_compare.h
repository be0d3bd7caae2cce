#pragma once
// Compares a measured summary with the reference one within a scene's tolerances (scene_list.h).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "regression/scene_list.h"
#include "regression/summary.h"

namespace adacloth::regression {

// Per cloth name, its weight m |g| (N): the total node mass of the cloth as the shot builds it times the shot's
// gravity. potential_energy / weight is the height of the cloth's centre of mass above y = 0 (along -g). Remeshing
// keeps the material area, so the mass is the same at every frame.
using ClothWeights = std::map<std::string, double>;

// The weight of every cloth of a shot file (loads the shot and builds each cloth's mesh; throws InputError).
ClothWeights clothWeightsOf(const std::filesystem::path& shot);

// Every metric outside its tolerance, one message each, naming scene, frame, cloth and metric with the reference
// and the measured value, e.g. "drape frame 12 cloth sheet: faces 3120 outside reference range [2400, 2900]".
// Frames or cloths missing on either side are reported too, and so is a cloth without a weight. Empty: the
// summaries agree. The peaks of the kinetic and elastic energies are taken over the reference's frames.
std::vector<std::string> compareSummaries(const Summary& reference, const Summary& measured,
                                          const Tolerances& tolerances, const ClothWeights& weights);

}  // namespace adacloth::regression
