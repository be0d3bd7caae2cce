#include "regression/summary_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

void checkEnergy(const std::string& where, const char* metric, double ref, double measured, double relative,
                 const Tolerances& t, std::vector<std::string>& failures) {
  checkBand(where, metric, ref, measured, relative * std::abs(ref) + t.energyAbsolute, " J", failures);
}

void compareCloth(const std::string& where, const ClothFrame& r, const ClothFrame& m, const Tolerances& t,
                  std::vector<std::string>& failures) {
  checkCount(where, "faces", r.faces, m.faces, t, failures);
  checkCount(where, "nodes", r.nodes, m.nodes, t, failures);
  checkBbox(where, r, m, t, failures);
  checkAtMost(where, "max_penetration", r.maxPenetration, m.maxPenetration, t.penetrationSlack, " m", failures);
  checkAtMost(where, "intersections", double(r.intersections), double(m.intersections), t.intersectionsSlack, "",
              failures);
  checkEnergy(where, "kinetic_energy", r.kineticEnergy, m.kineticEnergy, t.kineticRelative, t, failures);
  checkEnergy(where, "potential_energy", r.potentialEnergy, m.potentialEnergy, t.potentialRelative, t, failures);
  checkEnergy(where, "elastic_energy", r.elasticEnergy, m.elasticEnergy, t.elasticRelative, t, failures);
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
                  std::vector<std::string>& failures) {
  const std::string frameName = scene + " frame " + std::to_string(r.frame);
  for (const ClothFrame& rc : r.cloths) {
    const ClothFrame* mc = findCloth(m, rc.name);
    if (!mc) failures.push_back(frameName + " cloth " + rc.name + ": missing from the measured output");
    else compareCloth(frameName + " cloth " + rc.name, rc, *mc, t, failures);
  }
  for (const ClothFrame& mc : m.cloths)
    if (!findCloth(r, mc.name)) failures.push_back(frameName + " cloth " + mc.name + ": not in the reference");
}

}  // namespace

std::vector<std::string> compareSummaries(const Summary& reference, const Summary& measured,
                                          const Tolerances& tolerances) {
  std::vector<std::string> failures;
  const std::string& scene = reference.scene;
  for (const FrameSummary& r : reference.frames) {
    const FrameSummary* m = findFrame(measured, r.frame);
    if (!m) failures.push_back(scene + " frame " + std::to_string(r.frame) + ": missing from the measured output");
    else compareFrame(scene, r, *m, tolerances, failures);
  }
  for (const FrameSummary& m : measured.frames)
    if (!findFrame(reference, m.frame))
      failures.push_back(scene + " frame " + std::to_string(m.frame) + ": not in the reference");
  return failures;
}

}  // namespace adacloth::regression
