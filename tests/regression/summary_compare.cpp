#include "regression/summary_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/scene.h"
#include "config/shot.h"

namespace adacloth::regression {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string vec(const Vec3& v) { return "(" + num(v.x()) + ", " + num(v.y()) + ", " + num(v.z()) + ")"; }

// Appends "<where>: <metric> <measured> outside reference range [lo, hi]" when the value leaves the band.
void checkBand(const std::string& where, const char* metric, double ref, double measured, double halfWidth,
               const char* unit, std::vector<std::string>& failures) {
  const double lo = ref - halfWidth, hi = ref + halfWidth;
  if (measured >= lo && measured <= hi) return;
  failures.push_back(where + ": " + metric + " " + num(measured) + unit + " outside reference range [" + num(lo) +
                     ", " + num(hi) + "]" + unit + " (reference " + num(ref) + ")");
}

void checkCount(const std::string& where, const char* metric, long ref, long measured, const Tolerances& t,
                std::vector<std::string>& failures) {
  const double band = std::max(t.countRelative * double(ref), t.countAbsolute);
  checkBand(where, metric, double(ref), double(measured), std::floor(band), "", failures);
}

void checkBbox(const std::string& where, const ClothFrame& r, const ClothFrame& m, const Tolerances& t,
               std::vector<std::string>& failures) {
  const double allowed = std::max(t.bboxAbsolute, t.bboxRelative * (r.bboxMax - r.bboxMin).norm());
  const std::pair<const char*, std::pair<Vec3, Vec3>> corners[] = {{"bbox_min", {r.bboxMin, m.bboxMin}},
                                                                    {"bbox_max", {r.bboxMax, m.bboxMax}}};
  for (const auto& [name, pair] : corners) {
    const double moved = (pair.second - pair.first).norm();
    if (moved <= allowed) continue;
    failures.push_back(where + ": " + name + " moved " + num(moved) + " m (allowed " + num(allowed) +
                       " m): reference " + vec(pair.first) + ", measured " + vec(pair.second));
  }
}

void checkAtMost(const std::string& where, const char* metric, double ref, double measured, double slack,
                 const char* unit, std::vector<std::string>& failures) {
  if (measured <= ref + slack) return;
  failures.push_back(where + ": " + metric + " " + num(measured) + unit + " above reference " + num(ref) + unit +
                     " + allowed " + num(slack) + unit);
}

// The largest kinetic and elastic energy of each cloth over the reference's frames: the scale their tolerances are
// shares of.
struct Peaks {
  double kinetic = 0, elastic = 0;  // J
};
using ClothPeaks = std::map<std::string, Peaks>;

ClothPeaks peaksOf(const Summary& reference) {
  ClothPeaks peaks;
  for (const FrameSummary& f : reference.frames)
    for (const ClothFrame& c : f.cloths) {
      Peaks& p = peaks[c.name];
      p.kinetic = std::max(p.kinetic, c.kineticEnergy);
      p.elastic = std::max(p.elastic, c.elasticEnergy);
    }
  return peaks;
}

// Potential energy as the height of the centre of mass, PE / weight: within +-heightAbsolute of the reference's.
void checkHeight(const std::string& where, const ClothFrame& r, const ClothFrame& m, const Tolerances& t,
                 const ClothWeights& weights, std::vector<std::string>& failures) {
  const auto weight = weights.find(r.name);
  if (weight == weights.end()) {
    failures.push_back(where + ": no weight (mass and gravity) for this cloth in the shot");
    return;
  }
  if (weight->second <= 0) return;  // no gravity: no potential energy
  const double ref = r.potentialEnergy / weight->second, measured = m.potentialEnergy / weight->second;
  const double moved = std::abs(measured - ref);
  if (moved <= t.heightAbsolute) return;
  failures.push_back(where + ": centre of mass " + num(measured) + " m high (potential_energy " +
                     num(m.potentialEnergy) + " J / weight " + num(weight->second) + " N), reference " + num(ref) +
                     " m: moved " + num(moved) + " m (allowed " + num(t.heightAbsolute) + " m)");
}

// Kinetic or elastic energy: within +-share of the cloth's peak over the reference frames.
void checkPeakShare(const std::string& where, const char* metric, double ref, double measured, double peak,
                    double share, std::vector<std::string>& failures) {
  const double moved = std::abs(measured - ref);
  if (moved <= share * peak) return;
  char shares[96];
  std::snprintf(shares, sizeof shares, "%.3g %% of the cloth's peak %s J (allowed %.3g %%)",
                peak > 0 ? 100 * moved / peak : INFINITY, num(peak).c_str(), 100 * share);
  failures.push_back(where + ": " + metric + " " + num(measured) + " J, reference " + num(ref) + " J: moved " +
                     num(moved) + " J = " + shares);
}

void compareCloth(const std::string& where, const ClothFrame& r, const ClothFrame& m, const Tolerances& t,
                  const Peaks& peaks, const ClothWeights& weights, std::vector<std::string>& failures) {
  checkCount(where, "faces", r.faces, m.faces, t, failures);
  checkCount(where, "nodes", r.nodes, m.nodes, t, failures);
  checkBbox(where, r, m, t, failures);
  checkAtMost(where, "max_penetration", r.maxPenetration, m.maxPenetration, t.penetrationSlack, " m", failures);
  checkAtMost(where, "intersections", double(r.intersections), double(m.intersections), t.intersectionsSlack, "",
              failures);
  checkHeight(where, r, m, t, weights, failures);
  checkPeakShare(where, "kinetic_energy", r.kineticEnergy, m.kineticEnergy, peaks.kinetic, t.kineticPeakShare,
                 failures);
  checkPeakShare(where, "elastic_energy", r.elasticEnergy, m.elasticEnergy, peaks.elastic, t.elasticPeakShare,
                 failures);
}

const ClothFrame* findCloth(const FrameSummary& frame, const std::string& name) {
  for (const ClothFrame& c : frame.cloths)
    if (c.name == name) return &c;
  return nullptr;
}

const FrameSummary* findFrame(const Summary& summary, int frame) {
  for (const FrameSummary& f : summary.frames)
    if (f.frame == frame) return &f;
  return nullptr;
}

void compareFrame(const std::string& scene, const FrameSummary& r, const FrameSummary& m, const Tolerances& t,
                  const ClothPeaks& peaks, const ClothWeights& weights, std::vector<std::string>& failures) {
  const std::string frameName = scene + " frame " + std::to_string(r.frame);
  for (const ClothFrame& rc : r.cloths) {
    const ClothFrame* mc = findCloth(m, rc.name);
    if (!mc) failures.push_back(frameName + " cloth " + rc.name + ": missing from the measured output");
    else compareCloth(frameName + " cloth " + rc.name, rc, *mc, t, peaks.at(rc.name), weights, failures);
  }
  for (const ClothFrame& mc : m.cloths)
    if (!findCloth(r, mc.name)) failures.push_back(frameName + " cloth " + mc.name + ": not in the reference");
}

}  // namespace

ClothWeights clothWeightsOf(const std::filesystem::path& shotFile) {
  const Shot shot = loadShot(shotFile);
  ClothWeights weights;
  for (const ClothSpec& cloth : shot.cloths) {
    double mass = 0;
    for (const Node& node : buildClothMesh(cloth, shot).nodes) mass += node.mass;
    weights[cloth.name] = mass * shot.dynamics.gravity.norm();
  }
  return weights;
}

std::vector<std::string> compareSummaries(const Summary& reference, const Summary& measured,
                                          const Tolerances& tolerances, const ClothWeights& weights) {
  std::vector<std::string> failures;
  const std::string& scene = reference.scene;
  const ClothPeaks peaks = peaksOf(reference);
  for (const FrameSummary& r : reference.frames) {
    const FrameSummary* m = findFrame(measured, r.frame);
    if (!m) failures.push_back(scene + " frame " + std::to_string(r.frame) + ": missing from the measured output");
    else compareFrame(scene, r, *m, tolerances, peaks, weights, failures);
  }
  for (const FrameSummary& m : measured.frames)
    if (!findFrame(reference, m.frame))
      failures.push_back(scene + " frame " + std::to_string(m.frame) + ": not in the reference");
  return failures;
}

}  // namespace adacloth::regression
