#include "src/cli/xspace_summary.h"

#include <algorithm>
#include <cstdint>

#include "src/xspace/dropped_events.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::cli {
namespace {

StatSummary SummarizeStat(const xspace::XStatVisitor& stat) {
  StatSummary out;
  out.name = std::string(stat.name());
  switch (stat.value_case()) {
    case xspace::XStat::kInt64Value:
      out.kind = StatSummary::Kind::kInt;
      out.int_value = stat.raw().int64_value();
      break;
    case xspace::XStat::kUint64Value:
      out.kind = StatSummary::Kind::kUint;
      out.uint_value = stat.raw().uint64_value();
      break;
    case xspace::XStat::kDoubleValue:
      out.kind = StatSummary::Kind::kDouble;
      out.double_value = stat.raw().double_value();
      break;
    case xspace::XStat::kBytesValue:
      out.kind = StatSummary::Kind::kBytes;
      break;
    default:
      out.kind = StatSummary::Kind::kString;
      break;
  }
  out.text = stat.ToString();
  return out;
}

LineSummary SummarizeLine(const xspace::XLineVisitor& line) {
  LineSummary out;
  out.id = line.id();
  out.name = std::string(line.name());
  out.events = line.num_events();
  line.ForEachEvent([&](const xspace::XEventVisitor& event) {
    if (event.IsAggregatedEvent()) return;
    int64_t begin_ps = event.timestamp_ps();
    int64_t end_ps = event.end_timestamp_ps();
    out.begin_ps = out.begin_ps ? std::min(*out.begin_ps, begin_ps) : begin_ps;
    out.end_ps = out.end_ps ? std::max(*out.end_ps, end_ps) : end_ps;
  });
  return out;
}

}  // namespace

XSpaceSummary SummarizeXSpace(const xspace::XSpace& space) {
  XSpaceSummary summary;
  summary.hostnames.assign(space.hostnames().begin(), space.hostnames().end());
  summary.warnings.assign(space.warnings().begin(), space.warnings().end());
  summary.errors.assign(space.errors().begin(), space.errors().end());
  for (const xspace::XPlane& raw_plane : space.planes()) {
    xspace::XPlaneVisitor plane(&raw_plane);
    PlaneSummary out;
    out.id = plane.id();
    out.name = std::string(plane.name());
    out.event_metadata = raw_plane.event_metadata_size();
    out.stat_metadata = raw_plane.stat_metadata_size();
    plane.ForEachLine([&](const xspace::XLineVisitor& line) {
      out.lines.push_back(SummarizeLine(line));
      out.events += line.num_events();
    });
    plane.ForEachStat([&](const xspace::XStatVisitor& stat) {
      out.stats.push_back(SummarizeStat(stat));
    });
    summary.lines += static_cast<int64_t>(out.lines.size());
    summary.events += out.events;
    summary.planes.push_back(std::move(out));
  }
  summary.dropped_events = xspace::DroppedEventCount(space);
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
