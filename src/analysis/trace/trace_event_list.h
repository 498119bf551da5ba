// The events of a time range, optionally only those whose name matches a search query:
// what a program (the MCP server's search_trace_events) asks of a trace when it wants
// the events themselves, not tiles to draw or per-name totals.
//
// An event is in the range when it overlaps [start_ps, end_ps) (an instant at start_ps
// counts), as in trace_summary.h. A query matches as SearchEvents' (case-insensitive
// substring of the name or display name), through SearchEvents itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

// The most events one request may ask for: each listed event costs its name and stats in
// the answer, and ten thousand is already more than a reader can use.
inline constexpr size_t kMaxListedEvents = 10'000;

struct EventListRequest {
  std::string query;  // empty: every event of the range
  int64_t start_ps = 0;
  int64_t end_ps = std::numeric_limits<int64_t>::max();
  size_t limit = 100;  // 1..kMaxListedEvents
};

struct ListedEvent {
  int64_t start_ps = 0;  // trace time
  int64_t duration_ps = 0;
  uint32_t track = 0;
  uint32_t event = 0;
  uint32_t depth = 0;
};

struct EventList {
  // Events in the range (and matching the query); with a query, counted among the
  // SearchEvents matches kept (kMaxSearchMatches), so a lower bound when search_truncated.
  uint64_t total = 0;
  bool search_truncated = false;
  std::vector<ListedEvent> events;  // the earliest `limit`, by start, then track, then event
  bool truncated() const { return total > events.size(); }
};

// kInvalidArgument for end_ps < start_ps, a limit outside 1..kMaxListedEvents or a query
// SearchEvents refuses.
StatusOr<EventList> ListEvents(const TraceIndex& index, const EventListRequest& request);

}  // namespace stepscope::analysis::trace
