#pragma once
// Edge flip to the anisotropic Delaunay triangulation (docs/design.md §3).
#include "remesh/remesh.h"
#include "remesh/remesh_state.h"

namespace adacloth {

// The anisotropic Delaunay test of an interior edge in the averaged metric of its four verts: negative when the edge
// should flip (the sum of the metric angles opposite to it exceeds pi), scaled like an area (m^2 times s^2).
// Returns +infinity for boundary and seam edges, which never flip.
double flipMeasure(const RemeshState& state, int edge);

// Whether the flip of an interior non-seam edge is allowed: the new diagonal is not already an edge and is valid for
// the sizing field (s^2 <= 1) unless the flip removes a face thinner in the metric than params.aspectMin (a sliver; the
// next split batch splits the long diagonal), both new faces have positive material area, the world dihedral angle is
// below params.flipMaxDihedral, the new faces are not inverted in world space and their larger principal stretch is
// within params.maxChangedStretch or within that of the faces they replace (unless one of those is thinner in material
// space than params.aspectMin, or removesSliver).
bool canFlip(const RemeshState& state, int edge, const RemeshParams& params);

// Replaces the edge's two faces (p, q, c) and (q, p, d) by (c, p, d) and (d, q, c).
void flipEdge(RemeshState& state, int edge);

// One batch: flips every edge that fails the test by more than params.flipThreshold, worst first, over disjoint
// quads. Ends the batch when anything flipped. Returns the number of flips.
int flipPass(RemeshState& state, const RemeshParams& params);

// Flip batches until none flips or params.maxFlipPasses; returns the total number of flips.
int flipUntilDelaunay(RemeshState& state, const RemeshParams& params);

}  // namespace adacloth
