#include "src/importers/assembler/line_nesting.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/base/sort_runs.h"

namespace stepscope::importers {
namespace {

// Totals of trimmed time can exceed int64 on hostile input; they saturate.
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

// The stack of open events (indices into the line, outermost first), with running sums
// of their ends and step markers: the cost of trimming the top k of them and whether one
// is a step marker are O(1), and the first one ending before a time a binary search (the
// ends do not grow towards the top). A line whose every event partially overlaps all the
// open ones (each starts just after the last and outlasts them all) then costs O(n log n),
// not O(n^2).
class OpenEvents {
 public:
  explicit OpenEvents(const PendingEvents& events) : events_(events) {}
  bool empty() const { return stack_.empty(); }
  size_t size() const { return stack_.size(); }
  int32_t top() const { return stack_.back(); }
  int32_t operator[](size_t i) const { return stack_[i]; }
  void Push(int32_t index) {
    const PendingEvent& event = events_[index];
    stack_.push_back(index);
    end_sums_.push_back(end_sums_.back() + event.end_ps());
    markers_.push_back(markers_.back() + ((event.flags & kEventStepMarker) != 0 ? 1 : 0));
  }
  void Pop() { Truncate(stack_.size() - 1); }
  void Truncate(size_t size) {
    stack_.resize(size);
    end_sums_.resize(size + 1);
    markers_.resize(size + 1);
  }
  // The first position whose event ends before `end` (size() when none does).
  size_t FirstEndingBefore(int64_t end) const {
    auto it = std::partition_point(stack_.begin(), stack_.end(),
                                   [&](int32_t index) { return events_[index].end_ps() >= end; });
    return static_cast<size_t>(it - stack_.begin());
  }
  // Sum over positions [from, size) of (end - start), saturating at INT64_MAX.
  int64_t TimeAfter(size_t from, int64_t start) const {
    const __int128 sum = end_sums_.back() - end_sums_[from] - static_cast<__int128>(start) * (stack_.size() - from);
    return sum > INT64_MAX ? INT64_MAX : static_cast<int64_t>(sum);
  }
  bool HasStepMarker(size_t from) const { return markers_.back() > markers_[from]; }

 private:
  const PendingEvents& events_;
  std::vector<int32_t> stack_;
  std::vector<__int128> end_sums_{0};  // end_sums_[i]: the ends of stack_[0, i) summed
  std::vector<uint32_t> markers_{0};   // markers_[i]: step markers in stack_[0, i)
};

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
  OpenEvents open(kept);  // the open events, outermost first
  size_t out = 0;         // events are compacted in place when some move to overflow
  for (size_t in = 0; in < kept.size(); ++in) {
    PendingEvent event = kept[in];
    int64_t start = event.timestamp_ps;
    while (!open.empty() && kept[open.top()].end_ps() <= start) open.Pop();
    if (open.empty() || event.end_ps() <= kept[open.top()].end_ps()) {
      parents[out] = open.empty() ? -1 : open.top();
      kept[out] = event;
      open.Push(static_cast<int32_t>(out++));
      continue;
    }
    // Partial overlap. Open events end no later than their parents, so the ones that end
    // before `event` does form the top of the stack: [first_conflict, size).
    const size_t first_conflict = open.FirstEndingBefore(event.end_ps());
    int64_t cost_trim_event = event.end_ps() - kept[open.top()].end_ps();
    int64_t cost_trim_enclosing = open.TimeAfter(first_conflict, start);
    bool enclosing_protected = open.HasStepMarker(first_conflict);
    bool event_protected = (event.flags & kEventStepMarker) != 0;
    if (!allow_overflow) event_protected = enclosing_protected = false;
    if (event_protected && enclosing_protected) {
      result->overflow.push_back(event);
      continue;
    }
    bool trim_event = enclosing_protected || (!event_protected && cost_trim_event <= cost_trim_enclosing);
    if (trim_event) {
      event.duration_ps = kept[open.top()].end_ps() - start;
      result->trimmed_ps = SaturatingAdd(result->trimmed_ps, cost_trim_event);
      ++result->trimmed_event;
    } else {
      for (size_t i = first_conflict; i < open.size(); ++i) {
        PendingEvent& enclosing = kept[open[i]];
        enclosing.duration_ps = start - enclosing.timestamp_ps;
      }
      open.Truncate(first_conflict);
      result->trimmed_ps = SaturatingAdd(result->trimmed_ps, cost_trim_enclosing);
      ++result->trimmed_enclosing;
    }
    parents[out] = open.empty() ? -1 : open.top();
    kept[out] = event;
    open.Push(static_cast<int32_t>(out++));
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
