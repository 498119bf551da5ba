#include "src/importers/assembler/line_nesting.h"

#include <algorithm>
#include <cstdint>

#include "src/base/sort_runs.h"

namespace stepscope::importers {
namespace {

// Totals of trimmed time can exceed int64 on hostile input; they saturate.
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

}  // namespace

void NestLineEvents(PendingEvents* events, bool allow_overflow, NestingResult* result) {
  auto before = [](const PendingEvent& a, const PendingEvent& b) {
    if (a.timestamp_ps != b.timestamp_ps) return a.timestamp_ps < b.timestamp_ps;
    if (a.duration_ps != b.duration_ps) return a.duration_ps > b.duration_ps;
    return a.seq < b.seq;
  };
  // Lines arrive almost in order (one writer thread, one stream): merging the few sorted
  // runs is much cheaper than a sort. `before` is a total order, so stability is moot.
  base::SortRuns(events->begin(), events->end(), before);
  PendingEvents& kept = *events;
  RecordVector<int32_t>& parents = result->parents;
  parents.assign(kept.size(), -1);
  std::vector<int32_t> stack;  // indices into `kept` of the open events, outermost first
  size_t out = 0;              // events are compacted in place when some move to overflow
  for (size_t in = 0; in < kept.size(); ++in) {
    PendingEvent event = kept[in];
    int64_t start = event.timestamp_ps;
    while (!stack.empty() && kept[stack.back()].end_ps() <= start) stack.pop_back();
    if (stack.empty() || event.end_ps() <= kept[stack.back()].end_ps()) {
      parents[out] = stack.empty() ? -1 : stack.back();
      kept[out] = event;
      stack.push_back(static_cast<int32_t>(out++));
      continue;
    }
    // Partial overlap. Open events end no later than their parents, so the ones that end
    // before `event` does form the top of the stack: stack[first_conflict..].
    size_t first_conflict = stack.size();
    while (first_conflict > 0 && kept[stack[first_conflict - 1]].end_ps() < event.end_ps()) --first_conflict;
    int64_t cost_trim_event = event.end_ps() - kept[stack.back()].end_ps();
    int64_t cost_trim_enclosing = 0;  // saturating: many huge events could overflow
    bool enclosing_protected = false;
    for (size_t i = first_conflict; i < stack.size(); ++i) {
      const PendingEvent& open = kept[stack[i]];
      cost_trim_enclosing = SaturatingAdd(cost_trim_enclosing, open.end_ps() - start);
      enclosing_protected = enclosing_protected || (open.flags & kEventStepMarker) != 0;
    }
    bool event_protected = (event.flags & kEventStepMarker) != 0;
    if (!allow_overflow) event_protected = enclosing_protected = false;
    if (event_protected && enclosing_protected) {
      result->overflow.push_back(event);
      continue;
    }
    bool trim_event = enclosing_protected || (!event_protected && cost_trim_event <= cost_trim_enclosing);
    if (trim_event) {
      event.duration_ps = kept[stack.back()].end_ps() - start;
      result->trimmed_ps = SaturatingAdd(result->trimmed_ps, cost_trim_event);
      ++result->trimmed_event;
    } else {
      for (size_t i = first_conflict; i < stack.size(); ++i) {
        PendingEvent& open = kept[stack[i]];
        open.duration_ps = start - open.timestamp_ps;
      }
      stack.resize(first_conflict);
      result->trimmed_ps = SaturatingAdd(result->trimmed_ps, cost_trim_enclosing);
      ++result->trimmed_enclosing;
    }
    parents[out] = stack.empty() ? -1 : stack.back();
    kept[out] = event;
    stack.push_back(static_cast<int32_t>(out++));
  }
  kept.resize(out);
  parents.resize(out);
}

int32_t FindEnclosingEvent(const PendingEvents& events, const RecordVector<int32_t>& parents,
                           int64_t timestamp_ps) {
  // The last event starting at or before the time is the innermost enclosing event or
  // one of its descendants; walk up to the first one that still contains the time.
  auto it = std::upper_bound(events.begin(), events.end(), timestamp_ps,
                             [](int64_t t, const PendingEvent& e) { return t < e.timestamp_ps; });
  int32_t index = static_cast<int32_t>(it - events.begin()) - 1;
  while (index >= 0 && events[index].end_ps() < timestamp_ps) index = parents[index];
  return index;
}

int32_t FindNextEvent(const PendingEvents& events, int64_t timestamp_ps) {
  auto it = std::lower_bound(events.begin(), events.end(), timestamp_ps,
                             [](const PendingEvent& e, int64_t t) { return e.timestamp_ps < t; });
  return it == events.end() ? -1 : static_cast<int32_t>(it - events.begin());
}

std::vector<int32_t> BindFlowPoints(const PendingEvents& events, const RecordVector<int32_t>& parents,
                                    bool nested, const PendingFlowPoints& points) {
  std::vector<int32_t> targets(points.size(), -1);
  std::vector<uint32_t> order(points.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto earlier = [&points](uint32_t a, uint32_t b) { return points[a].timestamp_ps < points[b].timestamp_ps; };
  base::SortRuns(order.begin(), order.end(), earlier);
  const size_t n = events.size();
  size_t after = 0;        // the first event starting after the point's time
  size_t at_or_after = 0;  // the first event starting at or after it
  for (uint32_t i : order) {
    const PendingFlowPoint& point = points[i];
    const int64_t t = point.timestamp_ps;
    while (after < n && events[after].timestamp_ps <= t) ++after;
    while (at_or_after < n && events[at_or_after].timestamp_ps < t) ++at_or_after;
    if (nested && point.binding == FlowBinding::kEnclosing) {
      int32_t index = static_cast<int32_t>(after) - 1;
      while (index >= 0 && events[index].end_ps() < t) index = parents[index];
      targets[i] = index;
    } else {
      targets[i] = at_or_after == n ? -1 : static_cast<int32_t>(at_or_after);
    }
  }
  return targets;
}

}  // namespace stepscope::importers
