// Kill and resume (issue 18): a run killed with SIGKILL in the middle of a frame and resumed with --resume writes the
// same frames, obstacles and stats (but for wall times) as a run that was never interrupted.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "regression/output_identity.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

// Starts `adacloth simulate` with `args` (no shell), output to /dev/null; returns its pid.
pid_t startSimulate(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {ADACLOTH_EXE, "simulate"};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    ::freopen("/dev/null", "w", stderr);
    ::freopen("/dev/null", "w", stdout);
    ::execv(raw[0], raw.data());
    ::_exit(127);
  }
  return pid;
}

// Kills the run with SIGKILL as soon as `file` exists (so in the middle of the next frame); false when the run ended
// first.
bool killWhenWritten(pid_t pid, const fs::path& file) {
  int status = 0;
  while (!fs::exists(file)) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

void killAndResume(const std::string& shot, const std::string& cloth, int frames, int every, int killAfter) {
  TempDir dir("resume-" + shot);
  const std::string shotFile = (sourceDir() / "conf" / (shot + ".json")).string();
  const std::vector<std::string> common = {shotFile, "--frames", std::to_string(frames), "--checkpoint-every",
                                           std::to_string(every), "--threads", "1", "--quiet"};
  const std::string commonText = "'" + shotFile + "' --frames " + std::to_string(frames) + " --checkpoint-every " +
                                 std::to_string(every) + " --threads 1 --quiet";
  RunResult whole = runAdacloth("simulate " + commonText + " -o '" + (dir / "whole").string() + "'");
  REQUIRE(whole.exitCode == 0);

  std::vector<std::string> args = common;
  args.insert(args.end(), {"-o", (dir / "killed").string()});
  char name[64];
  std::snprintf(name, sizeof name, "%s_%05d.obj", cloth.c_str(), killAfter);
  REQUIRE(killWhenWritten(startSimulate(args), dir / "killed" / "frames" / name));
  RunResult resumed = runAdacloth("simulate " + commonText + " -o '" + (dir / "killed").string() + "' --resume");
  INFO(resumed.output);
  REQUIRE(resumed.exitCode == 0);
  const auto differences = regression::compareOutputs(shot, dir / "whole", "uninterrupted", dir / "killed",
                                                      "killed and resumed");
  for (const std::string& d : differences) UNSCOPED_INFO(d);
  CHECK(differences.empty());
}

}  // namespace

TEST_CASE("kill and resume: drape", "[regression][resume]") { killAndResume("drape", "sheet", 24, 4, 10); }

TEST_CASE("kill and resume: skirt_walk", "[regression][resume]") { killAndResume("skirt_walk", "skirt", 12, 3, 7); }

TEST_CASE("kill and resume: crowd", "[regression][resume]") { killAndResume("crowd", "skirt1", 8, 2, 5); }
