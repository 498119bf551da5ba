#include "src/analysis/trace/trace_summary.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "src/analysis/output/json_writer.h"

namespace stepscope::analysis::trace {
namespace {

struct Totals {
  uint64_t count = 0;
  int64_t total_ps = 0;
  int64_t self_ps = 0;
};

// Sum of the durations of the events in `children` that start in [begin, end), from
// position `from` (children start in time order); advances `from` past those before begin.
int64_t ChildTime(const RowView& children, int64_t begin, int64_t end, uint64_t* from) {
  uint64_t i = children.FirstStartingAtOrAfter(begin, *from);
  *from = i;
  int64_t sum = 0;
  for (; i < children.size() && children.start(i) < end; ++i) sum += children.duration(i);
  return sum;
}

void SummarizeTrack(const TraceIndex& index, uint32_t track_id, int64_t start_ps, int64_t end_ps,
                    std::unordered_map<std::string_view, Totals>* by_name, uint64_t* events) {
  const TraceTrack& track = index.tracks()[track_id];
  for (uint32_t row = track.row_begin; row < track.row_end; ++row) {
    const RowView view = index.row_view(row);
    const bool has_children = row + 1 < track.row_end;
    const RowView children = has_children ? index.row_view(row + 1) : view;
    uint64_t child_from = 0;
    for (uint64_t i = view.FirstOverlapping(start_ps); i < view.size(); ++i) {
      const int64_t begin = view.start(i);
      if (begin >= end_ps && !(begin == start_ps && view.duration(i) == 0)) break;
      const int64_t duration = view.duration(i);
      Totals& totals = (*by_name)[index.EventName(track_id, view.event(i))];
      ++totals.count;
      totals.total_ps += duration;
      totals.self_ps += duration - (has_children ? ChildTime(children, begin, begin + duration, &child_from) : 0);
      ++*events;
    }
  }
}

}  // namespace

StatusOr<TraceSummary> SummarizeRange(const TraceIndex& index, const SummaryRequest& request) {
  if (request.end_ps < request.start_ps) {
    return InvalidArgumentError("end_ps (" + std::to_string(request.end_ps) + ") is before start_ps (" +
                                std::to_string(request.start_ps) + ")");
  }
  std::vector<uint32_t> tracks = request.tracks;
  if (tracks.empty()) {
    for (uint32_t t = 0; t < index.tracks().size(); ++t) tracks.push_back(t);
  }
  for (uint32_t t : tracks) {
    if (t >= index.tracks().size()) {
      return InvalidArgumentError("no track " + std::to_string(t) + "; the trace has " +
                                  std::to_string(index.tracks().size()) + " tracks");
    }
  }
  std::sort(tracks.begin(), tracks.end());
  tracks.erase(std::unique(tracks.begin(), tracks.end()), tracks.end());

  TraceSummary summary;
  summary.start_ps = request.start_ps;
  summary.end_ps = request.end_ps;
  std::unordered_map<std::string_view, Totals> by_name;
  for (uint32_t t : tracks) SummarizeTrack(index, t, request.start_ps, request.end_ps, &by_name, &summary.events);
  summary.distinct_names = by_name.size();
  for (const auto& [name, totals] : by_name) {
    summary.names.push_back({std::string(name), totals.count, totals.total_ps, totals.self_ps});
  }
  std::sort(summary.names.begin(), summary.names.end(), [](const SummaryName& a, const SummaryName& b) {
    return a.total_ps != b.total_ps ? a.total_ps > b.total_ps : a.name < b.name;
  });
  if (summary.names.size() > kMaxSummaryNames) summary.names.resize(kMaxSummaryNames);
  return summary;
}

std::string SummaryJson(const TraceSummary& summary) {
  std::string body;
  output::JsonWriter w(&body);
  w.BeginObject();
  w.Field("start_ps", summary.start_ps);
  w.Field("end_ps", summary.end_ps);
  w.Field("events", summary.events);
  w.Field("distinct_names", summary.distinct_names);
  w.Field("truncated", summary.distinct_names > summary.names.size());
  w.Key("names");
  w.BeginArray();
  for (const SummaryName& n : summary.names) {
    w.BeginObject();
    w.Field("name", n.name);
    w.Field("count", n.count);
    w.Field("total_ps", n.total_ps);
    w.Field("self_ps", n.self_ps);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return body;
}

}  // namespace stepscope::analysis::trace
