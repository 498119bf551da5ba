// The selection summary of the trace viewer: every event of a time range on some tracks,
// counted and timed by name, over the full index - not over what a zoomed-out view draws
// (tiles merge short events into hatched summaries; this counts each of them).
//
// An event is in the range when it overlaps [start_ps, end_ps) (an instant at start_ps
// counts), as Perfetto's area selection. Its total time is its whole duration; its self
// time is that minus the durations of its children (the events one row deeper on its track
// that start inside it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

// Names listed in a summary, largest total first; the counts cover every name.
inline constexpr size_t kMaxSummaryNames = 500;

struct SummaryRequest {
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  std::vector<uint32_t> tracks;  // empty: every track
};

struct SummaryName {
  std::string name;
  uint64_t count = 0;
  int64_t total_ps = 0;
  int64_t self_ps = 0;
};

struct TraceSummary {
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  uint64_t events = 0;
  uint64_t distinct_names = 0;
  std::vector<SummaryName> names;  // by total_ps descending, then name; at most kMaxSummaryNames
};

// kInvalidArgument for end_ps < start_ps or an unknown track id.
StatusOr<TraceSummary> SummarizeRange(const TraceIndex& index, const SummaryRequest& request);

std::string SummaryJson(const TraceSummary& summary);

}  // namespace stepscope::analysis::trace
