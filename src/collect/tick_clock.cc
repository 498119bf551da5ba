#include "src/collect/tick_clock.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

#include "src/base/clock.h"
#include "stepscope/internal/recorder.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace stepscope::internal {
bool g_ticks_are_tsc = false;
}  // namespace stepscope::internal

namespace stepscope::collect {
namespace {

std::once_flag g_init_once;
TickSample g_first_sample;

bool CpuHasInvariantTsc() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u) return false;
  if (__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (edx & (1u << 8)) != 0;  // CPUID.80000007H:EDX[8] "Invariant TSC"
#else
  return false;
#endif
}

// Hypervisors often hide the invariant-TSC bit although the kernel has verified the TSC
// and uses it as its own clocksource; that verdict is good enough for us too.
bool KernelClocksourceIsTsc() {
  std::ifstream file("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string source;
  return static_cast<bool>(file >> source) && source == "tsc";
}

bool ShouldUseTsc() {
#if defined(__x86_64__) || defined(__i386__)
  const char* forced = std::getenv("STEPSCOPE_CLOCK");
  if (forced != nullptr && std::strcmp(forced, "monotonic") == 0) return false;
  return CpuHasInvariantTsc() || KernelClocksourceIsTsc();
#else
  return false;
#endif
}

}  // namespace

void InitTickClock() {
  std::call_once(g_init_once, [] {
    internal::g_ticks_are_tsc = ShouldUseTsc();
    g_first_sample = SampleTicks();
  });
}

bool TicksAreTsc() { return internal::g_ticks_are_tsc; }

TickSample SampleTicks() {
  // Bracket one clock read between two tick reads and keep the tightest of a few tries,
  // so a preemption between the reads does not skew the sample.
  constexpr int kTries = 5;  // enough to dodge one interrupt, cheap at session start/stop
  TickSample best;
  uint64_t best_gap = UINT64_MAX;
  for (int i = 0; i < kTries; ++i) {
    uint64_t before = internal::ReadTicks();
    uint64_t ns = base::MonotonicNowNs();
    uint64_t after = internal::ReadTicks();
    if (after - before < best_gap) {
      best_gap = after - before;
      best.ticks = before + (after - before) / 2;
      best.monotonic_ns = ns;
    }
  }
  return best;
}

TickSample FirstTickSample() { return g_first_sample; }

TickConverter::TickConverter(TickSample earlier, TickSample later, bool ticks_are_tsc)
    : anchor_(later), identity_(!ticks_are_tsc) {
  if (identity_) return;
  if (later.ticks > earlier.ticks && later.monotonic_ns > earlier.monotonic_ns) {
    ns_per_tick_ = static_cast<double>(later.monotonic_ns - earlier.monotonic_ns) /
                   static_cast<double>(later.ticks - earlier.ticks);
  }
}

int64_t TickConverter::ToMonotonicNs(uint64_t ticks) const {
  if (identity_) return static_cast<int64_t>(ticks);
  // Signed distance from the anchor, so ticks before and after it both work.
  double delta_ticks = static_cast<double>(static_cast<int64_t>(ticks - anchor_.ticks));
  return static_cast<int64_t>(anchor_.monotonic_ns) + static_cast<int64_t>(delta_ticks * ns_per_tick_);
}

}  // namespace stepscope::collect
