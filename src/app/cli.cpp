#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/commands.h"
#include "config/schema.h"
#include "io/error.h"

namespace adacloth {
namespace {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"simulate", "run a shot and write frames, stats and the resolved shot",
       "usage: adacloth simulate SHOT.json [-o OUT] [--frames N] [--threads T] [--quiet]\n"
       "\n"
       "Runs the shot and writes OUT (default: out/<shot name>):\n"
       "  OUT/frames/<cloth>_<frame:05d>.obj   cloth meshes (v = world positions, vt = material coordinates)\n"
       "  OUT/stats.jsonl                      one JSON object per frame (faces, edge lengths, ms per phase)\n"
       "  OUT/shot.resolved.json               the shot with every default filled in\n"
       "Frames, stats and renders left in OUT by an earlier run are removed first.\n"
       "\n"
       "options:\n"
       "  -o, --out OUT     output folder\n"
       "  --frames N        simulate N frames after frame 0 (default: the shot's \"frames\")\n"
       "  --threads T       OpenMP threads (default: all cores); results are identical at any count\n"
       "  --quiet           no progress on stderr\n"
       "\n"
       "exit codes: 0 done, 2 bad input (nothing written), 3 the simulation failed (frames so far are kept)\n",
       runSimulateCommand},
      {"info", "validate a shot and print a summary",
       "usage: adacloth info SHOT.json\n"
       "\n"
       "Validates the shot and every file it names (meshes, camera) and prints its cloths (nodes, faces, material\n"
       "area, mass, bounding box), obstacles, camera and frame range. Exit code 2 with a one-line message on bad\n"
       "input.\n",
       runInfoCommand},
      {"schema", "print the reference of the shot file format (Markdown)",
       "usage: adacloth schema\n"
       "\n"
       "Prints every key of a shot file with its type, unit, default and meaning, as Markdown. docs/shot-format.md\n"
       "is this output.\n",
       runSchemaCommand},
  };
  return table;
}

void printOverview() {
  std::printf("adacloth %s: adaptive, view-dependent cloth simulation for animated shots\n\n", ADACLOTH_VERSION);
  std::printf("usage: adacloth COMMAND [options]    (adacloth COMMAND --help for details)\n\ncommands:\n");
  for (const Command& c : commands()) std::printf("  %-10s %s\n", c.name, c.summary);
  std::printf("\noptions:\n  --help      this text\n  --version   print the version\n");
}

bool wantsHelp(int argc, char** argv) {
  for (int i = 2; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) return true;
  return false;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    printOverview();
    return 2;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printOverview();
    return 0;
  }
  if (name == "--version") {
    std::printf("adacloth %s\n", ADACLOTH_VERSION);
    return 0;
  }
  std::vector<std::string> names;
  for (const Command& c : commands()) {
    if (name == c.name) {
      if (wantsHelp(argc, argv)) {
        std::fputs(c.help, stdout);
        return 0;
      }
      return c.run(argc, argv);
    }
    names.push_back(c.name);
  }
  auto guess = config::didYouMean(name, names);
  throw InputError("unknown command '" + name + "'" + (guess ? " (did you mean '" + *guess + "'?)" : "") +
                   "; see 'adacloth --help'");
}

}  // namespace

int runCli(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "adacloth: error: %s\n", e.what());
    return 2;
  } catch (const SimulationError& e) {
    std::fprintf(stderr, "\nadacloth: simulation failed: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "adacloth: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace adacloth
