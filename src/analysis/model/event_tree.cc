#include "src/analysis/model/event_tree.h"

#include <algorithm>

#include "src/analysis/model/sat_math.h"

namespace stepscope::analysis {

HostThread BuildHostThread(const xspace::ColumnarPlane& plane, uint32_t plane_index, uint32_t line_index) {
  const xspace::ColumnarLine& line = plane.lines[line_index];
  HostThread thread;
  thread.thread_id = line.id;
  thread.name = line.name;
  thread.plane_index = plane_index;
  thread.line_index = line_index;

  const int64_t* start = plane.event_start_ps.data();
  thread.first_event = line.event_begin;
  auto before = [&](uint32_t a, uint32_t b) {
    if (start[a] != start[b]) return start[a] < start[b];
    int64_t da = plane.duration_ps(a), db = plane.duration_ps(b);
    if (da != db) return da > db;
    return a < b;
  };
  // In time order already (what TF and stepscope write)? Then no index is stored.
  bool in_order = plane.aggregated_events.empty();
  for (uint32_t e = line.event_begin; in_order && e + 1 < line.event_end; ++e) in_order = before(e, e + 1);
  if (!in_order) {
    std::vector<uint32_t>& order = thread.event_index;
    std::vector<bool> aggregated(line.num_events());
    for (const auto& [event, count] : plane.aggregated_events) {
      if (event >= line.event_begin && event < line.event_end) aggregated[event - line.event_begin] = true;
    }
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
      if (!aggregated[e - line.event_begin]) order.push_back(e);
    }
    std::sort(order.begin(), order.end(), before);
  }

  const size_t n = in_order ? line.num_events() : thread.event_index.size();
  thread.parent.assign(n, -1);
  thread.depth.assign(n, 0);
  std::vector<uint32_t> stack;  // time-order indices of the open ancestors
  int64_t busy_end = INT64_MIN, last_end = INT64_MIN;
  for (size_t i = 0; i < n; ++i) {
    uint32_t e = thread.event(i);
    int64_t begin = start[e], end = plane.event_end_ps(e);
    last_end = std::max(last_end, end);
    while (!stack.empty()) {
      uint32_t top = thread.event(stack.back());
      const int64_t top_end = plane.event_end_ps(top);
      if (top_end > begin) break;
      // A zero-length event exactly at the end of a longer one is its child: files in
      // whole microseconds truncate an op's last instant onto its parent's end.
      if (top_end == begin && end == begin && plane.duration_ps(top) > 0) break;
      stack.pop_back();
    }
    if (stack.empty()) {
      // A root: extend the busy union (roots are ordered by begin).
      if (end > busy_end) {
        AddTo(thread.busy_ps, end - std::max(begin, busy_end));
        busy_end = end;
      }
    } else {
      thread.parent[i] = static_cast<int32_t>(stack.back());
      thread.depth[i] = static_cast<uint8_t>(std::min<size_t>(stack.size(), 255));
    }
    stack.push_back(static_cast<uint32_t>(i));
  }
  if (n > 0) {
    thread.first_begin_ps = start[thread.event(0)];
    thread.last_end_ps = last_end;
  }
  return thread;
}

std::vector<int64_t> ComputeSelfTimes(const xspace::ColumnarPlane& plane, const HostThread& thread) {
  const size_t n = thread.size();
  std::vector<int64_t> self(n);
  for (size_t i = 0; i < n; ++i) self[i] = plane.duration_ps(thread.event(i));
  for (size_t i = 0; i < n; ++i) {
    int32_t parent = thread.parent[i];
    if (parent < 0) continue;
    uint32_t e = thread.event(i), p = thread.event(parent);
    int64_t inside = std::min(plane.event_end_ps(e), plane.event_end_ps(p)) - plane.event_start_ps[e];
    if (inside > 0) self[parent] -= inside;
  }
  for (int64_t& s : self) s = std::max<int64_t>(s, 0);
  return self;
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
