#include "app/upsample_options.h"

#include <cmath>
#include <cstdio>

#include "io/error.h"

namespace adacloth {

double parsePositive(const std::string& name, const std::string& text, bool allowZero) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(v) || v < 0 || (v == 0 && !allowZero))
    throw InputError("adacloth upsample: option '" + name + "' expects a positive number, got '" + text + "'");
  return v;
}

double maxResidualOption(const Args& args) {
  const auto text = args.value("--max-residual");
  return text ? parsePositive("--max-residual", *text, true) : 0.1;
}

void reportDropped(const std::string& dir, size_t dropped, size_t total, double maxResidual) {
  if (dropped > 0)
    std::fprintf(stderr, "%s: %zu of %zu frames left out (a fine node more than %g m from barycentric)\n",
                 dir.c_str(), dropped, total, maxResidual);
}

}  // namespace adacloth
