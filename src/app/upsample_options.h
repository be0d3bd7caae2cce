#pragma once
// Options shared by the `adacloth upsample` subcommands that read training folders.
#include <string>
#include <vector>

#include "app/args.h"

namespace adacloth {

// The value of option `name`, > 0 unless `allowZero`; InputError naming the option otherwise.
double parsePositive(const std::string& name, const std::string& text, bool allowZero);

// `--max-residual X` (m, >= 0; 0 keeps every frame): training frames with a fine node farther than X from the
// barycentric prediction are left out (upsample/training_data.h, framesWithin). Default 0.1 m.
double maxResidualOption(const Args& args);

// One line on stderr when `dropped` (> 0) of the `total` frames of `dir` were left out by the residual check.
void reportDropped(const std::string& dir, size_t dropped, size_t total, double maxResidual);

}  // namespace adacloth
