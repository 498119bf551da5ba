// Flow arrows for a selected event: which events it is causally linked to.
//
// Two links are known in XSpace:
//   - correlation_id (CUPTI): a kernel launch on a host thread and the kernel (or copy)
//     it started on a device stream share the id. The kernel starts after its launch,
//     usually within milliseconds.
//   - `flow` stats (XFlow): events that share a flow id, the direction bits saying which
//     side produces (out) and which consumes (in).
// Nothing is indexed for this ahead of time (a map over every correlated event would cost
// more memory than the rest of the index); instead the counterpart is searched in time
// windows growing tenfold from 1 ms around the event, only on the tracks that can hold
// it (a host event's kernels on device tracks of the same host and vice versa), which
// finds real launch/kernel pairs after a few thousand events at most.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

struct FlowEnd {
  uint32_t track = 0;
  uint32_t event = 0;
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  uint32_t depth = 0;
  std::string name;
};

struct TraceFlow {
  enum class Kind : uint8_t { kCorrelation, kFlow };
  Kind kind = Kind::kCorrelation;
  uint64_t id = 0;
  FlowEnd from;  // the launch / producer
  FlowEnd to;    // the kernel / consumer
};

// Widest window searched (the whole trace at most): a launch whose kernel ran more than
// 100 s later is not a launch we can pair.
inline constexpr int64_t kMaxFlowWindowPs = int64_t{100} * 1'000'000'000'000;

// The flows `event` of `track` takes part in. kNotFound for an unknown event; an event
// without correlation or flow stats has none (empty list).
StatusOr<std::vector<TraceFlow>> FindFlows(const TraceIndex& index, uint32_t track, uint32_t event);

}  // namespace stepscope::analysis::trace
