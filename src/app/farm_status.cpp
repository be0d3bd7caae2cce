#include "app/farm_status.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/farm_scripts.h"
#include "app/process.h"
#include "config/schema.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace fs = std::filesystem;
namespace {

using config::Json;

std::vector<std::string> fields(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream in(row);
  std::string f;
  while (std::getline(in, f, '|')) out.push_back(f);
  return out;
}

// "3", "[0-3,5%2]" -> the task numbers; nothing for anything else.
std::vector<int> taskNumbers(std::string spec) {
  std::vector<int> tasks;
  if (!spec.empty() && spec.front() == '[') {
    spec = spec.substr(1, spec.find(']') == std::string::npos ? std::string::npos : spec.find(']') - 1);
    spec = spec.substr(0, spec.find('%'));
  }
  std::stringstream in(spec);
  std::string part;
  while (std::getline(in, part, ',')) {
    int first = 0, last = 0;
    char dash = 0;
    std::stringstream p(part);
    if (!(p >> first)) return {};
    last = first;
    if (p >> dash && !(dash == '-' && p >> last)) return {};
    for (int t = first; t <= last; ++t) tasks.push_back(t);
  }
  return tasks;
}

// What Slurm says about the given jobs: sacct when the cluster keeps accounting, else squeue (finished jobs only for
// MinJobAge). `source` tells which.
std::map<std::pair<std::string, int>, SlurmTask> askSlurm(const std::vector<StageJob>& stages, std::string& source) {
  std::string ids;
  for (const StageJob& s : stages) ids += (ids.empty() ? "" : ",") + s.job;
  const ProcessOutput sacct = runProcess({"sacct", "-j", ids, "--parsable2", "--noheader",
                                          "--format=JobID,JobName,State,Elapsed,ExitCode"});
  if (sacct.exitCode == 0) {
    source = "sacct";
    return parseSlurmRows(sacct.text);
  }
  // Without -j: squeue refuses the whole list when one job is no longer known.
  const ProcessOutput squeue = runProcess({"squeue", "-h", "-r", "-t", "all", "-o", "%i|%j|%T|%M|%r"});
  source = "squeue and the tasks' exit files (sacct: " + sacct.text.substr(0, sacct.text.find('\n')) + ")";
  if (squeue.exitCode != 0) {
    source = "the tasks' exit files only (squeue: " + squeue.text.substr(0, squeue.text.find('\n')) + ")";
    return {};
  }
  return parseSlurmRows(squeue.text);
}

// The exit code a task's script recorded, if it has ended.
std::optional<int> recordedExit(const fs::path& farmDir, const std::string& stage, int task) {
  std::ifstream in(taskExitFile(farmDir, stage, task));
  int code = 0;
  if (in >> code) return code;
  return std::nullopt;
}

TaskReport reportTask(const fs::path& farmDir, const StageJob& stage, int task,
                      const std::map<std::pair<std::string, int>, SlurmTask>& slurm) {
  TaskReport r{stage.name, task, TaskState::Failed, "no record in Slurm and no exit file (cancelled or lost)"};
  const auto row = slurm.find({stage.job, task});
  if (row != slurm.end()) {
    r.state = taskStateOf(row->second.state);
    r.detail = row->second.state + (row->second.detail.empty() ? "" : " (" + row->second.detail + ")");
  }
  if (const std::optional<int> code = recordedExit(farmDir, stage.name, task)) {
    r.state = *code == 0 ? TaskState::Done : TaskState::Failed;
    r.detail = "exit code " + std::to_string(*code);
  }
  return r;
}

}  // namespace

TaskState taskStateOf(const std::string& s) {
  if (s == "COMPLETED") return TaskState::Done;
  if (s == "RUNNING" || s == "COMPLETING" || s == "STAGE_OUT") return TaskState::Running;
  if (s == "PENDING" || s == "CONFIGURING" || s == "REQUEUED" || s == "REQUEUE_HOLD" || s == "REQUEUE_FED" ||
      s == "RESIZING" || s == "SUSPENDED" || s == "SIGNALING")
    return TaskState::Pending;
  return TaskState::Failed;  // FAILED, CANCELLED..., TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, PREEMPTED, BOOT_FAIL, ...
}

std::map<std::pair<std::string, int>, SlurmTask> parseSlurmRows(const std::string& text) {
  std::map<std::pair<std::string, int>, SlurmTask> rows;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = fields(line);
    if (f.size() < 3) continue;
    const std::string& id = f[0];
    const size_t underscore = id.find('_');
    if (underscore == std::string::npos || id.find('.') != std::string::npos) continue;
    SlurmTask task{f[2], f.size() > 4 ? f[4] : ""};
    for (int t : taskNumbers(id.substr(underscore + 1))) rows[{id.substr(0, underscore), t}] = task;
  }
  return rows;
}

std::vector<StageJob> readJobs(const fs::path& farmDir) {
  const fs::path file = farmDir / "jobs.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw InputError(file.string() + ": missing; expected a folder written by 'adacloth farm submit -o " +
                     farmDir.string() + "'");
  const Json j = config::parseJson(readFile(file), file.string());
  std::vector<StageJob> stages;
  if (!j.is_object() || !j.contains("stages") || !j["stages"].is_array())
    throw InputError(file.string() + ": /stages: expected an array of submitted stages");
  for (size_t i = 0; i < j["stages"].size(); ++i) {
    const Json& s = j["stages"][i];
    if (!s.is_object() || !s.contains("name") || !s["name"].is_string() || !s.contains("job") ||
        !s["job"].is_string() || !s.contains("tasks") || !s["tasks"].is_number_integer())
      throw InputError(file.string() + ": /stages/" + std::to_string(i) + ": expected name, job and tasks");
    stages.push_back({s["name"].get<std::string>(), s["job"].get<std::string>(), s["tasks"].get<int>()});
  }
  return stages;
}

FarmReport farmStatus(const fs::path& farmDir) {
  FarmReport report;
  report.stages = readJobs(farmDir);
  // Slurm first, then the exit files: a task that ends in between is then seen as ended, not as lost.
  const auto slurm = askSlurm(report.stages, report.source);
  for (const StageJob& stage : report.stages)
    for (int t = 0; t < stage.tasks; ++t) report.tasks.push_back(reportTask(farmDir, stage, t, slurm));
  return report;
}

int statusExitCode(const FarmReport& report) {
  bool running = false;
  for (const TaskReport& t : report.tasks) {
    if (t.state == TaskState::Failed) return 1;
    running = running || t.state != TaskState::Done;
  }
  return running ? 4 : 0;
}

std::string statusText(const FarmReport& report, const fs::path& farmDir) {
  std::string text = "stage       job        tasks  pending  running     done   failed\n";
  char line[160];
  for (const StageJob& stage : report.stages) {
    int count[4] = {0, 0, 0, 0};
    for (const TaskReport& t : report.tasks)
      if (t.stage == stage.name) ++count[int(t.state)];
    std::snprintf(line, sizeof line, "%-11s %-10s %5d %8d %8d %8d %8d\n", stage.name.c_str(), stage.job.c_str(),
                  stage.tasks, count[0], count[1], count[2], count[3]);
    text += line;
  }
  for (const TaskReport& t : report.tasks) {
    if (t.state != TaskState::Failed) continue;
    const fs::path log = taskLogFile(farmDir, t.stage, t.task);
    std::error_code ec;
    text += "failed: " + t.stage + " task " + std::to_string(t.task) + ": " + t.detail +
            (fs::exists(log, ec) ? "; log " + log.string() : "; it never ran (no log)") + "\n";
  }
  text += "(states from " + report.source + ")\n";
  return text;
}

}  // namespace adacloth
