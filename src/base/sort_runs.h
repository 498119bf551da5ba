// SortRuns: a stable sort that costs O(n log k) on input made of k ascending runs.
//
// Traces are written almost in time order: a thread's slices arrive sorted except where a
// writer flushed two buffers out of order or emitted a parent after its children, so a
// 20,000-slice line typically has one to a dozen descents. std::sort and std::stable_sort
// pay the full O(n log n) for those; merging the runs pays O(n) per halving of the run count.
// Input with many runs (random order) falls back to std::stable_sort, so the worst case is
// stable_sort's plus one linear scan.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace stepscope::base {

// Sorts [first, last) by `less` (a strict weak order), keeping equal elements in their
// input order, as std::stable_sort does.
template <typename RandomIt, typename Less>
void SortRuns(RandomIt first, RandomIt last, Less less) {
  const size_t n = static_cast<size_t>(std::distance(first, last));
  // Where each ascending run starts, and n at the end.
  std::vector<size_t> bounds{0};
  for (size_t i = 1; i < n; ++i) {
    if (less(first[i], first[i - 1])) bounds.push_back(i);
  }
  if (bounds.size() == 1) return;  // already sorted
  // Merging costs about log2(k) passes over the data; past n/16 runs a sort is cheaper.
  if (bounds.size() > n / 16) {
    std::stable_sort(first, last, less);
    return;
  }
  bounds.push_back(n);
  // Merge neighbouring runs pairwise until one run is left; a merge keeps the left run's
  // elements before the right's on ties, which is what makes the whole sort stable.
  while (bounds.size() > 2) {
    std::vector<size_t> merged{0};
    size_t i = 0;
    for (; i + 2 < bounds.size(); i += 2) {
      std::inplace_merge(first + bounds[i], first + bounds[i + 1], first + bounds[i + 2], less);
      merged.push_back(bounds[i + 2]);
    }
    if (i + 1 < bounds.size()) merged.push_back(bounds[i + 1]);  // an odd run, carried over
    bounds = std::move(merged);
  }
}

}  // namespace stepscope::base
