#include "app/merge_outputs.h"

#include <fstream>
#include <map>
#include <set>

#include "app/cloth_groups.h"
#include "app/group_folder.h"
#include "app/merge_stats.h"
#include "app/separation_check.h"
#include "app/simulate.h"
#include "collision/params.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace fs = std::filesystem;
namespace {

using config::Json;

std::string frameRange(const std::vector<int>& frames) {
  return std::to_string(frames.front()) + ".." + std::to_string(frames.back()) + " (" +
         std::to_string(frames.size()) + " frames)";
}

// The groups come from one shot and cover the same frames; OUT is none of them.
void checkSameShot(const std::vector<GroupFolder>& groups, const fs::path& out) {
  const GroupFolder& first = groups.front();
  for (const GroupFolder& g : groups) {
    std::error_code ec;
    if (fs::equivalent(g.folder, out, ec))
      throw InputError(out.string() + ": OUT is one of the group folders; merge into another folder");
    if (g.shot != first.shot)
      throw InputError(g.folder.string() + ": group.json /shot differs from " + first.folder.string() +
                       "'s; expected groups of one shot, simulated with the same settings");
    if (g.frames != first.frames)
      throw InputError(g.folder.string() + ": has frames " + frameRange(g.frames) + ", expected " +
                       frameRange(first.frames) + " like " + first.folder.string());
  }
}

// What merge needs of the whole shot (group.json's "shot", resolved: every key present).
struct WholeShot {
  std::string name;
  std::vector<std::string> cloths;  // in shot order
  CollisionParams collision;
};

WholeShot wholeShotOf(const GroupFolder& group) {
  const Json& shot = group.shot;
  const std::string where = (group.folder / "group.json").string() + ": /shot";
  WholeShot whole;
  if (!shot.contains("name") || !shot["name"].is_string()) throw InputError(where + "/name: expected a string");
  whole.name = shot["name"].get<std::string>();
  if (!shot.contains("cloths") || !shot["cloths"].is_array()) throw InputError(where + "/cloths: expected an array");
  for (const Json& c : shot["cloths"]) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string())
      throw InputError(where + "/cloths: expected cloths with names");
    whole.cloths.push_back(c["name"].get<std::string>());
  }
  const Json* thickness = shot.contains("collision") ? &shot["collision"] : nullptr;
  if (!thickness || !thickness->contains("thickness") || !(*thickness)["thickness"].is_number())
    throw InputError(where + "/collision/thickness: expected a number (m)");
  whole.collision.thickness = (*thickness)["thickness"].get<double>();
  return whole;
}

// Together the groups hold each cloth of the shot exactly once.
void checkCover(const std::vector<GroupFolder>& groups, const WholeShot& shot) {
  std::map<std::string, const GroupFolder*> holder;
  for (const GroupFolder& g : groups)
    for (const std::string& c : g.cloths) {
      if (holder.count(c))
        throw InputError(g.folder.string() + ": cloth \"" + c + "\" is also in " + holder[c]->folder.string() +
                         "; expected each cloth in one group");
      holder[c] = &g;
    }
  for (const std::string& c : shot.cloths)
    if (!holder.count(c))
      throw InputError(groups.front().folder.string() + " ...: no group holds cloth \"" + c + "\" of shot " +
                       shot.name + "; expected every cloth in one group");
  if (holder.size() != shot.cloths.size())
    throw InputError(groups.front().folder.string() + " ...: the groups hold cloths the shot does not have");
}

// Obstacle file name -> the group folder whose copy goes to OUT; a file written by several groups must be the same.
std::map<std::string, fs::path> obstacleSources(const std::vector<GroupFolder>& groups) {
  std::map<std::string, fs::path> source;
  for (const GroupFolder& g : groups)
    for (const std::string& name : g.obstacleFiles) {
      const fs::path file = g.folder / "obstacles" / name;
      auto [it, added] = source.emplace(name, file);
      if (!added && readFile(file) != readFile(it->second))
        throw InputError(file.string() + ": differs from " + it->second.string() +
                         "; expected the same obstacle in every group");
    }
  return source;
}

// A hard link, or a copy when the two folders are on different filesystems.
void placeFile(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_hard_link(from, to, ec);
  if (ec) fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

std::string mergedStats(const std::vector<GroupFolder>& groups, const std::vector<std::string>& order) {
  std::string text;
  for (int frame : groups.front().frames) {
    std::vector<const Json*> lines;
    for (const GroupFolder& g : groups) lines.push_back(&g.stats.at(frame));
    try {
      text += mergeStatsLines(lines, order).dump() + "\n";
    } catch (const InputError& e) {
      throw InputError(groups.front().folder.string() + " ...: stats.jsonl: " + e.what());
    }
  }
  return text;
}

}  // namespace

void mergeGroupOutputs(const fs::path& out, const std::vector<fs::path>& groupFolders) {
  std::vector<GroupFolder> groups;
  for (const fs::path& folder : groupFolders) groups.push_back(readGroupFolder(folder));
  checkSameShot(groups, out);
  const WholeShot shot = wholeShotOf(groups.front());
  checkCover(groups, shot);
  const std::map<std::string, fs::path> obstacles = obstacleSources(groups);
  const std::string stats = mergedStats(groups, shot.cloths);
  if (auto problem = findCloseApproach(groups, interactionDistance(shot.collision))) throw SimulationError(*problem);

  prepareOutputFolder(out);
  for (const GroupFolder& g : groups)
    for (const auto& entry : fs::directory_iterator(g.folder / "frames"))
      if (entry.path().extension() == ".obj") placeFile(entry.path(), out / "frames" / entry.path().filename());
  if (!obstacles.empty()) fs::create_directories(out / "obstacles");
  for (const auto& [name, file] : obstacles) placeFile(file, out / "obstacles" / name);
  writeFileAtomically(out / "stats.jsonl", stats);
  writeFileAtomically(out / "shot.resolved.json", groups.front().shot.dump(2) + "\n");
}

}  // namespace adacloth
