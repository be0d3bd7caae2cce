#pragma once
// The fixed pair of meshes a learned upsampler works over (docs/design.md §7): a coarse cloth mesh at rest and its
// `levels` uniform midpoint subdivisions (subdivide.h). Model files of the wrinkle and patch-MLP upsamplers store only
// the coarse mesh and the level count; the fine mesh is re-derived, the same every time.
#include "io/binary_stream.h"
#include "upsample/subdivide.h"

namespace adacloth {

struct MeshPair {
  Mesh coarse;       // rest shape: verts (material coordinates, m), nodes (rest world positions, m), faces
  int levels = 0;    // midpoint subdivision levels from coarse to fine
  Subdivision sub;   // sub.fine is the output mesh; sub.midpoint / sub.loop map coarse to fine node positions
};

// Builds adjacency and geometry of `coarse` and subdivides it. InputError when levels is outside 0..5.
MeshPair makeMeshPair(Mesh coarse, int levels);

// Empty when `coarse` (a track folder's rest mesh, say) subdivided `levels` times is this pair: same levels, node
// count, vert -> node map and faces. Otherwise what differs, as a phrase.
std::string meshPairMismatch(const MeshPair& pair, const Mesh& coarse, int levels);

// The coarse mesh and level count: u32 levels, u64 V, per vert f64 u[2] + i32 node, u64 N, per node f64 x[3],
// u64 F, per face i32[3] verts (BinaryWriter encoding).
void writeMeshPair(BinaryWriter& out, const MeshPair& pair);
// Checks every index and count (BinaryFormatError) and that the mesh is a valid oriented 2-manifold (MeshError).
MeshPair readMeshPair(BinaryReader& in);

}  // namespace adacloth
