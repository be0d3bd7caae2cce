#pragma once
// The output folder of a group run (`simulate --cloths`), as `merge` reads it: the group record OUT/group.json
// (config/shot_part.h), the frames its cloths have, its stats lines and its obstacle files.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/schema.h"

namespace adacloth {

struct GroupFolder {
  std::filesystem::path folder;
  std::vector<std::string> cloths, obstacles;  // the group's, in shot order
  config::Json shot;                           // the whole shot, resolved ("shot" of group.json)
  std::vector<int> frames;                     // ascending; every cloth of the group has each of them
  std::map<int, config::Json> stats;           // stats.jsonl by frame
  std::vector<std::string> obstacleFiles;      // file names in OUT/obstacles, sorted
};

// Reads and checks one group folder. Anything missing or malformed (group.json, a cloth's frame, a stats line) is an
// InputError of one line naming the folder or file and what was expected.
GroupFolder readGroupFolder(const std::filesystem::path& folder);

}  // namespace adacloth
