#include "app/cloth_groups.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

namespace adacloth {
namespace {

// Union-find over cloth indices; the root of a set is its lowest index, so groups come out in shot order.
struct ClothSets {
  std::vector<int> parent;
  explicit ClothSets(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int root(int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void unite(int a, int b) {
    a = root(a), b = root(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// Why the shot cannot be split whatever the cloths do, or empty.
std::string reasonNotToSplit(const Scene& scene, const std::vector<ClothReach>& reach) {
  for (size_t c = 0; c < scene.cloths.size(); ++c) {
    const ClothSpec& spec = scene.cloths[c].spec;
    if (spec.view && spec.view->occlusion)
      return "cloth \"" + spec.name + "\" has view occlusion on (its depth maps see every cloth)";
    if (!reach[c].held) return "cloth \"" + spec.name + "\" is held by no handle (it may fall anywhere)";
  }
  return "";
}

// The held boxes of one cloth over the trail window, oldest first.
struct Trail {
  std::deque<Aabb> boxes;
  size_t length = 1;  // samples kept
  Aabb add(const Aabb& held) {
    boxes.push_back(held);
    if (boxes.size() > length) boxes.pop_front();
    Aabb all;
    for (const Aabb& b : boxes) all.add(b);
    return all;
  }
};

// What the samples found: which cloths came close to which, how close the others came, which obstacles each needs.
struct Closeness {
  std::vector<std::vector<double>> clothGap;   // smallest distance between reach boxes (m), per cloth pair
  std::vector<std::vector<char>> needs;        // [cloth][obstacle]: within the interaction distance once
};

Aabb obstacleBox(const Obstacle& obstacle, double t) {
  Aabb box;
  for (const Vec3& p : obstacle.positionsAt(t)) box.add(p);
  return box;
}

// Samples every step of `frames` frames. Each sample's boxes are united with the previous sample's: the simulation
// moves handles and obstacles linearly in between.
Closeness sampleCloseness(const Shot& shot, const Scene& scene, const std::vector<ClothReach>& reach, int frames,
                          ReachModel model, double distance) {
  const size_t cloths = scene.cloths.size(), obstacles = scene.obstacles.size();
  Closeness found;
  found.clothGap.assign(cloths, std::vector<double>(cloths, INFINITY));
  found.needs.assign(cloths, std::vector<char>(obstacles, 0));
  std::vector<Trail> trails(cloths);
  for (Trail& t : trails) t.length = size_t(std::ceil(kTrailTime / shot.stepTime())) + 1;
  std::vector<Aabb> clothBefore(cloths), obstacleBefore(obstacles), obstacleNow(obstacles);
  const int steps = frames * shot.stepsPerFrame;
  for (int step = 0; step <= steps; ++step) {
    const double t = step * shot.stepTime();
    std::vector<Aabb> swept(cloths);
    for (size_t c = 0; c < cloths; ++c) {
      const Aabb held = heldBox(scene.cloths[c], t);
      const Aabb now = reachBox(reach[c], held, trails[c].add(held), model);
      swept[c] = now;
      swept[c].add(clothBefore[c]);
      clothBefore[c] = now;
    }
    for (size_t o = 0; o < obstacles; ++o) {
      const Obstacle& obstacle = scene.obstacles[o];
      if (obstacle.isGround()) continue;
      if (step == 0 || obstacle.moves()) obstacleNow[o] = obstacleBox(obstacle, t);
      Aabb sweptObstacle = obstacleNow[o];
      sweptObstacle.add(obstacleBefore[o]);
      obstacleBefore[o] = obstacleNow[o];
      for (size_t c = 0; c < cloths; ++c)
        if (boxDistance(swept[c], sweptObstacle) <= distance) found.needs[c][o] = 1;
    }
    for (size_t a = 0; a < cloths; ++a)
      for (size_t b = a + 1; b < cloths; ++b)
        found.clothGap[a][b] = std::min(found.clothGap[a][b], boxDistance(swept[a], swept[b]));
  }
  return found;
}

// The obstacles of a group: ground planes, those its cloths are bound to, those they came near.
std::vector<int> groupObstacles(const Scene& scene, const std::vector<int>& cloths, const Closeness& found) {
  std::vector<int> result;
  for (size_t o = 0; o < scene.obstacles.size(); ++o) {
    const Obstacle& obstacle = scene.obstacles[o];
    bool needed = obstacle.isGround();
    for (int c : cloths) {
      needed = needed || found.needs[c][o];
      for (const HandleSpec& h : scene.cloths[c].spec.handles) needed = needed || h.bindTo == obstacle.name();
    }
    if (needed) result.push_back(int(o));
  }
  return result;
}

Grouping wholeShot(const Scene& scene, std::string reason, double distance) {
  Grouping g;
  g.groups.resize(1);
  g.groups[0].cloths.resize(scene.cloths.size());
  std::iota(g.groups[0].cloths.begin(), g.groups[0].cloths.end(), 0);
  g.groups[0].obstacles.resize(scene.obstacles.size());
  std::iota(g.groups[0].obstacles.begin(), g.groups[0].obstacles.end(), 0);
  g.notSplit = std::move(reason);
  g.interactionDistance = distance;
  return g;
}

// Gives every obstacle that no group needs to the first group (the merged output then has them all).
void placeUnneededObstacles(Grouping& g, size_t obstacleCount) {
  std::vector<char> used(obstacleCount, 0);
  for (const ClothGroup& group : g.groups)
    for (int o : group.obstacles) used[o] = 1;
  std::vector<int>& first = g.groups.front().obstacles;
  for (size_t o = 0; o < obstacleCount; ++o)
    if (!used[o]) first.push_back(int(o));
  std::sort(first.begin(), first.end());
}

}  // namespace

double interactionDistance(const CollisionParams& collision) {
  return std::max(10.0 * collision.thickness, collision.thickness) + kSafetyMargin;
}

Grouping groupCloths(const Shot& shot, const Scene& scene, int frames, ReachModel model) {
  const double distance = interactionDistance(shot.collision);
  std::vector<ClothReach> reach;
  for (const Cloth& cloth : scene.cloths) reach.push_back(clothReach(cloth));
  if (scene.cloths.size() < 2) return wholeShot(scene, "", distance);
  if (std::string why = reasonNotToSplit(scene, reach); !why.empty()) return wholeShot(scene, why, distance);

  const Closeness found = sampleCloseness(shot, scene, reach, frames, model, distance);
  const size_t n = scene.cloths.size();
  ClothSets sets(n);
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b)
      if (found.clothGap[a][b] <= distance) sets.unite(int(a), int(b));
  std::vector<int> groupOf(n, -1);
  Grouping g;
  g.interactionDistance = distance;
  for (size_t c = 0; c < n; ++c) {
    const int root = sets.root(int(c));
    if (groupOf[root] < 0) groupOf[root] = int(g.groups.size()), g.groups.emplace_back();
    g.groups[groupOf[root]].cloths.push_back(int(c));
  }
  if (g.groups.size() == 1) return wholeShot(scene, "every cloth comes near another", distance);
  for (ClothGroup& group : g.groups) group.obstacles = groupObstacles(scene, group.cloths, found);
  placeUnneededObstacles(g, scene.obstacles.size());
  g.closestGap = INFINITY;
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b)
      if (sets.root(int(a)) != sets.root(int(b))) g.closestGap = std::min(g.closestGap, found.clothGap[a][b]);
  return g;
}

}  // namespace adacloth
