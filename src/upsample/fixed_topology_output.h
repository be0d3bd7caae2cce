#pragma once
// Fixed-topology output of an adaptive simulation (docs/design.md §7, last paragraph; docs/upsampled-output.md). The
// operator's fine mesh is the output mesh: same vertices, `vt` and faces every frame. Each frame:
//   1. sample the simulation at the operator's coarse material points -> p_c;
//   2. upsample: p_up = op.apply(p_c, time);
//   3. locate every fine node's material point in the adaptive mesh -> p_sim (barycentric in world space);
//   4. blend p = w p_sim + (1 - w) p_up, with w = 1 where the simulation is at least as fine as the output mesh and
//      falling smoothly to 0 where it is coarser (out of view, say), smoothed over the output mesh so that no seam
//      shows where the two regions meet.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <functional>

#include "mesh/mesh.h"
#include "upsample/material_locator.h"
#include "upsample/mesh_pair.h"
#include "upsample/upsample_operator.h"

namespace adacloth {

// How the simulation and the upsampled positions are blended. The ratio is (local edge length of the simulation) /
// (local edge length of the output mesh), both the longest material-space edge of a face.
struct UpsampleBlend {
  double lo = 1.0;          // ratio at or below which the simulation is used alone (w = 1)
  double hi = 2.0;          // ratio at or above which the upsampled position is used alone (w = 0); > lo
  int smoothingPasses = 2;  // neighbour-averaging passes of w over the output mesh
};

// One frame of output.
struct OutputFrame {
  std::vector<Vec3> positions;  // m, one per fine (output) node
  std::vector<double> weight;   // w per fine node: 1 = simulation, 0 = upsampled
  double upsampledFraction = 0; // mean of 1 - w over the fine nodes
};

// The smoothstep blend weight for a ratio: 1 at or below lo, 0 at or above hi, C1 in between.
double simulationWeight(double ratio, const UpsampleBlend& blend);

// Empty when `op` fits `cloth`: its index arrays are consistent and every coarse and fine material point lies in the
// cloth's material domain within `tolerance` (m). Otherwise what is wrong, as a phrase ("fine point 12 at (1.5, 0.2)
// is 0.5 m outside the cloth's panels").
std::string operatorMismatch(const UpsampleOperator& op, const Mesh& cloth, double tolerance);
// How far (m, material space) an operator's points may lie outside the cloth's panels: half the median edge of the
// operator's output mesh, or a thousandth of the panels' bounding-box diagonal if that is more. Curved panel outlines
// are polygons of different edges in the two meshes (a coarse training garment and the production one), so a
// correct operator's points stray from the panels by up to the chords' sagitta; the output mesh cannot show an
// outline finer than its own edges, and an operator made for another garment strays by far more.
double coverageTolerance(const UpsampleOperator& op, const Mesh& cloth);

// What turns coarse samples into fine positions, whatever the method (linear, wrinkles, mlp; model_kind.h).
struct OutputPredictor {
  // Coarse material points and the output mesh. U is the linear method's; a wrinkle or MLP model's shell has none.
  std::shared_ptr<const UpsampleOperator> mesh;
  // Coarse samples the predictor reads: the current frame's and, for the MLP, the two frames before it.
  int historyFrames = 1;
  // coarse[0] is the current frame's sample (m, rows), coarse[1] the one before, ...; `fine` is resized (m, rows).
  std::function<void(const std::vector<Eigen::MatrixX3f>& coarse, double time, Eigen::MatrixX3f& fine)> predict;
};

// U p_c (+ modes).
OutputPredictor linearPredictor(std::shared_ptr<const UpsampleOperator> op);
// The coarse points and output mesh of a wrinkle or MLP model (U empty).
std::shared_ptr<const UpsampleOperator> outputMeshOf(const MeshPair& pair);

class FixedTopologyOutput {
 public:
  FixedTopologyOutput(std::shared_ptr<const UpsampleOperator> op, UpsampleBlend blend);  // the linear method
  FixedTopologyOutput(OutputPredictor predictor, UpsampleBlend blend);

  const UpsampleOperator& op() const { return *op_; }
  const UpsampleBlend& blend() const { return blend_; }
  // m: local edge length of the output mesh per fine node (mean over its faces of their longest material edge).
  const std::vector<double>& outputEdge() const { return outputEdge_; }

  // The output mesh for the simulation mesh `sim` (material coordinates in the operator's material space, world
  // positions current) at time `time` (s). Remembers this frame's coarse sample for predictors that read earlier
  // frames, so it is called once per frame, in order.
  OutputFrame evaluate(const Mesh& sim, double time);
  // Remembers the coarse sample of an earlier frame's mesh without evaluating (a resumed run re-reads the frames
  // before its checkpoint, oldest first).
  void primeHistory(const Mesh& sim);
  int historyFrames() const { return predictor_.historyFrames; }

  // OBJ text of the output mesh with node positions `positions` (m): v per fine node, vt per fine vert, f v/vt.
  std::string formatObj(const std::vector<Vec3>& positions) const;

 private:
  std::shared_ptr<const UpsampleOperator> op_;
  OutputPredictor predictor_;
  UpsampleBlend blend_;
  std::vector<Eigen::MatrixX3f> history_;    // newest first, historyFrames entries once a frame was seen
  std::vector<double> outputEdge_;           // per fine node (m)
  std::vector<std::vector<int>> neighbours_; // per fine node: nodes sharing a fine face, ascending
  Mesh objMesh_;                              // verts, nodes and faces of the output mesh, for the OBJ writer

  std::vector<double> smoothed(std::vector<double> w) const;
  Eigen::MatrixX3f sampleCoarse(const Mesh& sim, const MaterialLocator& locator) const;
  void remember(Eigen::MatrixX3f coarse);
};

}  // namespace adacloth
