#pragma once
// Options shared by the `adacloth upsample` subcommands that read training folders.
#include <string>
#include <vector>

#include "app/args.h"

namespace adacloth {

// `--max-residual X` (m, >= 0; 0 keeps every frame): training frames with a fine node farther than X from the
// barycentric prediction are left out (upsample/training_data.h, framesWithin). Default 0.1 m.
double maxResidualOption(const Args& args);

// One line on stderr when frames of `dir` were left out by the residual check.
void reportDropped(const std::string& dir, const std::vector<char>& keep, double maxResidual);

}  // namespace adacloth
