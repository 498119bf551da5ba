#include "src/analysis/model/step_markers.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>
#include <tuple>

#include "src/analysis/model/event_stats.h"
#include "src/analysis/model/step_marker_rules.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis {
namespace {

using xspace::ColumnarPlane;

StepMarker MakeMarker(StepMarkerKind kind, const ColumnarPlane& plane, uint32_t event, int plane_index,
                      const xspace::ColumnarLine& line) {
  StepMarker marker;
  marker.kind = kind;
  marker.begin_ps = plane.event_start_ps[event];
  marker.end_ps = plane.event_end_ps(event);
  marker.plane_index = plane_index;
  marker.plane_id = plane.id;
  marker.plane_name = plane.name;
  marker.line_id = line.id;
  marker.line_name = line.name;
  return marker;
}

// Drops roots nested inside an earlier root of the same level on the same line: TensorFlow
// gives a new group only to roots without a same-level ancestor.
void AppendOutermostRoots(std::vector<StepMarker> roots, std::vector<StepMarker>* out) {
  std::stable_sort(roots.begin(), roots.end(), [](const StepMarker& a, const StepMarker& b) {
    return std::tie(a.begin_ps, b.end_ps) < std::tie(b.begin_ps, a.end_ps);
  });
  std::map<int64_t, const StepMarker*> open_by_level;
  for (const StepMarker& root : roots) {
    const StepMarker*& open = open_by_level[root.root_level];
    if (open != nullptr && root.begin_ps >= open->begin_ps && root.end_ps <= open->end_ps) continue;
    out->push_back(root);
    open = &root;
  }
}

int KindRank(StepMarkerKind kind) {
  switch (kind) {
    case StepMarkerKind::kHostRoot: return 0;
    case StepMarkerKind::kTraceContext: return 1;
    case StepMarkerKind::kDeviceStep: return 2;
  }
  return 3;
}

}  // namespace

const char* StepMarkerKindName(StepMarkerKind kind) {
  switch (kind) {
    case StepMarkerKind::kHostRoot: return "host root";
    case StepMarkerKind::kTraceContext: return "TraceContext";
    case StepMarkerKind::kDeviceStep: return "device Steps";
  }
  return "unknown";
}

std::vector<StepMarker> FindStepMarkers(const xspace::ColumnarXSpace& space) {
  std::vector<StepMarker> markers;
  EventStats stats;
  for (size_t p = 0; p < space.planes.size(); ++p) {
    const ColumnarPlane& plane = space.planes[p];
    PlaneStatReader reader(plane);
    std::vector<bool> aggregated(plane.num_events());
    for (const auto& [event, count] : plane.aggregated_events) aggregated[event] = true;
    std::vector<bool> trace_context(plane.event_metadata.size());
    for (size_t m = 0; m < plane.event_metadata.size(); ++m) {
      trace_context[m] = plane.event_metadata[m].name == xspace::kTraceContextEventName;
    }
    const bool may_have_roots = plane.stat_index(xspace::StatType::kIsRoot) != ColumnarPlane::kNoStat ||
                                std::find(trace_context.begin(), trace_context.end(), true) != trace_context.end();
    for (const xspace::ColumnarLine& line : plane.lines) {
      if (IsDeviceStepLine(plane.name, line.name)) {
        for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
          if (aggregated[e]) continue;
          reader.Read(e, &stats);
          StepMarker marker = MakeMarker(StepMarkerKind::kDeviceStep, plane, e, static_cast<int>(p), line);
          marker.name = std::string(stats.step_name.empty() ? plane.event_name(e) : stats.step_name);
          marker.step_num = DeviceStepNumber(marker.name, stats);
          markers.push_back(std::move(marker));
        }
        continue;
      }
      if (!may_have_roots) continue;
      std::vector<StepMarker> roots;
      for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
        if (aggregated[e]) continue;
        const bool is_trace_context = trace_context[plane.event_metadata_index[e]];
        if (reader.HasNoStats(e) && !is_trace_context) continue;
        reader.Read(e, &stats);
        int64_t level = RootLevel(stats, is_trace_context);
        if (level == 0) continue;
        StepMarkerKind kind = stats.has_root ? StepMarkerKind::kHostRoot : StepMarkerKind::kTraceContext;
        StepMarker marker = MakeMarker(kind, plane, e, static_cast<int>(p), line);
        marker.name = std::string(plane.event_name(e));
        marker.root_level = level;
        marker.step_num = HostStepNumber(stats);
        if (!marker.step_num && stats.has_group_id) marker.step_num = stats.group_id;
        roots.push_back(std::move(marker));
      }
      AppendOutermostRoots(std::move(roots), &markers);
    }
  }
  return markers;
}

std::vector<StepMarker> FindStepMarkers(const xspace::XSpace& space) {
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::ConvertXSpaceToColumnar(space);
  if (!columnar.ok()) return {};
  return FindStepMarkers(*columnar);
}

std::vector<StepSeries> GroupStepMarkers(const std::vector<StepMarker>& markers) {
  // (plane, kind, name, level) -> series
  std::map<std::tuple<int, int, std::string, int64_t>, StepSeries> by_key;
  for (const StepMarker& marker : markers) {
    const bool device = marker.kind == StepMarkerKind::kDeviceStep;
    std::string name = device ? marker.line_name : marker.name;
    auto key = std::make_tuple(marker.plane_index, KindRank(marker.kind), name, marker.root_level);
    StepSeries& series = by_key[key];
    if (series.markers.empty()) {
      series.kind = marker.kind;
      series.plane_name = marker.plane_name;
      series.name = name;
      series.root_level = marker.root_level;
    }
    series.markers.push_back(marker);
  }
  std::vector<std::pair<int, StepSeries>> ordered;  // (plane index, series)
  for (auto& [key, series] : by_key) {
    std::stable_sort(series.markers.begin(), series.markers.end(),
                     [](const StepMarker& a, const StepMarker& b) { return a.begin_ps < b.begin_ps; });
    ordered.emplace_back(std::get<0>(key), std::move(series));
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    const StepSeries& x = a.second;
    const StepSeries& y = b.second;
    if (KindRank(x.kind) != KindRank(y.kind)) return KindRank(x.kind) < KindRank(y.kind);
    if (x.root_level != y.root_level) return x.root_level > y.root_level;
    if (a.first != b.first) return a.first < b.first;
    return x.markers.size() > y.markers.size();
  });
  std::vector<StepSeries> result;
  result.reserve(ordered.size());
  for (auto& [plane_index, series] : ordered) result.push_back(std::move(series));
  return result;
}

StepTimeStats ComputeStepTimeStats(const std::vector<StepMarker>& markers) {
  StepTimeStats stats;
  if (markers.empty()) return stats;
  stats.count = static_cast<int64_t>(markers.size());
  stats.min_ps = markers.front().duration_ps();
  stats.max_ps = stats.min_ps;
  double total_ps = 0;
  for (const StepMarker& marker : markers) {
    int64_t duration_ps = marker.duration_ps();
    total_ps += static_cast<double>(duration_ps);
    stats.min_ps = std::min(stats.min_ps, duration_ps);
    stats.max_ps = std::max(stats.max_ps, duration_ps);
  }
  stats.mean_ps = total_ps / static_cast<double>(stats.count);
  return stats;
}

}  // namespace stepscope::analysis
