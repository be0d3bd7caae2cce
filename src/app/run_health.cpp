#include "app/run_health.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace adacloth {
namespace {

std::string formatted(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string formatted(const char* format, ...) {
  char buf[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

// "1 frame", "3 frames".
std::string frameCount(int n) { return std::to_string(n) + (n == 1 ? " frame" : " frames"); }

}  // namespace

bool RunHealth::Trouble::add(int frame, int amount) {
  ++frames;
  worst = std::max(worst, amount);
  total += amount;
  if (first >= 0) return false;
  first = frame;
  return true;
}

RunHealth::ClothTrouble& RunHealth::cloth(const std::string& name) {
  for (ClothTrouble& c : cloths_)
    if (c.name == name) return c;
  cloths_.push_back({name, {}, {}, {}, false});
  return cloths_.back();
}

void RunHealth::toldCrossedAtStart(const std::string& name) { cloth(name).crossedAtStart = true; }

std::vector<std::string> RunHealth::observe(const config::Json& line) {
  std::vector<std::string> warnings;
  const int frame = line.value("frame", 0);
  for (const config::Json& c : line.value("cloths", config::Json::array())) {
    ClothTrouble& t = cloth(c.value("name", std::string()));
    const int intersections = c.value("intersections", 0);
    if (intersections > 0 && t.intersecting.add(frame, intersections) && !t.crossedAtStart)
      warnings.push_back(formatted(
          "frame %d: cloth \"%s\" ends the frame with %d pairs of triangles through each other (stats.jsonl: "
          "intersections); the contact passes could not keep it apart there (docs/collisions.md, Known limits)",
          frame, t.name.c_str(), intersections));
    const int nodes = c.value("nodes", 0), contacts = c.value("contacts", 0);
    const double stretch = c.value("stretch_p99", 0.0);
    const int perNode = nodes > 0 ? int(std::lround(double(contacts) / nodes)) : 0;
    const bool knotted = nodes > 0 && contacts >= kKnotContactsPerNode * nodes && stretch >= kKnotStretch;
    if (knotted && t.knotted.add(frame, perNode))
      warnings.push_back(formatted(
          "frame %d: cloth \"%s\" is crushed into itself (%d contact pairs per node, edges stretched %.1fx at "
          "the 99th percentile): layers gathered tighter than collision.thickness allows can stay knotted and slow the "
          "run; a larger remeshing.size minimum or a thinner collision.thickness avoided it in the cases measured "
          "(docs/collisions.md, Known limits)",
          frame, t.name.c_str(), perNode, stretch));
    if (!knotted && stretch >= kTornStretch && t.torn.add(frame, int(std::lround(100 * stretch))))
      warnings.push_back(formatted(
          "frame %d: cloth \"%s\" is torn apart (edges stretched %.1fx at the 99th percentile): something pulls it "
          "far past what its springs and the contact passes can hold (an obstacle pressing it deep and letting go, a "
          "handle outrunning it, a step too long for its speed), and the frames from here are wrong and slow; try "
          "more steps_per_frame or gentler motion (docs/collisions.md, Known limits)",
          frame, t.name.c_str(), stretch));
  }
  const int unresolved = line.value("collision", config::Json::object()).value("unresolved", 0);
  if (unresolved > 0) unresolved_.add(frame, unresolved);
  return warnings;
}

std::string RunHealth::summary() const {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "over the run, " : "; ") + part; };
  for (const ClothTrouble& c : cloths_) {
    if (c.intersecting.frames > 0)
      add(formatted("cloth \"%s\" ended %s with triangles through each other (first frame %d, at most %d pairs)",
                    c.name.c_str(), frameCount(c.intersecting.frames).c_str(), c.intersecting.first,
                    c.intersecting.worst));
    if (c.knotted.frames > 0)
      add(formatted("cloth \"%s\" was crushed into itself in %s (first frame %d)", c.name.c_str(),
                    frameCount(c.knotted.frames).c_str(), c.knotted.first));
    if (c.torn.frames > 0)
      add(formatted("cloth \"%s\" was torn apart in %s (first frame %d, edges at most %.1fx at the 99th percentile)",
                    c.name.c_str(), frameCount(c.torn.frames).c_str(), c.torn.first, c.torn.worst / 100.0));
  }
  if (unresolved_.frames > 0)
    add(formatted("%d colliding pairs left unresolved by the contact passes in %s (first frame %d)",
                  unresolved_.total, frameCount(unresolved_.frames).c_str(), unresolved_.first));
  return text;
}

}  // namespace adacloth
