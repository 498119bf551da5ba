#include "src/analysis/model/launch_threads.h"

#include <algorithm>
#include <utility>
#include <vector>


namespace stepscope::analysis {
namespace {

using Span = std::pair<int64_t, int64_t>;

double PsToMs(int64_t ps) { return static_cast<double>(ps) / 1e9; }

// Top-level events of a thread, as spans.
void AddRootSpans(const xspace::ColumnarXSpace& space, const HostThread& thread, std::vector<Span>* spans) {
  const xspace::ColumnarPlane& plane = space.planes[thread.plane_index];
  for (size_t i = 0; i < thread.size(); ++i) {
    if (thread.parent[i] >= 0) continue;
    const uint32_t e = thread.event(i);
    spans->emplace_back(plane.event_start_ps[e], plane.event_end_ps(e));
  }
}

// Sorted, disjoint union of spans.
std::vector<Span> Union(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<Span> out;
  for (const Span& s : spans) {
    if (s.second <= s.first) continue;
    if (!out.empty() && s.first <= out.back().second) {
      out.back().second = std::max(out.back().second, s.second);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

int64_t Length(const std::vector<Span>& spans) {
  int64_t total = 0;
  for (const Span& s : spans) total += s.second - s.first;
  return total;
}

// Length of the intersection of two sorted disjoint unions.
int64_t Overlap(const std::vector<Span>& a, const std::vector<Span>& b) {
  int64_t total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t begin = std::max(a[i].first, b[j].first), end = std::min(a[i].second, b[j].second);
    if (end > begin) total += end - begin;
    (a[i].second < b[j].second) ? ++i : ++j;
  }
  return total;
}

}  // namespace

LaunchThreadCompetition ComputeLaunchThreadCompetition(const std::vector<HostThread>& threads,
                                                        const xspace::ColumnarXSpace& space) {
  LaunchThreadCompetition c;
  if (threads.empty()) return c;
  c.measured = true;
  std::vector<Span> launch, input;
  for (const HostThread& thread : threads) {
    const bool is_input = thread.name.starts_with("tf_data");
    if (thread.name.starts_with("tf_gpu_private")) ++c.gpu_private_threads;
    if (thread.launch_events > 0) {
      ++c.launch_threads;
      c.launches += thread.launch_events;
      AddRootSpans(space, thread, &launch);
    }
    if (is_input) {
      ++c.input_threads;
      AddRootSpans(space, thread, &input);
    }
  }
  const std::vector<Span> launch_union = Union(std::move(launch)), input_union = Union(std::move(input));
  c.launch_busy_ms = PsToMs(Length(launch_union));
  c.input_busy_ms = PsToMs(Length(input_union));
  c.overlap_ms = PsToMs(Overlap(launch_union, input_union));
  c.overlap_percent = c.launch_busy_ms > 0 ? 100.0 * c.overlap_ms / c.launch_busy_ms : 0.0;
  return c;
}

void AddLaunchThreads(const LaunchThreadCompetition& host, LaunchThreadCompetition* combined) {
  if (!host.measured) return;
  combined->measured = true;
  combined->launch_threads += host.launch_threads;
  combined->launches += host.launches;
  combined->input_threads += host.input_threads;
  combined->gpu_private_threads += host.gpu_private_threads;
  combined->launch_busy_ms += host.launch_busy_ms;
  combined->input_busy_ms += host.input_busy_ms;
  combined->overlap_ms += host.overlap_ms;
  combined->overlap_percent =
      combined->launch_busy_ms > 0 ? 100.0 * combined->overlap_ms / combined->launch_busy_ms : 0.0;
}

}  // namespace stepscope::analysis
