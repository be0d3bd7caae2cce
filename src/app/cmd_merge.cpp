// `adacloth merge OUT GROUP_OUT...`: the output folder of a whole shot from the folders of its cloth groups.
#include <cstdio>

#include "app/args.h"
#include "app/commands.h"
#include "app/merge_outputs.h"
#include "io/error.h"

namespace adacloth {

int runMergeCommand(int argc, char** argv) {
  Args args("merge", {{"--quiet", "-q", false}}, argc, argv, 2);
  if (args.positionals().size() < 2)
    throw InputError("adacloth merge: expected OUT and at least one group folder (see 'adacloth merge --help')");
  const std::filesystem::path out = args.positionals().front();
  const std::vector<std::filesystem::path> groups(args.positionals().begin() + 1, args.positionals().end());
  mergeGroupOutputs(out, groups);
  if (!args.has("--quiet"))
    std::fprintf(stderr, "merge: %zu group(s) into %s\n", groups.size(), out.string().c_str());
  return 0;
}

}  // namespace adacloth
