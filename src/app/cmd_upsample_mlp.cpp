// `adacloth upsample mlp-data` (cmd_upsample_mlp.h): the training samples of the patch-wise MLP upsampler for
// tools/train_patch_mlp.py. A trained model is evaluated with the others by `adacloth upsample eval`.
#include "app/cmd_upsample_mlp.h"

#include <cstdio>

#include "app/args.h"
#include "app/upsample_options.h"
#include "io/error.h"
#include "upsample/patch_dataset.h"
#include "upsample/patch_mlp.h"

namespace adacloth {

int runUpsampleMlpData(int argc, char** argv) {
  Args args("upsample mlp-data", {{"--out", "-o", true}, {"--max-residual", "", true}}, argc, argv, 3);
  if (args.positionals().empty())
    throw InputError("adacloth upsample mlp-data: expected one or more track folders");
  if (!args.has("--out")) throw InputError("adacloth upsample mlp-data: -o DATASET.bin is required");
  std::vector<TrackedData> data;
  for (const std::string& dir : args.positionals()) data.push_back(readTrackedData(dir));
  const std::string out = *args.value("--out");
  const double maxResidual = maxResidualOption(args);
  std::vector<size_t> kept;
  const size_t samples = writePatchDataset(data, out, args.positionals(), maxResidual, &kept);
  size_t frames = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    reportDropped(args.positionals()[i], data[i].frames.coarse.size() - kept[i], data[i].frames.coarse.size(),
                  maxResidual);
    frames += kept[i];
  }
  std::fprintf(stderr, "%zu samples (%zu frames x %zu faces, %d fine nodes per face) from %zu folders -> %s\n",
               samples, frames, data.front().coarse.faces.size(), patchNodeCount(data.front().levels), data.size(),
               out.c_str());
  return 0;
}

}  // namespace adacloth
