#pragma once
// `adacloth farm status FARM_DIR`: how far the stages submitted by `farm submit` (FARM_DIR/jobs.json) got. Each task's
// state comes from its own exit file (FARM_DIR/status, written by the job script as it ends), else from Slurm:
// sacct where the cluster keeps accounting (slurmdbd), else squeue (a cluster without accounting, such as
// tools/slurm-local.sh's, remembers finished jobs for MinJobAge only; the exit files cover the rest).
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace adacloth {

enum class TaskState { Pending, Running, Done, Failed };

// Slurm's job state (COMPLETED, RUNNING, "CANCELLED by 0", ...) as a task state.
TaskState taskStateOf(const std::string& slurmState);

// One array task as Slurm reports it.
struct SlurmTask {
  std::string state;   // Slurm's
  std::string detail;  // sacct: the exit code ("1:0"); squeue: the reason
};

// Rows "JOBID|NAME|STATE|ELAPSED|DETAIL" (sacct --parsable2 --noheader, or squeue -h -o "%i|%j|%T|%M|%r") by (job,
// task). Array ranges are expanded ("12_[0-3,5%2]"); job steps ("12_3.batch") and rows that are no array task are
// skipped.
std::map<std::pair<std::string, int>, SlurmTask> parseSlurmRows(const std::string& text);

struct StageJob {
  std::string name;  // simulate, merge, render, movie
  std::string job;   // Slurm job id of its array
  int tasks = 0;
};

struct TaskReport {
  std::string stage;
  int task = 0;
  TaskState state = TaskState::Pending;
  std::string detail;  // why it failed, or Slurm's state
};

struct FarmReport {
  std::vector<StageJob> stages;
  std::vector<TaskReport> tasks;
  std::string source;  // where the states came from, for the printout
};

// FARM_DIR/jobs.json (InputError when missing or malformed).
std::vector<StageJob> readJobs(const std::filesystem::path& farmDir);
// The state of every task of every stage of FARM_DIR/jobs.json.
FarmReport farmStatus(const std::filesystem::path& farmDir);
// 0 every task done, 1 some task failed (or was cancelled), 4 none failed and some still pending or running.
int statusExitCode(const FarmReport& report);
// A table of counts per stage and one line per failed task with its log file.
std::string statusText(const FarmReport& report, const std::filesystem::path& farmDir);

}  // namespace adacloth
