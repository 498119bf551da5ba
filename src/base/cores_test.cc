#include "src/base/cores.h"

#include <sched.h>

#include <atomic>
#include <initializer_list>
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

cpu_set_t AffinityOfThisThread() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  EXPECT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
  return mask;
}

cpu_set_t Cpus(std::initializer_list<int> cpus) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (int cpu : cpus) CPU_SET(cpu, &mask);
  return mask;
}

TEST(CoreHalvesTest, AlternateCpusWithTheCurrentOneInHalfOne) {
  const cpu_set_t allowed = Cpus({0, 1, 2, 3, 5, 9, 10});
  const CoreHalves halves = CoreHalves::Of(allowed, 3);
  ASSERT_TRUE(halves.active());
  cpu_set_t zero = Cpus({0, 2, 5, 10});
  cpu_set_t one = Cpus({1, 3, 9});
  EXPECT_TRUE(CPU_EQUAL(&halves.half(0), &zero));
  EXPECT_TRUE(CPU_EQUAL(&halves.half(1), &one));
  // Current CPU at an even position: the parities swap.
  const CoreHalves even = CoreHalves::Of(allowed, 5);
  EXPECT_TRUE(CPU_EQUAL(&even.half(1), &zero));
  EXPECT_TRUE(CPU_EQUAL(&even.half(0), &one));
  // A current CPU outside the mask (it changed since): still two halves.
  const CoreHalves outside = CoreHalves::Of(Cpus({4, 6}), 0);
  ASSERT_TRUE(outside.active());
  EXPECT_EQ(CPU_COUNT(&outside.half(0)), 1);
  EXPECT_EQ(CPU_COUNT(&outside.half(1)), 1);
}

TEST(CoreHalvesTest, OneCpuHasNoHalves) {
  EXPECT_FALSE(CoreHalves::Of(Cpus({7}), 7).active());
  EXPECT_FALSE(CoreHalves::Of(Cpus({}), 0).active());
}

// Entering a half restricts the calling thread to it; leaving gives the whole mask back.
// With one usable CPU (taskset), there are no halves and entering changes nothing.
TEST(CoreHalvesTest, EnterRestrictsTheThreadAndLeaveRestoresIt) {
  std::thread([] {
    const cpu_set_t mask = AffinityOfThisThread();
    const CoreHalves halves = CoreHalves::OfCallingThread();
    EXPECT_EQ(halves.active(), CPU_COUNT(&mask) >= 2);
    for (int half : {0, 1}) {
      halves.Enter(half);
      cpu_set_t now = AffinityOfThisThread();
      EXPECT_TRUE(CPU_EQUAL(&now, halves.active() ? &halves.half(half) : &mask)) << "half " << half;
    }
    halves.Leave();
    cpu_set_t restored = AffinityOfThisThread();
    EXPECT_TRUE(CPU_EQUAL(&restored, &mask));
  }).join();
}

// Place restricts another thread (here one that waits), as Enter restricts the caller.
TEST(CoreHalvesTest, PlaceRestrictsAnotherThread) {
  const CoreHalves halves = CoreHalves::OfCallingThread();
  const cpu_set_t mask = AffinityOfThisThread();
  std::atomic<bool> placed{false};
  cpu_set_t seen;
  std::thread waiting([&] {
    while (!placed.load()) std::this_thread::yield();
    seen = AffinityOfThisThread();
  });
  halves.Place(waiting.native_handle(), 0);
  placed = true;
  waiting.join();
  EXPECT_TRUE(CPU_EQUAL(&seen, halves.active() ? &halves.half(0) : &mask));
  const cpu_set_t after = AffinityOfThisThread();
  EXPECT_TRUE(CPU_EQUAL(&after, &mask));  // the caller itself was not moved
}

}  // namespace
}  // namespace stepscope::base
