#include "src/base/for_each_index.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace stepscope::base {
namespace {

TEST(ForEachIndexTest, EveryIndexRunsOnceWithAWorkerPerThread) {
  constexpr size_t kCount = 1000;
  std::vector<std::atomic<int>> runs(kCount);
  std::atomic<int> workers{0};
  const size_t failed = ForEachIndex(kCount, 8, [&] {
    ++workers;
    return [&](size_t i) {
      ++runs[i];
      return true;
    };
  });
  EXPECT_EQ(failed, kCount);
  for (size_t i = 0; i < kCount; ++i) EXPECT_EQ(runs[i], 1) << i;
  EXPECT_GE(workers, 1);
  EXPECT_LE(workers, 8);
}

TEST(ForEachIndexTest, NoIndicesCallNothingAndNoThreadsMeansTheCallersAlone) {
  std::atomic<int> calls{0};
  EXPECT_EQ(ForEachIndex(0, 4, [&] {
              return [&](size_t) {
                ++calls;
                return true;
              };
            }),
            0u);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(ForEachIndex(3, 0, [&] {  // threads below 1: the caller's thread alone
              return [&](size_t) {
                ++calls;
                return true;
              };
            }),
            3u);
  EXPECT_EQ(calls, 3);
}

// A later index failing first does not hide an earlier failure: every index before the
// earliest failure runs to its end, and that index is the result, as for one thread.
TEST(ForEachIndexTest, TheEarliestFailureWinsWhateverFailsFirst) {
  for (int threads : {1, 2, 8}) {
    std::vector<std::atomic<int>> runs(64);
    const size_t failed = ForEachIndex(runs.size(), threads, [&] {
      return [&](size_t i) {
        ++runs[i];
        if (i == 5) {  // fails last, long after index 9 has failed on another thread
          std::this_thread::sleep_for(std::chrono::milliseconds(threads > 1 ? 50 : 0));
          return false;
        }
        return i != 9;
      };
    });
    EXPECT_EQ(failed, 5u) << threads << " threads";
    for (size_t i = 0; i <= 5; ++i) EXPECT_EQ(runs[i], 1) << "index " << i << ", " << threads << " threads";
    if (threads == 1) {
      for (size_t i = 6; i < runs.size(); ++i) EXPECT_EQ(runs[i], 0) << "one thread stops at the failure";
    }
  }
}

}  // namespace
}  // namespace stepscope::base
