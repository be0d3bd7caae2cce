#pragma once
// Subcommands of the adacloth CLI. Each parses argv[2..] itself, returns an exit code, and lets InputError /
// SimulationError propagate to runCli, which turns them into one-line messages and exit codes 2 / 3.
namespace adacloth {

struct Command {
  const char* name;
  const char* summary;  // one line, for `adacloth --help`
  const char* help;     // full usage, for `adacloth NAME --help`
  int (*run)(int argc, char** argv);
};

int runSimulateCommand(int argc, char** argv);
int runInfoCommand(int argc, char** argv);
int runSchemaCommand(int argc, char** argv);
int runRenderCommand(int argc, char** argv);
int runCompareCommand(int argc, char** argv);
int runContactSheetCommand(int argc, char** argv);
int runUpsampleCommand(int argc, char** argv);
int runMergeCommand(int argc, char** argv);
int runFarmCommand(int argc, char** argv);

// Dispatches to a command; handles --help, --version and the exit-code contract (0 ok, 2 bad input, 3 simulation
// failure, 1 anything else such as an unwritable output folder).
int runCli(int argc, char** argv);

}  // namespace adacloth
