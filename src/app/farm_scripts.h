#pragma once
// The Slurm side of `adacloth farm submit` (docs/farm.md): one sbatch job-array script per stage, the sbatch command
// that submits it after the previous stage, and where each task leaves its log and its exit code. Every path in a
// script is absolute and nothing in it names a machine, so any node that mounts FARM_DIR and the repository at the
// same paths can run any task: a larger farm changes only slurm.conf.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/farm_plan.h"

namespace adacloth {

struct SlurmSettings {
  std::string partition;             // empty: the cluster's default partition
  int cpusPerTask = 1;               // OMP_NUM_THREADS of every task (results are the same at any count)
  std::optional<int> maxParallel;    // at most this many tasks of a stage at once (sbatch --array=...%K)
};

// FARM_DIR/<stage>.sbatch, FARM_DIR/logs/<stage>_<task>.log, FARM_DIR/status/<stage>_<task>.exit.
std::filesystem::path stageScriptFile(const std::filesystem::path& farmDir, const std::string& stage);
std::filesystem::path taskLogFile(const std::filesystem::path& farmDir, const std::string& stage, int task);
std::filesystem::path taskExitFile(const std::filesystem::path& farmDir, const std::string& stage, int task);

// The script of a stage: #SBATCH lines (job name adacloth-<stage>, the array 0..tasks-1, CPUs per task, partition,
// log file), OMP_NUM_THREADS from SLURM_CPUS_PER_TASK, a table from SLURM_ARRAY_TASK_ID to the task's command, and
// the task's exit code written to its exit file (`farm status` reads it where sacct has no accounting).
std::string stageScript(const Stage& stage, const std::filesystem::path& farmDir, const SlurmSettings& slurm,
                        const std::string& adacloth);

// sbatch --parsable [--dependency=afterok:JOB --kill-on-invalid-dep=yes] SCRIPT: a stage starts when every task of
// the previous one succeeded, and is cancelled when one failed. `afterJob` empty: no dependency.
std::vector<std::string> sbatchCommand(const std::filesystem::path& script, const std::string& afterJob);

}  // namespace adacloth
