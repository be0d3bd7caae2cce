#pragma once
// Contact trouble told while a run goes (stderr), read from each frame's stats.jsonl line: stats.jsonl records it,
// but a user watching a long shot should not have to look for it there. Each kind of trouble is told once per cloth,
// the first frame it shows, with what to try; the run's end sums up how often it showed.
#include <string>
#include <vector>

#include "config/schema.h"

namespace adacloth {

// A cloth crushed into itself: at least this many proximity contact pairs per node at the end of a frame, with edges
// stretched past kKnotStretch at the 99th percentile. The conf/ shots and their variants stay under 3 pairs per node
// and a sheet crumpled by a ball that then lets go reaches 7.2; a cotton sheet left knotted by a ball had 23-46, with
// edges at 1.7-15x (docs/collisions.md, Known limits).
constexpr double kKnotContactsPerNode = 12;
constexpr double kKnotStretch = 1.5;
// A cloth torn apart: edges stretched past this at the 99th percentile, however few its contacts. The stress cases of
// tools/stress.py stay under 1.2 and a denim sheet that a ball pressed 42 cm and let go reaches 2.32 for a frame; a
// cotton sheet torn on that ball reached 22 with 4 contact pairs per node, where the knot test above said nothing. A
// tablecloth jerked off a box-shaped table at 3 m/s is caught on the box's corners for a frame or two (p99 1.6-6.1
// over six runs): told too, since those frames show it (docs/benchmarks.md, "Cloth that springs back into an
// obstacle").
constexpr double kTornStretch = 3.0;

class RunHealth {
 public:
  // Reads one stats.jsonl line (frame, cloths[].name, nodes, contacts, intersections, stretch_p99,
  // collision.unresolved) and returns the warnings it raises for the first time, one line each ("frame 112: cloth
  // ..."; the caller prefixes "warning: ").
  std::vector<std::string> observe(const config::Json& line);
  // One line summing up the run's contact trouble ("over the run, ..."; "" when there was none).
  std::string summary() const;
  // The run told at its start that cloth `name` starts through itself or another cloth: the frames it ends with
  // intersecting triangles are not told again as they come (the summary still counts them).
  void toldCrossedAtStart(const std::string& name);

 private:
  struct Trouble {
    int frames = 0;  // frames it showed in
    int first = -1;  // the first of them
    int worst = 0;   // the largest amount at one frame end
    int total = 0;   // the amounts summed over the frames
    bool add(int frame, int amount);  // counts a frame; true the first time
  };
  struct ClothTrouble {
    std::string name;
    Trouble intersecting, knotted;
    Trouble torn;  // amounts: the edge p99 in hundredths
    bool crossedAtStart = false;  // toldCrossedAtStart
  };
  ClothTrouble& cloth(const std::string& name);

  std::vector<ClothTrouble> cloths_;  // in the order they first appear
  Trouble unresolved_;                // pairs left colliding when a step's passes ran out
};

}  // namespace adacloth
