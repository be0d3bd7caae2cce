#include "app/farm_plan.h"

#include <cstdio>
#include <set>

#include "app/scene.h"
#include "config/shot.h"
#include "io/error.h"

namespace adacloth {
namespace fs = std::filesystem;
namespace {

using config::Json;

std::vector<std::pair<int, int>> renderChunks(int frames, int chunk) {
  std::vector<std::pair<int, int>> chunks;
  for (int first = 0; first <= frames; first += chunk) chunks.push_back({first, std::min(first + chunk - 1, frames)});
  return chunks;
}

// The shot's name names its folder in FARM_DIR, beside the farm's own folders.
void checkShotName(const Shot& shot) {
  const std::string& name = shot.name;
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos || name == "groups" ||
      name == "logs" || name == "status")
    throw InputError(shot.file.string() + ": /name: \"" + name + "\" cannot name the shot's folder in FARM_DIR "
                     "(expected no '/', not '.', '..', groups, logs or status)");
}

ShotPlan planShot(const fs::path& file, const FarmOptions& options) {
  const Shot shot = loadShot(file);
  checkShotName(shot);
  const Scene scene = buildScene(shot);
  ShotPlan plan;
  plan.file = fs::absolute(file).lexically_normal();
  plan.name = shot.name;
  plan.frames = options.frames.value_or(shot.frames);
  for (const ClothSpec& c : shot.cloths) plan.clothNames.push_back(c.name);
  for (const ObstacleSpec& o : shot.obstacles) plan.obstacleNames.push_back(o.name);
  plan.grouping = groupCloths(shot, scene, plan.frames, options.reach);
  if (options.render) plan.renderChunks = renderChunks(plan.frames, options.renderChunk);
  return plan;
}

std::string joinedNames(const std::vector<int>& indices, const std::vector<std::string>& names,
                        const char* separator) {
  std::string text;
  for (int i : indices) text += (text.empty() ? "" : separator) + names[i];
  return text;
}

TaskCommand simulateCommand(const FarmPlan& plan, const ShotPlan& shot, size_t group, const std::string& adacloth) {
  TaskCommand c = {adacloth, "simulate", shot.file.string(), "--frames", std::to_string(shot.frames), "--quiet"};
  if (!shot.split()) {
    c.insert(c.end(), {"-o", shotOutput(plan, shot).string()});
    return c;
  }
  const ClothGroup& g = shot.grouping.groups[group];
  c.insert(c.end(), {"-o", groupOutput(plan, shot, group).string(), "--cloths",
                     joinedNames(g.cloths, shot.clothNames, ","), "--obstacles",
                     joinedNames(g.obstacles, shot.obstacleNames, ",")});
  return c;
}

Json groupJson(const ShotPlan& shot, const ClothGroup& g) {
  Json cloths = Json::array(), obstacles = Json::array();
  for (int c : g.cloths) cloths.push_back(shot.clothNames[c]);
  for (int o : g.obstacles) obstacles.push_back(shot.obstacleNames[o]);
  return Json{{"cloths", cloths}, {"obstacles", obstacles}};
}

}  // namespace

FarmPlan planFarm(const std::vector<fs::path>& shotFiles, const FarmOptions& options) {
  FarmPlan plan;
  plan.options = options;
  std::set<std::string> names;
  for (const fs::path& file : shotFiles) {
    plan.shots.push_back(planShot(file, options));
    if (!names.insert(plan.shots.back().name).second)
      throw InputError(file.string() + ": another shot of this farm run is also named \"" + plan.shots.back().name +
                       "\" (their outputs would share FARM_DIR/" + plan.shots.back().name + "); rename one");
  }
  return plan;
}

fs::path shotOutput(const FarmPlan& plan, const ShotPlan& shot) { return plan.options.dir / shot.name; }

fs::path groupOutput(const FarmPlan& plan, const ShotPlan& shot, size_t group) {
  return plan.options.dir / "groups" / shot.name / ("g" + std::to_string(group));
}

std::vector<Stage> farmStages(const FarmPlan& plan, const std::string& adacloth, const std::string& movieScript) {
  Stage simulate{"simulate", {}}, merge{"merge", {}}, render{"render", {}}, movie{"movie", {}};
  for (const ShotPlan& shot : plan.shots) {
    const std::string out = shotOutput(plan, shot).string();
    for (size_t g = 0; g < shot.grouping.groups.size(); ++g)
      simulate.tasks.push_back(simulateCommand(plan, shot, g, adacloth));
    if (shot.split()) {
      TaskCommand c = {adacloth, "merge", out};
      for (size_t g = 0; g < shot.grouping.groups.size(); ++g) c.push_back(groupOutput(plan, shot, g).string());
      merge.tasks.push_back(c);
    }
    for (const auto& [first, last] : shot.renderChunks) {
      const std::string frames = std::to_string(first) + ":" + std::to_string(last);
      TaskCommand c = {adacloth, "render", out, "--frames", frames, "--quiet"};
      if (plan.options.renderWidth) c.insert(c.end(), {"--width", std::to_string(*plan.options.renderWidth)});
      render.tasks.push_back(c);
    }
    if (!shot.renderChunks.empty() && plan.options.movie && !movieScript.empty())
      movie.tasks.push_back({"bash", movieScript, out});
  }
  std::vector<Stage> stages;
  for (Stage* s : {&simulate, &merge, &render, &movie})
    if (!s->tasks.empty()) stages.push_back(std::move(*s));
  return stages;
}

Json planJson(const FarmPlan& plan) {
  Json shots = Json::array();
  for (const ShotPlan& shot : plan.shots) {
    Json groups = Json::array(), chunks = Json::array();
    for (const ClothGroup& g : shot.grouping.groups) groups.push_back(groupJson(shot, g));
    for (const auto& [first, last] : shot.renderChunks) chunks.push_back(Json::array({first, last}));
    Json s = {{"name", shot.name}, {"file", shot.file.string()}, {"frames", shot.frames}, {"groups", groups},
              {"interaction_distance", shot.grouping.interactionDistance}};
    if (shot.grouping.closestGap >= 0) s["closest_gap"] = shot.grouping.closestGap;
    if (!shot.grouping.notSplit.empty()) s["not_split"] = shot.grouping.notSplit;
    s["render_chunks"] = chunks;
    shots.push_back(s);
  }
  return Json{{"reach", plan.options.reach == ReachModel::Predicted ? "predicted" : "conservative"},
              {"shots", shots}};
}

std::string planText(const FarmPlan& plan) {
  std::string text;
  char line[256];
  for (const ShotPlan& shot : plan.shots) {
    const Grouping& g = shot.grouping;
    std::snprintf(line, sizeof line, "%s (%s, %d frames): ", shot.name.c_str(), shot.file.string().c_str(),
                  shot.frames);
    text += line;
    if (shot.split()) {
      std::snprintf(line, sizeof line, "%zu groups (interaction distance %.3f m, closest approach %.3f m)\n",
                    g.groups.size(), g.interactionDistance, g.closestGap);
      text += line;
    } else {
      text += "not split" + (g.notSplit.empty() ? std::string() : ": " + g.notSplit) + "\n";
    }
    for (size_t k = 0; k < g.groups.size() && shot.split(); ++k)
      text += "  g" + std::to_string(k) + ": cloths " + joinedNames(g.groups[k].cloths, shot.clothNames, ", ") +
              "; obstacles " + joinedNames(g.groups[k].obstacles, shot.obstacleNames, ", ") + "\n";
    if (!shot.renderChunks.empty()) {
      text += "  render: " + std::to_string(shot.renderChunks.size()) + " chunk(s):";
      for (const auto& [first, last] : shot.renderChunks)
        text += " " + std::to_string(first) + "-" + std::to_string(last);
      text += "\n";
    }
  }
  return text;
}

}  // namespace adacloth
