#pragma once
// Running another program (sbatch, sacct, squeue) and reading what it printed.
#include <string>
#include <vector>

namespace adacloth {

struct ProcessOutput {
  int exitCode = -1;  // the program's exit code; 127 when the shell could not run it
  std::string text;   // what it printed, standard output and standard error together
};

// The word quoted for bash (in single quotes unless it needs none).
std::string shellQuote(const std::string& word);

// The words as one bash command line.
std::string commandLine(const std::vector<std::string>& argv);

// Runs argv[0] with the arguments argv[1..] (found on PATH) and waits for it.
ProcessOutput runProcess(const std::vector<std::string>& argv);

// Whether `program` is an executable file on PATH.
bool onPath(const std::string& program);

}  // namespace adacloth
