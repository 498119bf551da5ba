// Turning hot-path ticks (internal::ReadTicks) into CLOCK_MONOTONIC nanoseconds.
//
// The hot path reads the TSC when it is invariant (constant rate, not stopped in idle
// states, synchronised across cores), because rdtsc costs a few ns against ~20 ns for
// clock_gettime through the vDSO. The TSC rate is never assumed: it is measured as the
// slope between two (ticks, monotonic ns) samples taken far apart — the first sample of
// the process and one taken when a session stops — so the error of one sample
// (~tens of ns) is spread over the whole interval.
#pragma once

#include <cstdint>

namespace stepscope::collect {

// Chooses the tick source once per process and records the first calibration sample.
// Must run before the first session enables recording; later calls do nothing.
// The environment variable STEPSCOPE_CLOCK=monotonic forces clock_gettime.
void InitTickClock();

// True when ticks are TSC cycles (valid after InitTickClock).
bool TicksAreTsc();

struct TickSample {
  uint64_t ticks = 0;
  uint64_t monotonic_ns = 0;
};

// A (ticks, monotonic ns) pair read as close together as possible.
TickSample SampleTicks();
// The first sample of the process (taken by InitTickClock).
TickSample FirstTickSample();

// Maps ticks to monotonic ns by the line through two samples.
class TickConverter {
 public:
  // `earlier` and `later` should be far apart (ms or more) for a precise slope; with
  // monotonic ticks the mapping is the identity whatever they are.
  TickConverter(TickSample earlier, TickSample later, bool ticks_are_tsc);
  int64_t ToMonotonicNs(uint64_t ticks) const;
  double ns_per_tick() const { return ns_per_tick_; }

 private:
  TickSample anchor_;
  double ns_per_tick_ = 1.0;
  bool identity_ = true;
};

}  // namespace stepscope::collect
