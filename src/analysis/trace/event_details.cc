#include "src/analysis/trace/event_details.h"

#include <string>

#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using xspace::ColumnarPlane;
using xspace::ColumnarStat;
using xspace::StatKind;

DetailStat MakeDetailStat(const ColumnarPlane& plane, const ColumnarStat& stat, bool from_metadata) {
  DetailStat out;
  out.name = std::string(plane.stat_name(stat));
  out.from_metadata = from_metadata;
  switch (stat.kind) {
    case StatKind::kInt64:
      out.kind = DetailStat::Kind::kInt;
      out.int_value = static_cast<int64_t>(stat.payload);
      break;
    case StatKind::kUint64:
      out.kind = DetailStat::Kind::kUint;
      out.uint_value = stat.payload;
      break;
    case StatKind::kDouble:
      out.kind = DetailStat::Kind::kDouble;
      out.double_value = ColumnarPlane::AsDouble(stat);
      break;
    case StatKind::kBytes:
      out.kind = DetailStat::Kind::kBytes;
      out.string_value = plane.ToString(stat);
      break;
    default:
      out.kind = DetailStat::Kind::kString;
      out.string_value = plane.ToString(stat);
      break;
  }
  return out;
}

// Correlation ids and flows are numbers; TensorFlow writes them as int64 or uint64.
bool NumericValue(const ColumnarStat& stat, uint64_t* value) {
  if (stat.kind != StatKind::kInt64 && stat.kind != StatKind::kUint64) return false;
  *value = stat.payload;
  return true;
}

}  // namespace

XFlowValue DecodeXFlow(uint64_t value) {
  XFlowValue flow;
  flow.direction = static_cast<int>(value & 0x3);
  flow.id = (value >> 2) & ((uint64_t{1} << 56) - 1);
  flow.category = static_cast<int>(value >> 58);
  return flow;
}

StatusOr<EventDetails> GetEventDetails(const TraceIndex& index, uint32_t track, uint32_t event) {
  std::optional<EventLocation> location = index.Locate(track, event);
  if (!location.has_value()) {
    return NotFoundError("no event " + std::to_string(event) + " on track " + std::to_string(track));
  }
  const ColumnarPlane& plane = index.plane_of(track);
  const xspace::ColumnarEventMetadata& metadata = plane.event_metadata[plane.event_metadata_index[event]];
  EventDetails details;
  details.track = track;
  details.event = event;
  details.depth = index.rows()[location->row].depth;
  details.name = std::string(index.EventName(track, event));
  if (details.name != metadata.name) details.long_name = metadata.name;
  RowView row = index.row_view(location->row);
  details.start_ps = row.start(location->position);
  details.duration_ps = row.duration(location->position);
  const uint32_t correlation = plane.stat_index(xspace::StatType::kCorrelationId);
  const uint32_t flow = plane.stat_index(xspace::StatType::kFlow);
  auto note = [&](const ColumnarStat& stat) {
    uint64_t value;
    if (!NumericValue(stat, &value)) return;
    if (stat.metadata_index == correlation) details.correlation_id = value;
    if (stat.metadata_index == flow) details.flow_ids.push_back(DecodeXFlow(value).id);
  };
  for (uint32_t i = metadata.stats_begin; i < metadata.stats_end; ++i) {
    details.stats.push_back(MakeDetailStat(plane, plane.other_stats[i], /*from_metadata=*/true));
    note(plane.other_stats[i]);
  }
  for (uint32_t i = plane.event_stats_begin[event], end = plane.event_stats_begin[event + 1]; i < end; ++i) {
    ColumnarStat stat = plane.event_stat(i);
    details.stats.push_back(MakeDetailStat(plane, stat, /*from_metadata=*/false));
    note(stat);
  }
  return details;
}

}  // namespace stepscope::analysis::trace
