#pragma once
// `adacloth upsample mlp-data`: the training samples of the patch-wise MLP upsampler (upsample/patch_mlp.h).
// Training itself is tools/train_patch_mlp.py; `adacloth upsample eval` evaluates the model with the others. Parses
// argv[3..] (argv[1] "upsample", argv[2] the subcommand) like the other `upsample` subcommands, and lets InputError
// propagate.
namespace adacloth {

// adacloth upsample mlp-data DIR... -o DATASET.bin
int runUpsampleMlpData(int argc, char** argv);

}  // namespace adacloth
