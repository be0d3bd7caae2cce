#include "remesh/remesh.h"

#include <stdexcept>
#include <string>

#include "remesh/collapse.h"
#include "remesh/flip.h"
#include "remesh/remesh_state.h"
#include "remesh/split.h"

namespace adacloth {
namespace {

RemeshState startState(Mesh& mesh, const std::vector<Mat2>& vertexSizing, const std::vector<char>& protectedNodes) {
  if (vertexSizing.size() != mesh.verts.size())
    throw std::invalid_argument("remesh: " + std::to_string(vertexSizing.size()) + " sizing tensors for " +
                                std::to_string(mesh.verts.size()) + " verts");
  if (!protectedNodes.empty() && protectedNodes.size() != mesh.nodes.size())
    throw std::invalid_argument("remesh: the protected-node mask must have one entry per node");
  RemeshState s(mesh);
  s.sizing = vertexSizing;
  s.protectedNode = protectedNodes;
  s.protectedNode.resize(mesh.nodes.size(), 0);
  s.originalNode.resize(mesh.nodes.size());
  for (size_t i = 0; i < mesh.nodes.size(); ++i) s.originalNode[i] = int(i);
  s.changedIn.assign(mesh.nodes.size(), -1);  // the first flip scan and collapse pass examine every edge anyway
  return s;
}

std::vector<int> finalNodeMap(const RemeshState& s, size_t oldCount) {
  std::vector<int> map(oldCount, -1);
  for (size_t i = 0; i < s.originalNode.size(); ++i)
    if (s.originalNode[i] >= 0) map[s.originalNode[i]] = int(i);
  return map;
}

// Splits until every edge is valid for the sizing field (at most params.maxPasses batches), with one flip batch after
// each split batch: the flips a split enables are local to it.
void refine(RemeshState& s, const RemeshParams& params, RemeshResult& r) {
  for (int pass = 0; pass < params.maxPasses; ++pass) {
    int n = splitPass(s, params);
    if (n == 0) break;
    r.splits += n;
    r.flips += flipPass(s, params);
  }
}

}  // namespace

RemeshResult remesh(Mesh& mesh, const std::vector<Mat2>& vertexSizing, const RemeshParams& params,
                    const std::vector<char>& protectedNodes, const SweepCheck* sweepCheck) {
  const size_t oldNodes = mesh.nodes.size();
  RemeshState s = startState(mesh, vertexSizing, protectedNodes);
  s.sweepCheck = sweepCheck;
  mesh.updateGeometry();
  RemeshResult r;
  // Flip first so that splits act on a Delaunay mesh; then refine until every edge is valid, with a flip batch after
  // each split batch; then coarsen where the field allows, likewise; then flip to Delaunay, and split what those flips
  // left too long (only a flip that removes a sliver makes an edge the sizing would split: flip.h).
  r.flips += flipUntilDelaunay(s, params);
  refine(s, params, r);
  for (int pass = 0; pass < params.maxPasses; ++pass) {
    int n = collapsePass(s, params);
    if (n == 0) break;
    r.collapses += n;
    r.flips += flipPass(s, params);
  }
  r.flips += flipUntilDelaunay(s, params);
  refine(s, params, r);
  r.nodeMap = finalNodeMap(s, oldNodes);
  r.batches = s.batches;
  r.refused = s.refused;
  return r;
}

}  // namespace adacloth
