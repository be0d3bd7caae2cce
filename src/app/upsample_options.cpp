#include "app/upsample_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/error.h"

namespace adacloth {

double maxResidualOption(const Args& args) {
  const auto text = args.value("--max-residual");
  if (!text) return 0.1;
  size_t used = 0;
  double v = -1;
  try {
    v = std::stod(*text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text->size() || !std::isfinite(v) || v < 0)
    throw InputError("adacloth upsample: option '--max-residual' expects a length >= 0 (m), got '" + *text + "'");
  return v;
}

void reportDropped(const std::string& dir, const std::vector<char>& keep, double maxResidual) {
  const auto dropped = std::count(keep.begin(), keep.end(), 0);
  if (dropped > 0)
    std::fprintf(stderr, "%s: %ld of %zu frames left out (a fine node more than %g m from barycentric)\n",
                 dir.c_str(), long(dropped), keep.size(), maxResidual);
}

}  // namespace adacloth
