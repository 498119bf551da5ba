#include "src/analysis/model/correlation_map.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

namespace stepscope::analysis::internal {
namespace {

// What the map must answer: the value of each id, a non-negative one over a negative one.
struct Reference {
  std::unordered_map<uint64_t, int32_t> values;
  void Add(uint64_t id, int32_t value) {
    auto [it, inserted] = values.try_emplace(id, value);
    if (!inserted && (value >= 0 || it->second < 0)) it->second = value;
  }
  int32_t Find(uint64_t id) const {
    auto it = values.find(id);
    return it == values.end() ? CorrelationMap::kNone : it->second;
  }
};

// Every id added, its neighbours and ids between the runs, in increasing and random order.
void ExpectSameAnswers(const std::vector<std::pair<uint64_t, int32_t>>& adds) {
  CorrelationMap map;
  Reference reference;
  std::vector<uint64_t> probes;
  for (const auto& [id, value] : adds) {
    map.Add(id, value);
    reference.Add(id, value);
    for (uint64_t probe : {id, id + 1, id - 1, id + 5000, id ^ (uint64_t{1} << 40)}) probes.push_back(probe);
  }
  map.Finish();
  for (uint64_t probe : probes) ASSERT_EQ(map.Find(probe), reference.Find(probe)) << probe;
  std::shuffle(probes.begin(), probes.end(), std::mt19937_64(7));
  for (uint64_t probe : probes) ASSERT_EQ(map.Find(probe), reference.Find(probe)) << probe;
  const CorrelationMap copy = map;  // as HostAnalysis is copied and moved
  for (uint64_t probe : probes) ASSERT_EQ(copy.Find(probe), reference.Find(probe)) << probe;
}

TEST(CorrelationMapTest, OneDenseRunAsOneProcessCountsIds) {
  std::vector<std::pair<uint64_t, int32_t>> adds;
  for (uint64_t id = 1000; id < 50'000; id += 1 + id % 3) adds.push_back({id, static_cast<int32_t>(id % 97) - 2});
  ExpectSameAnswers(adds);
}

// The synthetic pod's GPUs (g x 10^9) and a merged file's processes: runs far apart.
TEST(CorrelationMapTest, SeveralRunsFarApart) {
  std::vector<std::pair<uint64_t, int32_t>> adds;
  for (uint64_t g = 0; g < 8; ++g) {
    for (uint64_t i = 0; i < 20'000; ++i) adds.push_back({g * 1'000'000'000 + i, static_cast<int32_t>(i % 50)});
  }
  adds.push_back({UINT64_MAX, 3});  // the top bucket
  adds.push_back({0, 4});
  ExpectSameAnswers(adds);
}

TEST(CorrelationMapTest, ANonNegativeValueWinsOverANegativeOneWhateverTheOrder) {
  CorrelationMap map;
  map.Add(10, -2);
  map.Add(10, 5);
  map.Add(10, -2);
  map.Add(20, 7);
  map.Add(20, 8);
  map.Finish();
  EXPECT_EQ(map.Find(10), 5);
  EXPECT_EQ(map.Find(20), 8);
  EXPECT_EQ(map.Find(30), CorrelationMap::kNone);
}

// Ids spread over 64 bits: more buckets than a few slots per id allow, so the hash map.
TEST(CorrelationMapTest, ScatteredIdsAreAnsweredAllTheSame) {
  std::mt19937_64 random(3);
  std::vector<std::pair<uint64_t, int32_t>> adds;
  for (int i = 0; i < 5000; ++i) adds.push_back({random(), static_cast<int32_t>(random() % 100) - 3});
  ExpectSameAnswers(adds);
  CorrelationMap empty;
  empty.Finish();
  EXPECT_EQ(empty.Find(1), CorrelationMap::kNone);
}

}  // namespace
}  // namespace stepscope::analysis::internal
