#include "app/start_crossed.h"

#include "collision/measure.h"

namespace adacloth {
namespace {

std::string pairsOfTriangles(int n) {
  return std::to_string(n) + (n == 1 ? " pair" : " pairs") + " of triangles";
}

}  // namespace

StartCrossed startCrossed(const std::vector<std::string>& names, const std::vector<const Mesh*>& meshes) {
  const std::vector<std::vector<int>> pairs = intersectionsBetween(meshes);
  StartCrossed found;
  std::vector<std::string> parts;
  std::vector<char> involved(meshes.size(), 0);
  for (size_t a = 0; a < meshes.size(); ++a) {
    if (pairs[a][a] > 0) {
      parts.push_back("cloth \"" + names[a] + "\" starts through itself (" + pairsOfTriangles(pairs[a][a]) + ")");
      involved[a] = 1;
    }
    for (size_t b = a + 1; b < meshes.size(); ++b)
      if (pairs[a][b] > 0) {
        parts.push_back("cloths \"" + names[a] + "\" and \"" + names[b] + "\" start through each other (" +
                        pairsOfTriangles(pairs[a][b]) + ")");
        involved[a] = involved[b] = 1;
      }
  }
  for (size_t c = 0; c < meshes.size(); ++c)
    if (involved[c]) found.cloths.push_back(c);
  if (parts.empty()) return found;
  for (size_t i = 0; i < parts.size(); ++i) found.note += (i ? ", " : "") + parts[i];
  found.note += ": contact keeps cloth from passing through cloth but cannot take apart cloth that starts crossed "
                "(it stays caught there all run); place the cloths apart, each unfolded, in the shot";
  return found;
}

}  // namespace adacloth
