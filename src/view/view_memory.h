#pragma once
// Memory of the resolution a cloth had where the camera saw it (docs/design.md §4.7, docs/view-dependent.md).
//
// Why: out of view the sizing is scaled down and the mesh coarsens; a coarse mesh cannot hold the folds it had, so
// when the cloth comes back into view its own curvature asks for little, and it enters a shot coarse while the folds
// regrow through the dynamics (crowd's capes after two seconds out of view: half the faces of the `--no-view` run at
// the cut). The memory keeps, per region of material space, the raw sizing the region had when last seen at full
// view factor, and for a while after the region was away (coarsened), raises its sizing to that: cloth coming back
// refines where it was folded, ahead of the folds.
//
// The regions are cells of a grid over the cloth's material bounding box. A cell is covered by the faces that hold
// its centre and by the face whose centroid lies in it; it counts as seen at full factor when one of them is (F = 1),
// and as away when all of them are below kViewMemoryAway (coarsened: F^2 < 1/2). Per frame, in this order:
//   - record: a cell away notes the time (awayAt); a cell seen at full factor that has not been away within the hold
//     (kViewMemoryHold x memory_seconds) takes the tensor max of its full-factor faces' raw tensors: a snapshot of
//     the region as seen, not a history (a history of moving folds would refine their whole path);
//   - raise: a face takes the tensor max of its raw tensor and, for each of its cells away within the hold, the
//     cell's snapshot faded by exp(-(time - awayAt) / memory_seconds).
// A cell coming back keeps the snapshot from before it left until the hold is over. Cloth never away is left exactly
// as it was. The tensors are raw (before the view scaling): what the memory raises is then scaled by F^2 and clamped
// like the rest, so it shows only where the camera looks.
#include <limits>
#include <vector>

#include "mesh/mesh.h"

namespace adacloth {

struct ViewMemory {
  Vec2 origin = Vec2::Zero();  // m: material coordinates of the grid's lower corner
  double cell = 0.0;           // m: side of a cell in material space
  int nx = 0, ny = 0;          // cells along u and v
  std::vector<Mat2> sizing;    // per cell (1/m^2): the raw tensor when last seen at full factor (zero: never)
  std::vector<double> awayAt;  // per cell (s): the last time it was away (-inf: never)
};

// Largest grid a memory uses; coarser cells beyond it.
constexpr int kViewMemoryMaxCells = 1 << 18;
// A cell is away below this view factor: its faces are then sized at under half the tensor, edges 1.4x longer.
constexpr double kViewMemoryAway = 0.7071;
// How long after a cell was last away its snapshot raises its faces, in memory_seconds (the snapshot has faded to
// e^-3 by then: edges 4.5x its own).
constexpr double kViewMemoryHold = 3.0;

// An empty memory over the material bounding box of `mesh`, with cells of side `cellSize` (m, > 0), enlarged so that
// the grid has at most kViewMemoryMaxCells cells.
ViewMemory makeViewMemory(const Mesh& mesh, double cellSize);

// Records this frame's raw face sizing (`faceSizing`, 1/m^2, one per face, before the view scaling) and view factors
// (`factor`, F3' per face) at `time` (s), then raises `faceSizing` by the memory. `memorySeconds` (s, > 0) is the
// time over which a snapshot fades once its region is back. Serial, in face order: the same bytes at any thread
// count.
void rememberViewSizing(ViewMemory& memory, const Mesh& mesh, std::vector<Mat2>& faceSizing,
                        const std::vector<double>& factor, double time, double memorySeconds);

// The cells of the memory that face f covers (see above), in increasing order.
std::vector<int> coveredCells(const ViewMemory& memory, const Mesh& mesh, int f);

}  // namespace adacloth
