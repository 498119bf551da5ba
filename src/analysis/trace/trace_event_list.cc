#include "src/analysis/trace/trace_event_list.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>

#include "src/analysis/trace/trace_search.h"

namespace stepscope::analysis::trace {
namespace {

bool Earlier(const ListedEvent& a, const ListedEvent& b) {
  return std::tie(a.start_ps, a.track, a.event) < std::tie(b.start_ps, b.track, b.event);
}

// Where events must start before to be in the range: its end, or just past an empty
// range's one instant (so the events at or across it count).
int64_t StartLimit(const EventListRequest& request) {
  const bool empty = request.end_ps == request.start_ps && request.end_ps < std::numeric_limits<int64_t>::max();
  return empty ? request.end_ps + 1 : request.end_ps;
}

// Whether an event starting at `start` lasting `duration` overlaps the range (as
// RowView::FirstOverlapping: it ends after start_ps or starts at or after it).
bool InRange(const EventListRequest& request, int64_t start, int64_t duration) {
  return start < StartLimit(request) && (start >= request.start_ps || start + duration > request.start_ps);
}

// The `limit` earliest events, kept in a max-heap so a row stops being read as soon as its
// next event starts after the latest one kept.
class EarliestEvents {
 public:
  explicit EarliestEvents(size_t limit) : limit_(limit) {}

  bool full() const { return heap_.size() >= limit_; }
  int64_t latest_start() const { return heap_.top().start_ps; }
  void Offer(const ListedEvent& event) {
    if (full() && !Earlier(event, heap_.top())) return;
    heap_.push(event);
    if (heap_.size() > limit_) heap_.pop();
  }
  std::vector<ListedEvent> Sorted() {
    std::vector<ListedEvent> events;
    events.reserve(heap_.size());
    for (; !heap_.empty(); heap_.pop()) events.push_back(heap_.top());
    std::reverse(events.begin(), events.end());
    return events;
  }

 private:
  struct Later {
    bool operator()(const ListedEvent& a, const ListedEvent& b) const { return Earlier(a, b); }
  };
  size_t limit_;
  std::priority_queue<ListedEvent, std::vector<ListedEvent>, Later> heap_;
};

// Every event of the range: each row's overlapping events are a contiguous run in time
// order, counted by binary search and read only while they can still be among the earliest.
EventList ListRange(const TraceIndex& index, const EventListRequest& request) {
  EventList list;
  EarliestEvents earliest(request.limit);
  for (uint32_t r = 0; r < index.rows().size(); ++r) {
    const TraceRow& row = index.rows()[r];
    const RowView view = index.row_view(r);
    const uint64_t first = view.FirstOverlapping(request.start_ps);
    const uint64_t end = view.FirstStartingAtOrAfter(StartLimit(request), first);
    list.total += end > first ? end - first : 0;
    for (uint64_t i = first; i < end; ++i) {
      if (earliest.full() && view.start(i) > earliest.latest_start()) break;
      earliest.Offer({view.start(i), view.duration(i), row.track, view.event(i), row.depth});
    }
  }
  list.events = earliest.Sorted();
  return list;
}

// The query's matches (SearchEvents, in time order) that overlap the range.
StatusOr<EventList> ListMatches(const TraceIndex& index, const EventListRequest& request) {
  StatusOr<SearchResult> found = SearchEvents(index, request.query);
  if (!found.ok()) return found.status();
  EventList list;
  list.search_truncated = found->truncated();
  for (const SearchMatch& match : found->matches) {
    const std::optional<EventLocation> location = index.Locate(match.track, match.event);
    if (!location) continue;
    const RowView view = index.row_view(location->row);
    const int64_t duration = view.duration(location->position);
    if (!InRange(request, match.start_ps, duration)) continue;
    ++list.total;
    if (list.events.size() < request.limit) {
      list.events.push_back(
          {match.start_ps, duration, match.track, match.event, index.rows()[location->row].depth});
    }
  }
  return list;
}

}  // namespace

StatusOr<EventList> ListEvents(const TraceIndex& index, const EventListRequest& request) {
  if (request.end_ps < request.start_ps) {
    return InvalidArgumentError("the range ends (" + std::to_string(request.end_ps) + " ps) before it starts (" +
                                std::to_string(request.start_ps) + " ps)");
  }
  if (request.limit < 1 || request.limit > kMaxListedEvents) {
    return InvalidArgumentError("limit must be between 1 and " + std::to_string(kMaxListedEvents) + ", got " +
                                std::to_string(request.limit));
  }
  return request.query.empty() ? ListRange(index, request) : ListMatches(index, request);
}

}  // namespace stepscope::analysis::trace
