#pragma once
// `adacloth merge OUT GROUP_OUT...`: joins the output folders of a shot's cloth groups (`simulate --cloths`) into the
// folder a single run of the whole shot would have written (docs/design.md §8, docs/farm.md).
#include <filesystem>
#include <vector>

namespace adacloth {

// Checks everything before writing anything: the folders come from one shot (group.json's "shot" alike), have the
// same frames, together hold each cloth of the shot once, and agree byte for byte on the obstacle files they share
// (InputError naming the folder and what was expected otherwise); then the safety net (app/separation_check.h;
// SimulationError when the groups came too close). Then clears what an earlier run left in OUT (as simulate does)
// and writes OUT/frames and OUT/obstacles (hard links to the groups' files, copies across filesystems),
// OUT/stats.jsonl (app/merge_stats.h) and OUT/shot.resolved.json (the whole shot).
void mergeGroupOutputs(const std::filesystem::path& out, const std::vector<std::filesystem::path>& groupFolders);

}  // namespace adacloth
