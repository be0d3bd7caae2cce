#include "app/farm_scripts.h"

#include "app/process.h"

namespace adacloth {
namespace fs = std::filesystem;

fs::path stageScriptFile(const fs::path& farmDir, const std::string& stage) { return farmDir / (stage + ".sbatch"); }

fs::path taskLogFile(const fs::path& farmDir, const std::string& stage, int task) {
  return farmDir / "logs" / (stage + "_" + std::to_string(task) + ".log");
}

fs::path taskExitFile(const fs::path& farmDir, const std::string& stage, int task) {
  return farmDir / "status" / (stage + "_" + std::to_string(task) + ".exit");
}

std::string stageScript(const Stage& stage, const fs::path& farmDir, const SlurmSettings& slurm,
                        const std::string& adacloth) {
  std::string s = "#!/bin/bash\n";
  s += "# adacloth farm, stage " + stage.name + ": " + std::to_string(stage.tasks.size()) +
       " task(s). Written by 'adacloth farm submit' (docs/farm.md); submit with sbatch.\n";
  s += "#SBATCH --job-name=adacloth-" + stage.name + "\n";
  s += "#SBATCH --array=0-" + std::to_string(stage.tasks.size() - 1) +
       (slurm.maxParallel ? "%" + std::to_string(*slurm.maxParallel) : "") + "\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(slurm.cpusPerTask) + "\n";
  if (!slurm.partition.empty()) s += "#SBATCH --partition=" + slurm.partition + "\n";
  s += "#SBATCH --output=" + (farmDir / "logs" / (stage.name + "_%a.log")).string() + "\n";
  // A task lost with its node (or preempted) runs again; a simulation then resumes from its newest checkpoint.
  s += "#SBATCH --requeue\n";
  s += "export OMP_NUM_THREADS=\"${SLURM_CPUS_PER_TASK:-1}\"\n";
  s += "export ADACLOTH=" + shellQuote(adacloth) + "  # tools/make_movie.sh's contact sheet\n";
  s += "task=\"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}\"\n";
  s += "case \"$task\" in\n";
  for (size_t i = 0; i < stage.tasks.size(); ++i)
    s += "  " + std::to_string(i) + ") cmd=(" + commandLine(stage.tasks[i]) + ") ;;\n";
  s += "  *) echo \"adacloth farm: stage " + stage.name + " has no task $task\" >&2; exit 2 ;;\n";
  s += "esac\n";
  s += "if [[ \"${SLURM_RESTART_COUNT:-0}\" -gt 0 && \"${cmd[1]}\" == simulate ]]; then cmd+=(--resume); fi\n";
  s += "echo \"adacloth farm: " + stage.name + " task $task on $(hostname): ${cmd[*]}\"\n";
  s += "\"${cmd[@]}\"\n";
  s += "code=$?\n";
  const std::string exitFile = shellQuote((farmDir / "status" / (stage.name + "_")).string()) + "\"$task\".exit";
  s += "# The task's own record of how it ended, for 'adacloth farm status' where sacct has no accounting.\n";
  s += "echo \"$code\" > " + exitFile + ".tmp && mv -f " + exitFile + ".tmp " + exitFile + "\n";
  s += "exit \"$code\"\n";
  return s;
}

std::vector<std::string> sbatchCommand(const fs::path& script, const std::string& afterJob) {
  std::vector<std::string> c = {"sbatch", "--parsable"};
  if (!afterJob.empty()) c.insert(c.end(), {"--dependency=afterok:" + afterJob, "--kill-on-invalid-dep=yes"});
  c.push_back(script.string());
  return c;
}

}  // namespace adacloth
