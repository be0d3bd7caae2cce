// `adacloth farm`: the plan's stages and tasks, the sbatch scripts, and reading Slurm's answers (docs/farm.md).
#include <catch2/catch.hpp>
#include <fstream>

#include "app/farm_plan.h"
#include "app/farm_scripts.h"
#include "app/farm_status.h"
#include "config/schema.h"
#include "farm_fixtures.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

FarmPlan crowdPlan(const fs::path& dir) {
  FarmOptions options;
  options.dir = dir;
  options.frames = 6;
  options.renderChunk = 4;
  return planFarm({sourceDir() / "conf/crowd.json"}, options);
}

bool contains(const TaskCommand& c, const std::string& word) { return std::find(c.begin(), c.end(), word) != c.end(); }

}  // namespace

TEST_CASE("farm stages of crowd: five group runs, one merge, render chunks", "[app][farm]") {
  const FarmPlan plan = crowdPlan("/farm");
  const std::vector<Stage> stages = farmStages(plan, "/bin/adacloth", "/repo/tools/make_movie.sh");
  REQUIRE(stages.size() == 4);
  CHECK(stages[0].name == "simulate");
  REQUIRE(stages[0].tasks.size() == 5);
  const TaskCommand& cape = stages[0].tasks[1];
  CHECK(cape[0] == "/bin/adacloth");
  CHECK(cape[1] == "simulate");
  CHECK(cape[2] == (sourceDir() / "conf/crowd.json").lexically_normal().string());
  for (const char* word : {"--cloths", "cape2", "--obstacles", "walker2,floor", "/farm/groups/crowd/g1", "6"})
    CHECK(contains(cape, word));
  CHECK(stages[1].name == "merge");
  REQUIRE(stages[1].tasks.size() == 1);
  CHECK(stages[1].tasks[0] == TaskCommand{"/bin/adacloth", "merge", "/farm/crowd", "/farm/groups/crowd/g0",
                                          "/farm/groups/crowd/g1", "/farm/groups/crowd/g2", "/farm/groups/crowd/g3",
                                          "/farm/groups/crowd/g4"});
  CHECK(stages[2].name == "render");
  REQUIRE(stages[2].tasks.size() == 2);  // frames 0-3 and 4-6
  CHECK(contains(stages[2].tasks[0], "0:3"));
  CHECK(contains(stages[2].tasks[1], "4:6"));
  CHECK(stages[3].tasks == std::vector<TaskCommand>{{"bash", "/repo/tools/make_movie.sh", "/farm/crowd"}});

  const config::Json j = planJson(plan);
  CHECK(j["shots"][0]["groups"].size() == 5);
  CHECK(j["shots"][0]["groups"][4]["cloths"] == config::Json::array({"skirt5"}));
  CHECK(j["shots"][0]["render_chunks"] == config::Json::parse("[[0, 3], [4, 6]]"));
  CHECK_THAT(planText(plan), Catch::Contains("g3: cloths cape4; obstacles walker4, floor"));
}

TEST_CASE("a shot that is not split runs as one task into its own output, without a merge", "[app][farm]") {
  FarmOptions options;
  options.dir = "/farm";
  options.render = false;
  const FarmPlan plan = planFarm({sourceDir() / "conf/drape.json"}, options);
  const std::vector<Stage> stages = farmStages(plan, "/bin/adacloth", "");
  REQUIRE(stages.size() == 1);
  REQUIRE(stages[0].tasks.size() == 1);
  CHECK(contains(stages[0].tasks[0], "/farm/drape"));
  CHECK_FALSE(contains(stages[0].tasks[0], "--cloths"));
  CHECK(contains(stages[0].tasks[0], "72"));  // the shot's own frames
}

TEST_CASE("shots whose folders in FARM_DIR would clash are refused", "[app][farm]") {
  TempDir dir("farm-names");
  std::string logs = sheetsShot({hangingSheet("a", 0)});
  logs.replace(logs.find("\"sheets\""), 8, "\"logs\"");
  writeText(dir / "logs.json", logs);
  writeText(dir / "one.json", sheetsShot({hangingSheet("a", 0)}));
  writeText(dir / "two.json", sheetsShot({hangingSheet("b", 0)}));
  FarmOptions options;
  options.dir = dir / "farm";
  CHECK_THROWS_AS(planFarm({dir / "logs.json"}, options), InputError);
  CHECK_THROWS_WITH(planFarm({dir / "logs.json"}, options), Catch::Contains("/name: \"logs\" cannot name"));
  CHECK_THROWS_WITH(planFarm({dir / "one.json", dir / "two.json"}, options),
                    Catch::Contains("two.json: another shot of this farm run is also named \"sheets\""));
}

TEST_CASE("a stage's sbatch script: array, CPUs, threads, logs, task table, exit file", "[app][farm]") {
  const Stage stage{"render", {{"/bin/adacloth", "render", "/farm/my shot", "--frames", "0:3"},
                               {"/bin/adacloth", "render", "/farm/it's", "--frames", "4:6"}}};
  SlurmSettings slurm;
  slurm.cpusPerTask = 2;
  slurm.maxParallel = 1;
  slurm.partition = "big";
  const std::string s = stageScript(stage, "/farm", slurm, "/bin/adacloth");
  CHECK_THAT(s, Catch::StartsWith("#!/bin/bash\n"));
  for (const char* line : {"#SBATCH --job-name=adacloth-render\n", "#SBATCH --array=0-1%1\n",
                           "#SBATCH --cpus-per-task=2\n", "#SBATCH --partition=big\n",
                           "#SBATCH --output=/farm/logs/render_%a.log\n",
                           "export OMP_NUM_THREADS=\"${SLURM_CPUS_PER_TASK:-1}\"\n",
                           "  0) cmd=(/bin/adacloth render '/farm/my shot' --frames 0:3) ;;\n",
                           "  1) cmd=(/bin/adacloth render '/farm/it'\\''s' --frames 4:6) ;;\n",
                           "mv -f /farm/status/render_\"$task\".exit.tmp /farm/status/render_\"$task\".exit\n"})
    CHECK_THAT(s, Catch::Contains(line));
  CHECK(sbatchCommand("/farm/render.sbatch", "") ==
        std::vector<std::string>{"sbatch", "--parsable", "/farm/render.sbatch"});
  CHECK(sbatchCommand("/farm/render.sbatch", "12") ==
        std::vector<std::string>{"sbatch", "--parsable", "--dependency=afterok:12", "--kill-on-invalid-dep=yes",
                                 "/farm/render.sbatch"});
}

TEST_CASE("farm submit --dry-run writes the plan and the scripts and submits nothing", "[app][farm]") {
  TempDir dir("farm-dry");
  const fs::path farm = dir / "farm";
  RunResult r = runAdacloth("farm submit '" + (sourceDir() / "conf/crowd.json").string() + "' -o '" +
                            farm.string() + "' --frames 6 --render-chunk 4 --no-movie --dry-run");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  for (const char* file : {"plan.json", "simulate.sbatch", "merge.sbatch", "render.sbatch"})
    CHECK(fs::is_regular_file(farm / file));
  CHECK_FALSE(fs::exists(farm / "movie.sbatch"));
  CHECK_FALSE(fs::exists(farm / "jobs.json"));
  CHECK_THAT(readFile(farm / "simulate.sbatch"), Catch::Contains("#SBATCH --array=0-4\n"));
  CHECK_THAT(readFile(farm / "merge.sbatch"), Catch::Contains("#SBATCH --array=0-0\n"));
  CHECK_THAT(readFile(farm / "render.sbatch"), Catch::Contains("#SBATCH --array=0-1\n"));
  CHECK_THAT(r.output, Catch::Contains("sbatch --parsable " + (farm / "simulate.sbatch").string() + "\n"));
  CHECK_THAT(r.output, Catch::Contains("'--dependency=afterok:<simulate job>' --kill-on-invalid-dep=yes " +
                                       (farm / "merge.sbatch").string()));
  CHECK_THAT(r.output, Catch::Contains("'--dependency=afterok:<merge job>'"));

  RunResult bad = runAdacloth("farm submit '" + (sourceDir() / "conf/crowd.json").string() + "' -o '" +
                              (dir / "a b").string() + "' --dry-run");
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.output, Catch::Contains("without spaces"));
  CHECK(runAdacloth("farm submit '" + (sourceDir() / "conf/crowd.json").string() + "' --dry-run").exitCode == 2);
  CHECK(runAdacloth("farm plan").exitCode == 2);
  CHECK(runAdacloth("farm launch").exitCode == 2);
}

TEST_CASE("Slurm's rows: array tasks expanded, job steps skipped, states mapped", "[app][farm]") {
  const auto rows = parseSlurmRows("12_[0-2,5%2]|adacloth-render|PENDING|00:00:00|0:0\n"
                                   "12_3|adacloth-render|COMPLETED|00:00:07|0:0\n"
                                   "12_3.batch|batch|COMPLETED|00:00:07|0:0\n"
                                   "12_4|adacloth-render|FAILED|00:00:01|3:0\n"
                                   "13_0|adacloth-movie|CANCELLED by 0|00:00:00|0:0\n"
                                   "14|other|RUNNING|00:00:01|0:0\n");
  CHECK(rows.size() == 7);
  for (int t : {0, 1, 2, 5}) CHECK(rows.at({"12", t}).state == "PENDING");
  CHECK(rows.at({"12", 4}).detail == "3:0");
  CHECK(taskStateOf(rows.at({"12", 3}).state) == TaskState::Done);
  CHECK(taskStateOf(rows.at({"12", 4}).state) == TaskState::Failed);
  CHECK(taskStateOf(rows.at({"13", 0}).state) == TaskState::Failed);
  CHECK(taskStateOf("RUNNING") == TaskState::Running);
  CHECK(taskStateOf("PENDING") == TaskState::Pending);
}

TEST_CASE("farm status: the tasks' exit files decide, exit 1 when one failed", "[app][farm]") {
  TempDir dir("farm-status");
  // Job ids no cluster has: whatever sacct or squeue say, only the exit files count.
  writeText(dir / "jobs.json", R"({"stages": [{"name": "simulate", "job": "987654321", "tasks": 2}]})");
  writeText(dir / "status/simulate_0.exit", "0\n");
  RunResult running = runAdacloth("farm status '" + dir.path().string() + "'");
  INFO(running.output);
  CHECK(running.exitCode == 1);  // task 1 has no record anywhere: lost
  CHECK_THAT(running.output, Catch::Contains("failed: simulate task 1: no record in Slurm and no exit file "
                                             "(cancelled or lost); it never ran (no log)"));
  writeText(dir / "status/simulate_1.exit", "3\n");
  writeText(dir / "logs/simulate_1.log", "adacloth: error: ...\n");
  RunResult failed = runAdacloth("farm status '" + dir.path().string() + "'");
  CHECK(failed.exitCode == 1);
  CHECK_THAT(failed.output, Catch::Contains("failed: simulate task 1: exit code 3; log " +
                                            (dir / "logs/simulate_1.log").string()));
  writeText(dir / "status/simulate_1.exit", "0\n");
  RunResult done = runAdacloth("farm status '" + dir.path().string() + "'");
  CHECK(done.exitCode == 0);
  CHECK_THAT(done.output, Catch::Contains("simulate    987654321      2        0        0        2        0"));
  CHECK(runAdacloth("farm status '" + (dir / "nothing").string() + "'").exitCode == 2);
}
