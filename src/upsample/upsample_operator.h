#pragma once
// A learned upsampling operator (docs/design.md §7, Kavan et al. 2011): fine node positions p_f = U p_c (+ oscillatory
// modes) from the positions of a coarse mesh, over a fixed pair of meshes that share one material space. The fine
// mesh is also the fixed-topology output mesh of an adaptive simulation (fixed_topology_output.h).
#include <array>
#include <string>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

// A travelling-wave correction fitted to what U cannot explain (seed 000 §5): every fine node moves along the normal
// of the upsampled surface by sinAmp_i sin(omega t) + cosAmp_i cos(omega t).
struct OscillatoryMode {
  double omega = 0.0;      // angular frequency (rad/s)
  Eigen::VectorXf sinAmp;  // per fine node (m)
  Eigen::VectorXf cosAmp;  // per fine node (m)
};

struct UpsampleOperator {
  // Coarse mesh: where the simulation is sampled. One material point (m) per coarse node (a seam node: any of its
  // verts' material coordinates).
  std::vector<Vec2> coarsePoints;
  // Fine (output) mesh, constant topology: per fine vert its material coordinates (m) and node; faces by vert.
  std::vector<Vec2> fineUv;
  std::vector<int> fineVertNode;
  std::vector<std::array<int, 3>> fineFaces;
  std::vector<Vec2> finePoints;  // one material point (m) per fine node
  // fine nodes x coarse nodes; each row sums to 1 (partition of unity: a rigid translation of the coarse mesh
  // translates the fine one).
  Eigen::MatrixXf U;
  std::vector<OscillatoryMode> modes;  // empty: p_f = U p_c only

  size_t coarseCount() const { return coarsePoints.size(); }
  size_t fineCount() const { return finePoints.size(); }

  // Fine node positions (m, one row per node) from coarse node positions (m, rows) at time `time` (s; used by
  // oscillatory modes). `fine` is resized.
  void apply(const Eigen::MatrixX3f& coarse, double time, Eigen::MatrixX3f& fine) const;
};

// Versioned binary file; written atomically.
void saveUpsampleOperator(const UpsampleOperator& op, const std::string& file);
// InputError naming the file and what is wrong (bad magic, unsupported version, truncated, sizes, not finite).
UpsampleOperator loadUpsampleOperator(const std::string& file);

}  // namespace adacloth
