// A synthetic multi-GPU training profile of any size (100 M events by default), written
// straight in the XSpace wire format and streamed to disk.
//
// At that size the file is several GB, past protobuf's 2 GiB message limit, and building
// messages would need tens of GB; so the generator is deterministic and runs twice: a
// counting pass gives every line's and plane's byte length (the length prefixes protobuf
// needs up front), then a writing pass emits the same bytes through a 1 MiB buffer.
//
// Shape, per 50 ms step (like TensorFlow's GPU profiles after grouping):
//   - 8 device planes /device:GPU:N with the derived lines Steps, XLA Modules,
//     TensorFlow Ops, XLA Ops and five streams (two compute, H2D, D2H, NCCL); kernels
//     carry correlation_id (uint64), kernel_details (ref) and group_id;
//   - /host:CPU with a main thread (train step markers with step_num/_r, forward and
//     backward scopes, IteratorGetNext, MemoryAllocation instants), one launch thread per
//     GPU (ops, each launching three kernels: cudaLaunchKernel with correlation_id) and
//     four tf.data threads with nested Iterator:: events;
//   - a Task Environment plane with profile_start_time / profile_stop_time.
// Kernel durations: 80 % 1-15 us, 18 % 15-40 us, 2 % 40-300 us, so every zoom level has
// both sub-pixel runs and wide events.
#pragma once

#include <cstdint>
#include <string>

#include "stepscope/status.h"

namespace stepscope::bench {

struct SyntheticTraceInfo {
  uint64_t events = 0;
  uint64_t file_bytes = 0;
  int64_t steps = 0;
  int64_t duration_ps = 0;
};

// Events per step of the shape above (the generator writes whole steps).
uint64_t SyntheticEventsPerStep();

// Writes about `target_events` events (whole steps, at least one) to `path`.
StatusOr<SyntheticTraceInfo> WriteSyntheticTrace(const std::string& path, uint64_t target_events);

}  // namespace stepscope::bench
