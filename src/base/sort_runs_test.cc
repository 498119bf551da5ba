#include "src/base/sort_runs.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace stepscope::base {
namespace {

// (key, input position): sorting by key alone shows whether equal keys kept their order.
using Item = std::pair<int, int>;
bool KeyLess(const Item& a, const Item& b) { return a.first < b.first; }

std::vector<Item> Numbered(const std::vector<int>& keys) {
  std::vector<Item> items;
  for (size_t i = 0; i < keys.size(); ++i) items.push_back({keys[i], static_cast<int>(i)});
  return items;
}

// SortRuns must give exactly std::stable_sort's result, equal keys included.
void ExpectStableSorted(const std::vector<int>& keys) {
  std::vector<Item> expected = Numbered(keys);
  std::stable_sort(expected.begin(), expected.end(), KeyLess);
  std::vector<Item> actual = Numbered(keys);
  SortRuns(actual.begin(), actual.end(), KeyLess);
  EXPECT_EQ(actual, expected);
}

TEST(SortRunsTest, EmptyAndSingleAndSorted) {
  ExpectStableSorted({});
  ExpectStableSorted({7});
  ExpectStableSorted({1, 2, 2, 3, 5, 8});
}

TEST(SortRunsTest, OneDescentNearTheEnd) {
  std::vector<int> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(i);
  keys.push_back(500);  // a late slice that belongs in the middle
  keys.push_back(1001);
  ExpectStableSorted(keys);
}

TEST(SortRunsTest, EveryRunCountFromTwoToMany) {
  std::mt19937 random(7);
  // Run counts below and above the fallback to stable_sort, odd and even, with many
  // equal keys across runs.
  for (int runs : {2, 3, 4, 5, 7, 16, 33, 100, 1000}) {
    std::vector<int> keys;
    for (int r = 0; r < runs; ++r) {
      int start = static_cast<int>(random() % 50);
      int length = 1 + static_cast<int>(random() % 40);
      for (int i = 0; i < length; ++i) keys.push_back(start + i / 2);
    }
    SCOPED_TRACE(runs);
    ExpectStableSorted(keys);
  }
}

TEST(SortRunsTest, DescendingAndRandomInputFallBack) {
  std::vector<int> descending;
  for (int i = 200; i > 0; --i) descending.push_back(i);
  ExpectStableSorted(descending);
  std::mt19937 random(11);
  std::vector<int> shuffled;
  for (int i = 0; i < 5000; ++i) shuffled.push_back(static_cast<int>(random() % 300));
  ExpectStableSorted(shuffled);
}

}  // namespace
}  // namespace stepscope::base
