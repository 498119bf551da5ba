#include "src/base/cores.h"

#include <sched.h>

#include <thread>

#include <gtest/gtest.h>

namespace stepscope::base {
namespace {

TEST(UsableCoresTest, FollowsTheAffinityMaskNotTheMachine) {
  const int all = UsableCores();
  EXPECT_GE(all, 1);
  EXPECT_LE(all, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  // A thread pinned to one core (as taskset pins a process) may use one.
  int pinned = 0;
  std::thread([&] {
    cpu_set_t allowed;
    ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (!CPU_ISSET(cpu, &allowed)) continue;
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
      break;
    }
    pinned = UsableCores();
  }).join();
  EXPECT_EQ(pinned, 1);
}

}  // namespace
}  // namespace stepscope::base
