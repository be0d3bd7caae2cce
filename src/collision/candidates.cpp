#include "collision/candidates.h"

#include <algorithm>
#include <cstdint>

namespace adacloth {

void sortCandidates(std::vector<Candidate>& pairs) {
  constexpr size_t kSmall = 256;  // below this a comparison sort is faster than the counting passes
  if (pairs.size() < kSmall) {
    std::sort(pairs.begin(), pairs.end());
    return;
  }
  // Key: edgeEdge, then a, then b, packed in as few bits as the largest index needs, so that the order of the keys
  // is Candidate order.
  int largest = 0;
  for (const Candidate& c : pairs) largest = std::max({largest, c.a, c.b});
  int bits = 1;
  while ((int64_t(1) << bits) <= largest) ++bits;
  std::vector<std::pair<uint64_t, Candidate>> keyed(pairs.size()), scratch(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Candidate& c = pairs[i];
    keyed[i] = {(uint64_t(c.edgeEdge) << (2 * bits)) | (uint64_t(c.a) << bits) | uint64_t(c.b), c};
  }
  // Least significant digit first, 11 bits per pass: each pass is stable, so after the last the keys are in order.
  constexpr int kDigit = 11;
  const int keyBits = 2 * bits + 1;
  for (int shift = 0; shift < keyBits; shift += kDigit) {
    size_t count[(1 << kDigit) + 1] = {};
    for (const auto& k : keyed) ++count[((k.first >> shift) & ((1u << kDigit) - 1)) + 1];
    for (int d = 0; d < (1 << kDigit); ++d) count[d + 1] += count[d];
    for (const auto& k : keyed) scratch[count[(k.first >> shift) & ((1u << kDigit) - 1)]++] = k;
    keyed.swap(scratch);
  }
  for (size_t i = 0; i < pairs.size(); ++i) pairs[i] = keyed[i].second;
}

}  // namespace adacloth
