#pragma once
// Sums over nodes that give the same bits at any thread count: nodes are taken in chunks of kChunk, each chunk in
// node order, then the chunks' sums in chunk order.
#include <algorithm>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

constexpr int kChunk = 2048;

// Runs body(i) for every node i < n (in parallel over chunks) and returns the sum of what body returns (a Vec2: two
// sums in one pass). `partial` is scratch.
template <class Body>
Vec2 chunkedSums(int n, std::vector<Vec2>& partial, const Body& body) {
  const int chunks = (n + kChunk - 1) / kChunk;
  partial.assign(chunks, Vec2::Zero());
  // One chunk runs on this thread: opening a parallel region for it costs a fork and a join of the team per call,
  // several per iteration of a solve, for no work shared (most cloths have fewer than kChunk nodes).
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (int c = 0; c < chunks; ++c) {
    Vec2 sum = Vec2::Zero();
    const int end = std::min(n, (c + 1) * kChunk);
    for (int i = c * kChunk; i < end; ++i) sum += body(i);
    partial[c] = sum;
  }
  Vec2 total = Vec2::Zero();
  for (const Vec2& s : partial) total += s;
  return total;
}

}  // namespace adacloth
