#include "src/analysis/model/flat_map.h"

#include <cstdint>
#include <random>
#include <unordered_map>

#include <gtest/gtest.h>

namespace stepscope::analysis {
namespace {

// Every key of `reference` is found with its value, and the sizes agree.
void ExpectSame(const FlatUint64Map& map, const std::unordered_map<uint64_t, uint32_t>& reference) {
  ASSERT_EQ(map.size(), reference.size());
  for (const auto& [key, value] : reference) ASSERT_EQ(map.Find(key), value) << "key " << key;
}

TEST(FlatUint64MapTest, EraseKeepsTheOtherKeysOfItsProbeRun) {
  FlatUint64Map map(4);  // 16 slots, 8 keys: half full, so keys share probe runs
  std::unordered_map<uint64_t, uint32_t> reference;
  for (uint64_t k = 0; k < 8; ++k) {
    map.Set(k * 16, static_cast<uint32_t>(k));
    reference[k * 16] = static_cast<uint32_t>(k);
  }
  for (uint64_t k : {0, 3, 7}) {
    map.Erase(k * 16);
    reference.erase(k * 16);
    ExpectSame(map, reference);
    EXPECT_EQ(map.Find(k * 16), FlatUint64Map::kAbsent);
  }
  map.Erase(12345);  // absent: nothing changes
  ExpectSame(map, reference);
}

TEST(FlatUint64MapTest, RandomInsertsAndErasesMatchAReferenceMap) {
  FlatUint64Map map;
  std::unordered_map<uint64_t, uint32_t> reference;
  std::mt19937_64 random(7);
  for (uint32_t step = 0; step < 200000; ++step) {
    // Few distinct keys, so that erases hit present keys and runs collide.
    const uint64_t key = random() % 512 * 4096;
    if (random() % 3 == 0) {
      map.Erase(key);
      reference.erase(key);
    } else {
      map.Set(key, step);
      reference[key] = step;
    }
    if (step % 997 == 0) ExpectSame(map, reference);
  }
  ExpectSame(map, reference);
  for (const auto& [key, value] : std::unordered_map<uint64_t, uint32_t>(reference)) map.Erase(key);
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.Find(0), FlatUint64Map::kAbsent);
}

}  // namespace
}  // namespace stepscope::analysis
