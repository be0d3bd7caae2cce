#pragma once
// Small shots for the farm tests: square sheets hanging from their top edge, side by side along x.
#include <string>
#include <vector>

namespace adacloth::test {

// A 0.2 m sheet named `name` whose top edge is held, its left edge at x (m), hanging in the plane z = 0 below
// y = 1.2 m. `extra` goes inside the cloth's object (e.g. ", \"view\": {...}").
inline std::string hangingSheet(const std::string& name, double x, const std::string& extra = "") {
  return "{\"name\": \"" + name + "\", \"mesh\": {\"grid\": {\"size\": [0.2, 0.2], \"cells\": [2, 2]}}, " +
         "\"transform\": {\"translate\": [" + std::to_string(x) + ", 1.0, 0]}, " +
         "\"handles\": [{\"region\": {\"min\": [-0.001, 0.199], \"max\": [0.201, 0.201]}}]" + extra + "}";
}

// A shot of the given cloths (JSON objects) with a ground plane "floor" and `extraObstacles` after it.
inline std::string sheetsShot(const std::vector<std::string>& cloths, const std::string& extraObstacles = "",
                              const std::string& extraKeys = "") {
  std::string list;
  for (const std::string& c : cloths) list += (list.empty() ? "" : ", ") + c;
  return "{\"name\": \"sheets\", \"frames\": 2, " + extraKeys + "\"cloths\": [" + list +
         "], \"obstacles\": [{\"name\": \"floor\", \"mesh\": {\"ground\": {\"size\": 4}}}" + extraObstacles + "]}";
}

}  // namespace adacloth::test
