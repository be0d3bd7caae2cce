#pragma once
// Continuous collision detection for primitives moving linearly during a step: vertex-face and edge-edge.
// Positions are given at the start (x0) and end (x1) of the step; t in [0, 1] is the fraction of the step.
//
// A contact is reported at the earliest time at which the primitives come within `tolerance` (m) of each other
// while approaching (moving towards each other along the contact normal; separating pairs are not collisions). A pair
// already within the tolerance at the start must approach by more than a hundredth of the tolerance over the step.
// Candidate times are the roots of the coplanarity cubic plus its critical points and the step's ends, so that
// grazing contacts (a double root the sign test cannot see) and pairs that start close and approach are found too.
// When the motion keeps the four points coplanar for the whole step (the cubic vanishes), the step is sampled at
// five times (in-plane contact between such samples is left to the proximity pass).
#include <array>
#include <optional>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

// One contact between four points. `weights` make `sum_i weights[i] * x_i` the separation vector (from the face or
// first edge to the vertex or second edge), so the relative velocity along `normal` is sum_i weights[i] n.v_i.
struct ContactGeometry {
  double t = 0.0;                  // fraction of the step (1)
  std::array<double, 4> weights{};  // vertex-face: {1, -a, -b, -c}; edge-edge: {-(1-s), -s, 1-u, u}
  Vec3 normal = Vec3::UnitZ();     // unit, pointing from the face (first edge) towards the vertex (second edge)
  double distance = 0.0;           // at t (m)
};

// The four points of a primitive pair at the start and end of the step: vertex-face = {p, a, b, c},
// edge-edge = {p0, p1, q0, q1}.
struct MovingPoints {
  std::array<Vec3, 4> x0, x1;
};

std::optional<ContactGeometry> vertexFaceCCD(const MovingPoints& m, double tolerance);
std::optional<ContactGeometry> edgeEdgeCCD(const MovingPoints& m, double tolerance);

// True when a fixed axis (the face's or the edges' normal at either end of the step, or at the start an in-plane
// normal of an edge) separates the pair by more than `tolerance` (m) over the whole step, so that it can never come
// within the tolerance: the CCD queries above return no contact for it without solving the coplanarity cubic. Most
// pairs a cloth's broad phase finds lie side by side in its plane or apart along its normal (collision 3-5 % cheaper
// on the character shots, docs/benchmarks.md). Exposed for tests.
bool vertexFaceApartForStep(const MovingPoints& m, double tolerance);
bool edgeEdgeApartForStep(const MovingPoints& m, double tolerance);

// Static proximity at the end positions: the pair's separation when closer than `distance`, with the normal
// oriented by which side the pair was on at the start of the step (so a pair that crossed is not pushed through).
std::optional<ContactGeometry> vertexFaceProximity(const MovingPoints& m, double distance);
std::optional<ContactGeometry> edgeEdgeProximity(const MovingPoints& m, double distance);

// A few times in [0, 1], in a fixed-size array: a CCD test makes several such lists, tens of thousands of tests run
// per frame, and on the heap their allocations cost skirt_walk ~8 % of its collision phase.
struct CandidateTimes {
  std::array<double, 8> t{};
  int count = 0;
  void push(double x) { t[count++] = x; }
  double* begin() { return t.data(); }
  double* end() { return t.data() + count; }
  const double* begin() const { return t.data(); }
  const double* end() const { return t.data() + count; }
};

// Roots in [0, 1] of c0 + c1 t + c2 t^2 + c3 t^3 together with its critical points in [0, 1] and both ends, sorted
// (the candidate contact times; at most 3 roots, 2 critical points and the ends). Exposed for tests.
CandidateTimes cubicCandidateTimes(double c0, double c1, double c2, double c3);

}  // namespace adacloth
