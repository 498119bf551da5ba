#include "src/server/result_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace stepscope::server {
namespace {

using Cache = ResultCache<std::string>;

Cache MakeCache(size_t capacity) {
  return Cache(capacity, [](const std::string& value) { return value.size(); });
}

Cache::Compute Returning(std::string value, std::atomic<int>* calls) {
  return [value, calls]() -> StatusOr<Cache::Value> {
    ++*calls;
    return std::make_shared<const std::string>(value);
  };
}

TEST(ResultCacheTest, ComputesOnceThenHits) {
  Cache cache = MakeCache(100);
  std::atomic<int> calls = 0;
  auto first = cache.GetOrCompute("k", Returning("value", &calls));
  auto second = cache.GetOrCompute("k", Returning("other", &calls));
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(**second, "value");
  EXPECT_EQ(first->get(), second->get());  // the same object, not a copy
  EXPECT_EQ(calls, 1);
  ResultCacheStats stats = cache.stats();
  EXPECT_EQ(stats.computations, 1);
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.bytes, 5u);
  EXPECT_EQ(stats.entries, 1u);
}

// Peek hands out a finished value (a hit) and nothing else: it neither computes nor waits.
TEST(ResultCacheTest, PeekSeesOnlyFinishedValues) {
  Cache cache = MakeCache(100);
  EXPECT_EQ(cache.Peek("k"), nullptr);
  std::atomic<int> calls = 0;
  auto computed = cache.GetOrCompute("k", Returning("value", &calls));
  ASSERT_TRUE(computed.ok());
  Cache::Value peeked = cache.Peek("k");
  ASSERT_NE(peeked, nullptr);
  EXPECT_EQ(peeked.get(), computed->get());
  EXPECT_EQ(cache.Peek("other"), nullptr);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(cache.stats().computations, 1);
  EXPECT_EQ(cache.stats().hits, 1);
}

TEST(ResultCacheTest, ConcurrentRequestsForOneKeyShareOneComputation) {
  Cache cache = MakeCache(1000);
  std::atomic<int> calls = 0;
  std::atomic<bool> release = false;
  auto slow = [&]() -> StatusOr<Cache::Value> {
    ++calls;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return std::make_shared<const std::string>("result");
  };
  std::vector<std::thread> threads;
  std::vector<std::string> seen(8);
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      auto value = cache.GetOrCompute("same", slow);
      seen[i] = value.ok() ? **value : value.status().message();
    });
  }
  // Wait until all but the computing thread are waiting on it, then let it finish.
  for (int spins = 0; spins < 5000 && cache.stats().joins < 7; ++spins) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  release = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(cache.stats().computations, 1);
  EXPECT_EQ(cache.stats().joins, 7);
  for (const std::string& value : seen) EXPECT_EQ(value, "result");
}

TEST(ResultCacheTest, EvictsLeastRecentlyUsedByBytes) {
  Cache cache = MakeCache(10);
  std::atomic<int> calls = 0;
  ASSERT_TRUE(cache.GetOrCompute("a", Returning("aaaa", &calls)).ok());  // 4 bytes
  ASSERT_TRUE(cache.GetOrCompute("b", Returning("bbbb", &calls)).ok());  // 8
  ASSERT_TRUE(cache.GetOrCompute("a", Returning("xxxx", &calls)).ok());  // a is now most recent
  ASSERT_TRUE(cache.GetOrCompute("c", Returning("cccc", &calls)).ok());  // 12 > 10: evict b
  EXPECT_EQ(cache.stats().evictions, 1);
  EXPECT_EQ(cache.stats().bytes, 8u);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(**cache.GetOrCompute("a", Returning("new", &calls)), "aaaa");  // kept
  EXPECT_EQ(**cache.GetOrCompute("b", Returning("bbb2", &calls)), "bbb2");  // recomputed
  EXPECT_EQ(calls, 4);
  EXPECT_LE(cache.stats().bytes, 10u);
}

// A value that grows after it is cached (a model whose derivations later requests fill) is
// charged its new size when measured again, and the budget holds.
TEST(ResultCacheTest, RemeasureChargesGrowthAndEvictsPastTheBudget) {
  struct Growing {
    mutable std::atomic<size_t> size{2};
  };
  ResultCache<Growing> cache(10, [](const Growing& g) { return g.size.load(); });
  auto make = [] { return StatusOr<std::shared_ptr<const Growing>>(std::make_shared<const Growing>()); };
  ASSERT_TRUE(cache.GetOrCompute("a", make).ok());
  auto b = cache.GetOrCompute("b", make);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(cache.stats().bytes, 4u);
  (*b)->size = 9;
  cache.Remeasure("b");  // 2 + 9 > 10: the least recently used, a, goes
  EXPECT_EQ(cache.stats().bytes, 9u);
  EXPECT_EQ(cache.stats().entries, 1u);
  EXPECT_EQ(cache.stats().evictions, 1);
  cache.Remeasure("missing");  // nothing to do
  (*b)->size = 20;
  cache.Remeasure("b");  // alone over the budget: not kept
  EXPECT_EQ(cache.stats().bytes, 0u);
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(ResultCacheTest, ValueLargerThanTheBudgetIsReturnedButNotKept) {
  Cache cache = MakeCache(3);
  std::atomic<int> calls = 0;
  auto big = cache.GetOrCompute("big", Returning("too large", &calls));
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(**big, "too large");
  EXPECT_EQ(cache.stats().entries, 0u);
  ASSERT_TRUE(cache.GetOrCompute("big", Returning("too large", &calls)).ok());
  EXPECT_EQ(calls, 2);
}

TEST(ResultCacheTest, ErrorsReachEveryCallerButAreNotCached) {
  Cache cache = MakeCache(100);
  int calls = 0;
  auto failing = [&]() -> StatusOr<Cache::Value> {
    ++calls;
    return DataLossError("truncated profile");
  };
  auto first = cache.GetOrCompute("k", failing);
  EXPECT_EQ(first.status().code(), StatusCode::kDataLoss);
  auto second = cache.GetOrCompute("k", failing);
  EXPECT_EQ(second.status().message(), "truncated profile");
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(ResultCacheTest, ClearDropsEntries) {
  Cache cache = MakeCache(100);
  std::atomic<int> calls = 0;
  ASSERT_TRUE(cache.GetOrCompute("k", Returning("v", &calls)).ok());
  cache.Clear();
  EXPECT_EQ(cache.stats().entries, 0u);
  ASSERT_TRUE(cache.GetOrCompute("k", Returning("v", &calls)).ok());
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace stepscope::server
