// Search by name over the whole trace (not only what is on screen), in time order, so
// the viewer can step to the next or previous match wherever it is.
//
// A query is a case-insensitive substring of the event's name or display name. Names are
// compared once per distinct name (event metadata), then one pass over each track's
// metadata column collects the matching events: ~100 M events per second, no per-event
// string work.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

// Matches kept for stepping through, in time order (16 MB): past this the earliest are
// kept and `total` still counts every match.
inline constexpr size_t kMaxSearchMatches = 1'000'000;
// Longer queries are refused: no event name worth typing is longer.
inline constexpr size_t kMaxSearchQueryBytes = 256;

struct SearchMatch {
  int64_t start_ps = 0;  // trace time
  uint32_t track = 0;
  uint32_t event = 0;
  bool operator<(const SearchMatch& other) const {
    if (start_ps != other.start_ps) return start_ps < other.start_ps;
    if (track != other.track) return track < other.track;
    return event < other.event;
  }
};

struct SearchResult {
  std::string query;
  uint64_t total = 0;                // matching events in the trace
  std::vector<SearchMatch> matches;  // time order; the earliest kMaxSearchMatches
  bool truncated() const { return total > matches.size(); }
  size_t MemoryBytes() const { return sizeof(*this) + query.size() + matches.capacity() * sizeof(SearchMatch); }
};

// kInvalidArgument for an empty or overlong query.
StatusOr<SearchResult> SearchEvents(const TraceIndex& index, std::string_view query);

// The match to go to from `cursor` (a match or any point in time): the first one after
// it (next) or the last one before it (previous); wraps around the ends. -1 when there
// are no matches.
int64_t StepSearch(const SearchResult& result, const SearchMatch& cursor, bool next);

}  // namespace stepscope::analysis::trace
