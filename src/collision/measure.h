#pragma once
// Contact quality measured per frame (stats.jsonl): how deep cloth nodes are inside obstacles and how many pairs of
// cloth triangles intersect (docs/design.md §6, §8).
#include <vector>

#include "collision/obstacle_field.h"
#include "mesh/mesh.h"

namespace adacloth {

// Largest depth (m) of any node of `cloth` inside an obstacle; 0 when none is inside.
double maxPenetration(const Mesh& cloth, const ObstacleField& obstacles);

// For each cloth, the number of pairs of its triangles that intersect another triangle of the same or another
// cloth. A pair between two cloths counts for both. Triangles that share an edge never count; two that share a single
// node count when they cross beyond it (cloth folded through itself around the node: split apart by a remesh, such a
// pair becomes an ordinary one).
std::vector<int> countIntersections(const std::vector<const Mesh*>& cloths);

// The same pairs by the cloths they join: [a][a] pairs within cloth a, [a][b] (= [b][a]) pairs between cloths a and
// b. countIntersections(cloths)[a] is the sum of row a.
std::vector<std::vector<int>> intersectionsBetween(const std::vector<const Mesh*>& cloths);

}  // namespace adacloth
