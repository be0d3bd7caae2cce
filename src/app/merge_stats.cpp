#include "app/merge_stats.h"

#include <algorithm>

#include "io/error.h"

namespace adacloth {
namespace {

using config::Json;

// Counters that do not add up over groups: the most in one step, and the steps every group runs alike.
bool takesLargest(const std::string& key) { return key == "impact_zones" || key == "steps"; }

// Sums (or takes the largest of) every numeric key of `key`'s objects, in the first line's key order.
Json combined(const std::vector<const Json*>& lines, const char* key, int frame) {
  Json result = Json::object();
  for (const Json* line : lines) {
    if (!line->contains(key) || !(*line)[key].is_object())
      throw InputError("frame " + std::to_string(frame) + ": a stats line has no \"" + key + "\" object");
    for (const auto& [name, value] : (*line)[key].items()) {
      if (!value.is_number()) continue;
      if (!result.contains(name)) result[name] = value;
      else if (value.is_number_integer() && result[name].is_number_integer())
        result[name] = takesLargest(name) ? std::max(result[name].get<long>(), value.get<long>())
                                          : result[name].get<long>() + value.get<long>();
      else
        result[name] = result[name].get<double>() + value.get<double>();
    }
  }
  return result;
}

Json clothsInOrder(const std::vector<const Json*>& lines, const std::vector<std::string>& clothOrder, int frame) {
  Json cloths = Json::array();
  for (const std::string& name : clothOrder) {
    const Json* found = nullptr;
    for (const Json* line : lines)
      for (const Json& c : (*line)["cloths"])
        if (c.is_object() && c.value("name", std::string()) == name) found = &c;
    if (!found)
      throw InputError("frame " + std::to_string(frame) + ": no stats line has cloth \"" + name + "\"");
    cloths.push_back(*found);
  }
  return cloths;
}

}  // namespace

Json mergeStatsLines(const std::vector<const Json*>& lines, const std::vector<std::string>& clothOrder) {
  const Json& first = *lines.front();
  const int frame = first["frame"].get<int>();
  for (const Json* line : lines)
    if (!line->contains("time") || (*line)["time"] != first["time"])
      throw InputError("frame " + std::to_string(frame) + ": the groups' stats give different times");
  Json merged;
  merged["frame"] = frame;
  merged["time"] = first["time"];
  merged["wall_ms"] = combined(lines, "wall_ms", frame);
  merged["cloths"] = clothsInOrder(lines, clothOrder, frame);
  merged["collision"] = combined(lines, "collision", frame);
  return merged;
}

}  // namespace adacloth
