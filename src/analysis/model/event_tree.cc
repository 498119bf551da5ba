#include "src/analysis/model/event_tree.h"

#include <algorithm>
#include <numeric>

namespace stepscope::analysis {

HostThread BuildHostThread(const xspace::ColumnarPlane& plane, uint32_t plane_index, uint32_t line_index) {
  const xspace::ColumnarLine& line = plane.lines[line_index];
  HostThread thread;
  thread.thread_id = line.id;
  thread.name = line.name;
  thread.plane_index = plane_index;
  thread.line_index = line_index;

  const int64_t* start = plane.event_start_ps.data();
  const int64_t* duration = plane.event_duration_ps.data();
  std::vector<uint32_t>& order = thread.event_index;
  order.reserve(line.num_events());
  if (plane.aggregated_events.empty()) {
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) order.push_back(e);
  } else {
    std::vector<bool> aggregated(line.num_events());
    for (const auto& [event, count] : plane.aggregated_events) {
      if (event >= line.event_begin && event < line.event_end) aggregated[event - line.event_begin] = true;
    }
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
      if (!aggregated[e - line.event_begin]) order.push_back(e);
    }
  }
  auto before = [&](uint32_t a, uint32_t b) {
    if (start[a] != start[b]) return start[a] < start[b];
    if (duration[a] != duration[b]) return duration[a] > duration[b];
    return a < b;
  };
  if (!std::is_sorted(order.begin(), order.end(), before)) std::sort(order.begin(), order.end(), before);

  const size_t n = order.size();
  thread.parent.assign(n, -1);
  thread.depth.assign(n, 0);
  thread.self_time_ps.resize(n);
  std::vector<int32_t> stack;
  int64_t busy_end = INT64_MIN;
  for (size_t i = 0; i < n; ++i) {
    uint32_t e = order[i];
    int64_t begin = start[e], end = begin + duration[e];
    thread.self_time_ps[i] = duration[e];
    while (!stack.empty()) {
      uint32_t top = order[stack.back()];
      if (start[top] + duration[top] > begin) break;
      stack.pop_back();
    }
    if (stack.empty()) {
      // A root: extend the busy union (roots are ordered by begin).
      if (end > busy_end) {
        thread.busy_ps += end - std::max(begin, busy_end);
        busy_end = end;
      }
    } else {
      int32_t parent = stack.back();
      thread.parent[i] = parent;
      thread.depth[i] = static_cast<uint8_t>(std::min<size_t>(stack.size(), 255));
      uint32_t p = order[parent];
      int64_t inside = std::min(end, start[p] + duration[p]) - begin;
      if (inside > 0) thread.self_time_ps[parent] -= inside;
    }
    stack.push_back(static_cast<int32_t>(i));
  }
  if (n > 0) {
    thread.first_begin_ps = start[order[0]];
    int64_t last = INT64_MIN;
    for (uint32_t e : order) last = std::max(last, start[e] + duration[e]);
    thread.last_end_ps = last;
  }
  return thread;
}

std::vector<uint32_t> ComputeSubtreeEnds(const HostThread& thread) {
  const size_t n = thread.size();
  std::vector<uint32_t> end(n);
  for (size_t i = n; i-- > 0;) {
    end[i] = std::max<uint32_t>(end[i], static_cast<uint32_t>(i + 1));
    int32_t parent = thread.parent[i];
    if (parent >= 0) end[parent] = std::max(end[parent], end[i]);
  }
  return end;
}

}  // namespace stepscope::analysis
