// Test support: a simulated asynchronous training loop, written as a PyTorch (Kineto 2.x)
// trace, with every figure the analysis should find known by construction.
//
// The host runs the loop as PyTorch does: each iteration is a `ProfilerStep#N` from one
// `prof.step()` to the next; it waits for its batch in the DataLoader's `__next__`, then
// enqueues its kernels (`cudaLaunchKernel`, one ATen op around each) on one or more
// streams and moves on. The device runs each stream's kernels in order, each as soon as
// it is launched and its stream is free. The host may run ahead of the device by at most
// `max_steps_ahead` steps (a full launch queue: the next launch blocks until the device
// has finished that old step), or synchronise at the end of each step
// (`cudaStreamSynchronize` under `aten::item`, as `.item()` does).
//
// The truth comes from the simulation's own records, not from any analysis rule: the
// program's iteration times (from one step's start to the next), the device work each step
// launched (its busy time and how far it ends after the host step), and the time the host
// waited for data while the device ran nothing (the input share).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepscope::importers::testing {

struct AsyncLoopConfig {
  std::string name;           // a test-name-safe id: "device_bound"
  int steps = 6;
  int streams = 1;            // kernels alternate between streams 7, 8, ...
  int kernels_per_step = 4;
  int64_t kernel_us = 10;      // each kernel's duration
  int64_t launch_us = 2;       // each cudaLaunchKernel's duration when it does not block
  int64_t host_gap_us = 1;     // host work between launches (inside the ATen op)
  // The DataLoader wait of each step, cycled (step i waits data_wait_us[i % size]).
  std::vector<int64_t> data_wait_us = {5};
  // How many steps the host may run ahead of the device: 0 synchronises at each step's
  // end; k > 0 blocks the first launch of step i until step i-k's device work is done;
  // a large number leaves the queue unbounded.
  int max_steps_ahead = 1;
  int64_t start_us = 1000;  // first step's start on the trace's clock
};

// Truth per step, in picoseconds from the trace's first event (the first step's start),
// as the importer places them.
struct AsyncLoopStepTruth {
  int64_t step_number = 0;
  int64_t host_begin_ps = 0;
  int64_t host_end_ps = 0;        // the next step's start (the last: its own host end)
  int64_t device_end_ps = 0;      // end of the last kernel the step launched
  int64_t device_busy_ps = 0;     // union of the step's kernels
  int64_t device_lag_ps = 0;      // max(0, device_end - host_end)
  int64_t window_begin_ps = 0;    // the step as the analysis must report it
  int64_t window_end_ps = 0;
  int64_t input_ps = 0;           // DataLoader wait in the window while the device ran nothing
  int64_t device_busy_in_window_ps = 0;  // any step's kernels, union, inside the window
};

struct AsyncLoopTruth {
  std::vector<AsyncLoopStepTruth> steps;
  bool device_bound = false;  // the device's cadence is the slower one
  int64_t host_interval_ps = 0;    // mean step end to next step end
  int64_t device_interval_ps = 0;  // mean device end to next device end
  int64_t total_step_ps() const;
  int64_t total_input_ps() const;
  double input_percent() const;
};

struct AsyncLoop {
  AsyncLoopConfig config;
  std::string json;  // the Kineto trace
  AsyncLoopTruth truth;
};

// Simulates the loop and writes its trace.
AsyncLoop SimulateAsyncLoop(const AsyncLoopConfig& config);

// The variants the tests hold to the truth: synchronous, one step ahead, k ahead and
// throttled, an unbounded queue on a slow device (the device falls behind every step),
// DataLoader-bound with one wait overlapping device work and one not, launch-bound, two
// streams.
std::vector<AsyncLoopConfig> AsyncLoopVariants();

}  // namespace stepscope::importers::testing
