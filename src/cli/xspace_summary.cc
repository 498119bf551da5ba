#include "src/cli/xspace_summary.h"

#include <algorithm>
#include <cstdint>

#include "src/xspace/schema.h"

namespace stepscope::cli {
namespace {

using xspace::ColumnarPlane;
using xspace::ColumnarStat;
using xspace::StatKind;

StatSummary SummarizeStat(const ColumnarPlane& plane, const ColumnarStat& stat) {
  StatSummary out;
  out.name = std::string(plane.stat_name(stat));
  switch (stat.kind) {
    case StatKind::kInt64:
      out.kind = StatSummary::Kind::kInt;
      out.int_value = static_cast<int64_t>(stat.payload);
      break;
    case StatKind::kUint64:
      out.kind = StatSummary::Kind::kUint;
      out.uint_value = stat.payload;
      break;
    case StatKind::kDouble:
      out.kind = StatSummary::Kind::kDouble;
      out.double_value = ColumnarPlane::AsDouble(stat);
      break;
    case StatKind::kBytes:
      out.kind = StatSummary::Kind::kBytes;
      break;
    default:
      out.kind = StatSummary::Kind::kString;
      break;
  }
  out.text = plane.ToString(stat);
  return out;
}

// `aggregated` marks the plane's aggregated events (no time of their own: not in the span).
LineSummary SummarizeLine(const ColumnarPlane& plane, const xspace::ColumnarLine& line,
                          const std::vector<bool>& aggregated) {
  LineSummary out;
  out.id = line.id;
  out.name = line.name;
  out.events = line.num_events();
  for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
    if (!aggregated.empty() && aggregated[e]) continue;
    int64_t begin_ps = plane.event_start_ps[e];
    int64_t end_ps = plane.event_end_ps(e);
    out.begin_ps = out.begin_ps ? std::min(*out.begin_ps, begin_ps) : begin_ps;
    out.end_ps = out.end_ps ? std::max(*out.end_ps, end_ps) : end_ps;
  }
  return out;
}

PlaneSummary SummarizePlane(const ColumnarPlane& plane, std::optional<int64_t>* dropped_events) {
  PlaneSummary out;
  out.id = plane.id;
  out.name = plane.name;
  // Placeholders stand for ids that are used but never defined: not metadata of the file.
  out.event_metadata = std::count_if(plane.event_metadata.begin(), plane.event_metadata.end(),
                                     [](const xspace::ColumnarEventMetadata& m) { return m.defined; });
  out.stat_metadata = std::count_if(plane.stat_metadata.begin(), plane.stat_metadata.end(),
                                    [](const xspace::ColumnarStatMetadata& m) { return m.defined; });
  std::vector<bool> aggregated;
  if (!plane.aggregated_events.empty()) {
    aggregated.assign(plane.num_events(), false);
    for (const auto& [event, occurrences] : plane.aggregated_events) aggregated[event] = true;
  }
  for (const xspace::ColumnarLine& line : plane.lines) {
    out.lines.push_back(SummarizeLine(plane, line, aggregated));
    out.events += line.num_events();
  }
  for (uint32_t i = plane.plane_stats_begin; i < plane.plane_stats_end; ++i) {
    const ColumnarStat& stat = plane.other_stats[i];
    out.stats.push_back(SummarizeStat(plane, stat));
    if (plane.stat_metadata[stat.metadata_index].type == xspace::StatType::kDroppedTraces &&
        ColumnarPlane::IsNumeric(stat.kind)) {
      // Saturating: a corrupt file must not overflow the total.
      int64_t total = 0;
      if (__builtin_add_overflow(dropped_events->value_or(0), ColumnarPlane::AsInt64(stat), &total)) {
        total = INT64_MAX;
      }
      *dropped_events = total;
    }
  }
  return out;
}

}  // namespace

XSpaceSummary SummarizeXSpace(const xspace::ColumnarXSpace& space) {
  XSpaceSummary summary;
  summary.hostnames = space.hostnames;
  summary.warnings = space.warnings;
  summary.errors = space.errors;
  for (const ColumnarPlane& plane : space.planes) {
    PlaneSummary out = SummarizePlane(plane, &summary.dropped_events);
    summary.lines += static_cast<int64_t>(out.lines.size());
    summary.events += out.events;
    summary.planes.push_back(std::move(out));
  }
  for (const analysis::StepSeries& series : analysis::GroupStepMarkers(analysis::FindStepMarkers(space))) {
    StepSeriesSummary out;
    out.kind = series.kind;
    out.plane_name = series.plane_name;
    out.name = series.name;
    out.root_level = series.root_level;
    out.stats = analysis::ComputeStepTimeStats(series.markers);
    summary.step_series.push_back(std::move(out));
  }
  return summary;
}

}  // namespace stepscope::cli
