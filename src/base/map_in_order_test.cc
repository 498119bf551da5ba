#include "src/base/map_in_order.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace stepscope::base {
namespace {

// Produced out of order (later indices faster), consumed in order, each exactly once.
TEST(MapInOrderTest, ConsumesEveryIndexInOrderWhateverOrderTheyAreProducedIn) {
  constexpr size_t kCount = 200;
  std::vector<std::atomic<int>> produced(kCount);
  std::vector<size_t> order;
  const size_t consumed = MapInOrder<std::string>(
      kCount, 4, 8,
      [&](size_t i) {
        ++produced[i];
        if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        return "v" + std::to_string(i);
      },
      [&](size_t i, std::string value) {
        EXPECT_EQ(value, "v" + std::to_string(i));
        order.push_back(i);
        return true;
      });
  EXPECT_EQ(consumed, kCount);
  ASSERT_EQ(order.size(), kCount);
  for (size_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(order[i], i);
    EXPECT_EQ(produced[i], 1) << i;
  }
}

// However slow the consumer, no more than `window` values wait produced and unconsumed: a
// run's hosts are never all in memory.
TEST(MapInOrderTest, HoldsAtMostTheWindowAheadOfTheConsumer) {
  constexpr size_t kWindow = 3;
  std::atomic<size_t> produced{0};
  size_t consumed = 0, most_ahead = 0;
  MapInOrder<int>(
      60, 4, kWindow,
      [&](size_t i) {
        ++produced;
        return static_cast<int>(i);
      },
      [&](size_t, int) {
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        ++consumed;
        most_ahead = std::max(most_ahead, produced.load() - consumed);
        return true;
      });
  EXPECT_EQ(consumed, 60u);
  EXPECT_LE(most_ahead, kWindow);
}

// A consumer that stops: nothing after it is consumed, and production stops within the window.
TEST(MapInOrderTest, AConsumerThatStopsEndsTheMap) {
  std::atomic<size_t> produced{0};
  std::vector<size_t> seen;
  const size_t consumed = MapInOrder<size_t>(
      1000, 2, 4, [&](size_t i) { return ++produced, i; },
      [&](size_t i, size_t) {
        seen.push_back(i);
        return i < 10;
      });
  EXPECT_EQ(consumed, 11u);
  EXPECT_EQ(seen.size(), 11u);
  EXPECT_LE(produced.load(), 11u + 4u);
  EXPECT_EQ(MapInOrder<int>(0, 4, 4, [](size_t) { return 0; }, [](size_t, int) { return true; }), 0u);
}

}  // namespace
}  // namespace stepscope::base
