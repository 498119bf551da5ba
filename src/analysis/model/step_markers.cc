#include "src/analysis/model/step_markers.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_set>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::analysis {
namespace {

using xspace::StatType;

std::optional<int64_t> ParseInt(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<int64_t> IntStat(const xspace::XEventVisitor& event, StatType type) {
  auto stat = event.GetStat(type);
  if (!stat || !stat->IsNumeric()) return std::nullopt;
  return stat->IntValue();
}

// TensorFlow names a group "<root name> <iter_num|step_num|group_id>"; the number of a
// host root follows the same precedence.
std::optional<int64_t> HostStepNum(const xspace::XEventVisitor& event) {
  if (auto n = IntStat(event, StatType::kIterNum)) return n;
  if (auto n = IntStat(event, StatType::kStepNum)) return n;
  return IntStat(event, StatType::kGroupId);
}

// Device `Steps` events are named by group ("0", or "train 5" when the root had a
// step_num); the trailing number is the step, else the group id.
std::optional<int64_t> DeviceStepNum(const xspace::XEventVisitor& event, std::string_view step_name) {
  size_t space = step_name.rfind(' ');
  std::string_view last = space == std::string_view::npos ? step_name : step_name.substr(space + 1);
  if (auto n = ParseInt(last)) return n;
  return IntStat(event, StatType::kGroupId);
}

StepMarker MakeMarker(StepMarkerKind kind, const xspace::XEventVisitor& event, int plane_index,
                      const xspace::XPlaneVisitor& plane, const xspace::XLineVisitor& line) {
  StepMarker marker;
  marker.kind = kind;
  marker.begin_ps = event.timestamp_ps();
  marker.end_ps = event.end_timestamp_ps();
  marker.plane_index = plane_index;
  marker.plane_id = plane.id();
  marker.plane_name = std::string(plane.name());
  marker.line_id = line.id();
  marker.line_name = std::string(line.name());
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

std::vector<StepMarker> FindStepMarkers(const xspace::XSpace& space) {
  std::vector<StepMarker> markers;
  for (int p = 0; p < space.planes_size(); ++p) {
    const xspace::XPlane& raw_plane = space.planes(p);
    xspace::XPlaneVisitor plane(&raw_plane);
    const bool is_device = xspace::IsDevicePlaneName(plane.name());
    const bool has_root_stat = plane.GetStatMetadataId(StatType::kIsRoot).has_value();
    std::unordered_set<int64_t> trace_context_ids;
    for (const auto& [id, metadata] : raw_plane.event_metadata()) {
      if (metadata.name() == xspace::kTraceContextEventName) trace_context_ids.insert(id);
    }
    plane.ForEachLine([&](const xspace::XLineVisitor& line) {
      if (is_device && line.name() == xspace::kStepLineName) {
        line.ForEachEvent([&](const xspace::XEventVisitor& event) {
          if (event.IsAggregatedEvent()) return;
          StepMarker marker = MakeMarker(StepMarkerKind::kDeviceStep, event, p, plane, line);
          auto step_name = event.GetStat(StatType::kStepName);
          std::string_view name = step_name ? step_name->StrOrRefValue() : std::string_view();
          marker.name = std::string(name.empty() ? event.name() : name);
          marker.step_num = DeviceStepNum(event, marker.name);
          markers.push_back(std::move(marker));
        });
        return;
      }
      if (!has_root_stat && trace_context_ids.empty()) return;
      std::vector<StepMarker> roots;
      line.ForEachEvent([&](const xspace::XEventVisitor& event) {
        if (event.IsAggregatedEvent()) return;
        std::optional<int64_t> level;
        StepMarkerKind kind = StepMarkerKind::kHostRoot;
        if (has_root_stat) {
          if (auto r = event.GetStat(StatType::kIsRoot)) level = r->IntValue();
        }
        if (!level && trace_context_ids.count(event.metadata_id()) != 0) {
          level = 1;
          kind = StepMarkerKind::kTraceContext;
        }
        if (!level) return;
        StepMarker marker = MakeMarker(kind, event, p, plane, line);
        marker.name = std::string(event.name());
        marker.root_level = *level;
        marker.step_num = HostStepNum(event);
        roots.push_back(std::move(marker));
      });
      AppendOutermostRoots(std::move(roots), &markers);
    });
  }
  return markers;
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
