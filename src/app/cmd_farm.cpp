// `adacloth farm plan|submit|status`: a shot split into jobs on a Slurm cluster (docs/farm.md).
#include <cstdio>
#include <filesystem>

#include "app/args.h"
#include "app/commands.h"
#include "app/farm_plan.h"
#include "app/farm_scripts.h"
#include "app/farm_status.h"
#include "app/process.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace fs = std::filesystem;
namespace {

using config::Json;

const std::vector<OptionSpec> kPlanOptions = {
    {"--out", "-o", true},        {"--frames", "", true},   {"--render-chunk", "", true},
    {"--no-render", "", false},   {"--no-movie", "", false}, {"--render-width", "", true},
    {"--conservative", "", false}};

std::vector<OptionSpec> submitOptions() {
  std::vector<OptionSpec> specs = kPlanOptions;
  specs.insert(specs.end(), {{"--partition", "", true}, {"--cpus-per-task", "", true}, {"--max-parallel", "", true},
                             {"--dry-run", "", false}});
  return specs;
}

// FARM_DIR goes into #SBATCH lines, which know no quoting.
fs::path farmDirOf(const Args& args, const std::string& command) {
  const std::string dir = *args.value("--out");
  for (char c : dir)
    if (std::isspace(static_cast<unsigned char>(c)) || c == '%' || c == '\'' || c == '"' || c == '\\')
      throw InputError("adacloth " + command + ": -o " + dir + ": expected a folder path without spaces, quotes, "
                       "backslashes or '%' (it goes into sbatch's #SBATCH lines)");
  return fs::absolute(dir).lexically_normal();
}

FarmPlan planFromArgs(const Args& args, const std::string& command) {
  if (args.positionals().size() < 2)
    throw InputError("adacloth " + command + ": expected at least one shot file (see 'adacloth farm --help')");
  FarmOptions options;
  if (args.has("--out")) options.dir = farmDirOf(args, command);
  options.frames = args.integer("--frames", 0, 10000000);
  options.renderChunk = args.integer("--render-chunk", 1, 100000).value_or(options.renderChunk);
  options.render = !args.has("--no-render");
  options.movie = !args.has("--no-movie");
  options.renderWidth = args.integer("--render-width", 1, 16384);
  if (args.has("--conservative")) options.reach = ReachModel::Conservative;
  const std::vector<fs::path> shots(args.positionals().begin() + 1, args.positionals().end());
  return planFarm(shots, options);
}

void writePlan(const FarmPlan& plan) {
  fs::create_directories(plan.options.dir);
  writeFileAtomically(plan.options.dir / "plan.json", planJson(plan).dump(2) + "\n");
}

int runPlan(int argc, char** argv) {
  Args args("farm plan", kPlanOptions, argc, argv, 2);
  const FarmPlan plan = planFromArgs(args, "farm plan");
  std::fputs(planText(plan).c_str(), stdout);
  if (!plan.options.dir.empty()) writePlan(plan);
  return 0;
}

// tools/make_movie.sh, when this machine can make movies; else empty, after saying why.
std::string movieScript(const FarmPlan& plan) {
  if (!plan.options.movie || !plan.options.render) return "";
  const fs::path script = fs::path(ADACLOTH_SOURCE_DIR) / "tools" / "make_movie.sh";
  std::error_code ec;
  if (!fs::is_regular_file(script, ec)) {
    std::printf("note: no movie stage: %s is missing\n", script.string().c_str());
    return "";
  }
  if (!onPath("ffmpeg")) {
    std::printf("note: no movie stage: ffmpeg is not installed here (apt-get install ffmpeg, or --no-movie)\n");
    return "";
  }
  return script.string();
}

// Clears what an earlier submission left (its logs, exit files and job ids would be read as this one's).
void prepareFarmDir(const fs::path& dir) {
  for (const char* sub : {"logs", "status"}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir / sub, ec))
      if (entry.path().extension() == ".log" || entry.path().extension() == ".exit") fs::remove(entry.path());
    fs::create_directories(dir / sub);
  }
  fs::remove(dir / "jobs.json");
}

void writeJobs(const fs::path& dir, const std::vector<StageJob>& jobs) {
  Json stages = Json::array();
  for (const StageJob& s : jobs) stages.push_back({{"name", s.name}, {"job", s.job}, {"tasks", s.tasks}});
  writeFileAtomically(dir / "jobs.json", Json{{"stages", stages}}.dump(2) + "\n");
}

// Submits the stages in order, each after the previous one; returns their job ids.
std::vector<StageJob> submitStages(const std::vector<Stage>& stages, const fs::path& dir) {
  std::vector<StageJob> jobs;
  for (const Stage& stage : stages) {
    const std::vector<std::string> command =
        sbatchCommand(stageScriptFile(dir, stage.name), jobs.empty() ? "" : jobs.back().job);
    const ProcessOutput result = runProcess(command);
    const std::string id = result.text.substr(0, result.text.find_first_of(";\n"));
    if (result.exitCode != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
      std::string submitted;
      for (const StageJob& j : jobs) submitted += " " + j.job;
      throw std::runtime_error("adacloth farm submit: '" + commandLine(command) + "' failed (" +
                               result.text.substr(0, result.text.find('\n')) + ")" +
                               (submitted.empty() ? "" : "; already submitted, cancel with: scancel" + submitted));
    }
    jobs.push_back({stage.name, id, int(stage.tasks.size())});
    std::printf("%-9s job %s: %zu task(s)%s\n", stage.name.c_str(), id.c_str(), stage.tasks.size(),
                jobs.size() > 1 ? (", after " + jobs[jobs.size() - 2].name).c_str() : "");
  }
  return jobs;
}

int runSubmit(int argc, char** argv) {
  Args args("farm submit", submitOptions(), argc, argv, 2);
  if (!args.has("--out"))
    throw InputError("adacloth farm submit: -o FARM_DIR is required (see 'adacloth farm --help')");
  SlurmSettings slurm;
  slurm.partition = args.value("--partition").value_or("");
  slurm.cpusPerTask = args.integer("--cpus-per-task", 1, 4096).value_or(1);
  slurm.maxParallel = args.integer("--max-parallel", 1, 100000);
  const FarmPlan plan = planFromArgs(args, "farm submit");
  const bool dryRun = args.has("--dry-run");
  if (!dryRun && !onPath("sbatch"))
    throw std::runtime_error("adacloth farm submit: sbatch is not on PATH (install slurm-client and start a cluster: "
                             "bash tools/slurm-local.sh start)");
  std::fputs(planText(plan).c_str(), stdout);
  const std::string adacloth = fs::read_symlink("/proc/self/exe").string();
  const std::vector<Stage> stages = farmStages(plan, adacloth, movieScript(plan));
  const fs::path& dir = plan.options.dir;
  writePlan(plan);
  prepareFarmDir(dir);
  for (const Stage& stage : stages)
    writeFileAtomically(stageScriptFile(dir, stage.name), stageScript(stage, dir, slurm, adacloth));
  if (dryRun) {
    for (size_t i = 0; i < stages.size(); ++i)
      std::printf("%s\n", commandLine(sbatchCommand(stageScriptFile(dir, stages[i].name),
                                                    i ? "<" + stages[i - 1].name + " job>" : ""))
                              .c_str());
    return 0;
  }
  writeJobs(dir, submitStages(stages, dir));
  std::printf("status: %s farm status %s\n", adacloth.c_str(), dir.string().c_str());
  return 0;
}

int runStatus(int argc, char** argv) {
  Args args("farm status", {}, argc, argv, 2);
  args.expectPositionals(2, "one farm folder");
  const fs::path dir = args.positionals()[1];
  const FarmReport report = farmStatus(dir);
  std::fputs(statusText(report, dir).c_str(), stdout);
  return statusExitCode(report);
}

}  // namespace

int runFarmCommand(int argc, char** argv) {
  const std::string sub = argc > 2 ? argv[2] : "";
  if (sub == "plan") return runPlan(argc, argv);
  if (sub == "submit") return runSubmit(argc, argv);
  if (sub == "status") return runStatus(argc, argv);
  throw InputError("adacloth farm: expected plan, submit or status, got '" + sub + "' (see 'adacloth farm --help')");
}

}  // namespace adacloth
