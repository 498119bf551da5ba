#include "src/analysis/trace/trace_flows.h"

#include <algorithm>
#include <functional>

#include "src/analysis/trace/event_details.h"
#include "src/base/status_macros.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using xspace::ColumnarPlane;
using xspace::ColumnarStat;
using xspace::StatKind;
using xspace::StatType;

// First search window; each next one is ten times wider.
constexpr int64_t kFirstFlowWindowPs = 1'000'000'000;  // 1 ms
// Counterparts returned per link at most (a CUDA graph launch starts many kernels).
constexpr size_t kMaxFlowMatches = 1000;

// The numeric value of stat `metadata_index` on `event` (its own stats, then its
// metadata's); false when absent or not an integer.
bool FindNumericStat(const ColumnarPlane& plane, uint32_t event, uint32_t metadata_index, uint64_t* value) {
  if (metadata_index == ColumnarPlane::kNoStat) return false;
  ColumnarStat stat;
  if (!plane.FindEventStat(event, metadata_index, &stat)) {
    const auto& metadata = plane.event_metadata[plane.event_metadata_index[event]];
    bool found = false;
    for (uint32_t i = metadata.stats_begin; i < metadata.stats_end && !found; ++i) {
      if (plane.other_stats[i].metadata_index == metadata_index) {
        stat = plane.other_stats[i];
        found = true;
      }
    }
    if (!found) return false;
  }
  if (stat.kind != StatKind::kInt64 && stat.kind != StatKind::kUint64) return false;
  *value = stat.payload;
  return true;
}

// Every XFlow on an event (an event may carry several `flow` stats).
std::vector<XFlowValue> EventXFlows(const ColumnarPlane& plane, uint32_t event) {
  std::vector<XFlowValue> flows;
  const uint32_t flow = plane.stat_index(StatType::kFlow);
  if (flow == ColumnarPlane::kNoStat) return flows;
  for (uint32_t i = plane.event_stats_begin[event], end = plane.event_stats_begin[event + 1]; i < end; ++i) {
    ColumnarStat stat = plane.event_stat(i);
    if (stat.metadata_index == flow && (stat.kind == StatKind::kInt64 || stat.kind == StatKind::kUint64)) {
      flows.push_back(DecodeXFlow(stat.payload));
    }
  }
  return flows;
}

FlowEnd MakeEnd(const TraceIndex& index, uint32_t track, uint32_t row_id, uint64_t position) {
  const RowView row = index.row_view(row_id);
  FlowEnd end;
  end.track = track;
  end.depth = index.rows()[row_id].depth;
  end.event = row.event(position);
  end.start_ps = row.start(position);
  end.end_ps = row.end(position);
  end.name = std::string(index.EventName(track, end.event));
  return end;
}

using EventMatcher = std::function<bool(const ColumnarPlane&, uint32_t event)>;

// Events of `tracks` starting in [from_ps, to_ps] that `match`, except (self_track, self_event).
void ScanWindow(const TraceIndex& index, const std::vector<uint32_t>& tracks, int64_t from_ps, int64_t to_ps,
                uint32_t self_track, uint32_t self_event, const EventMatcher& match, std::vector<FlowEnd>* out) {
  out->clear();
  for (uint32_t t : tracks) {
    const TraceTrack& track = index.tracks()[t];
    if (track.end_ps < from_ps || track.start_ps > to_ps) continue;
    const ColumnarPlane& plane = index.plane_of(track);
    for (uint32_t r = track.row_begin; r < track.row_end; ++r) {
      RowView row = index.row_view(r);
      for (uint64_t i = row.FirstStartingAtOrAfter(from_ps, 0); i < row.size() && row.start(i) <= to_ps; ++i) {
        uint32_t e = row.event(i);
        if (t == self_track && e == self_event) continue;
        if (!match(plane, e)) continue;
        out->push_back(MakeEnd(index, t, r, i));
        if (out->size() >= kMaxFlowMatches) return;
      }
    }
  }
}

// Searches windows growing tenfold; once something is found, one more (wider) window
// collects counterparts that spread further (several kernels of one graph launch).
std::vector<FlowEnd> SearchGrowing(const TraceIndex& index, const std::vector<uint32_t>& tracks, int64_t at_ps,
                                   bool before, bool after, uint32_t self_track, uint32_t self_event,
                                   const EventMatcher& match) {
  std::vector<FlowEnd> found;
  const int64_t limit = std::min(kMaxFlowWindowPs, std::max<int64_t>(index.end_ps(), kFirstFlowWindowPs));
  for (int64_t window = kFirstFlowWindowPs; ; window *= 10) {
    window = std::min(window, limit);
    ScanWindow(index, tracks, before ? at_ps - window : at_ps, after ? at_ps + window : at_ps, self_track, self_event,
               match, &found);
    if (!found.empty()) {
      int64_t wider = std::min(limit, window * 10);
      if (wider > window) {
        ScanWindow(index, tracks, before ? at_ps - wider : at_ps, after ? at_ps + wider : at_ps, self_track,
                   self_event, match, &found);
      }
      return found;
    }
    if (window >= limit) return found;
  }
}

}  // namespace

StatusOr<std::vector<TraceFlow>> FindFlows(const TraceIndex& index, uint32_t track, uint32_t event) {
  std::optional<EventLocation> location = index.Locate(track, event);
  if (!location.has_value()) {
    return NotFoundError("no event " + std::to_string(event) + " on track " + std::to_string(track));
  }
  const TraceTrack& self_track = index.tracks()[track];
  const ColumnarPlane& self_plane = index.plane_of(track);
  const FlowEnd self = MakeEnd(index, track, location->row, location->position);
  const bool self_on_device = index.sections()[self_track.section].kind == SectionKind::kDevice;
  std::vector<TraceFlow> flows;

  // Launch <-> kernel by correlation_id, across host and device tracks of one host.
  uint64_t correlation = 0;
  if (FindNumericStat(self_plane, event, self_plane.stat_index(StatType::kCorrelationId), &correlation)) {
    std::vector<uint32_t> tracks;
    for (uint32_t t = 0; t < index.tracks().size(); ++t) {
      const TraceTrack& other = index.tracks()[t];
      bool on_device = index.sections()[other.section].kind == SectionKind::kDevice;
      if (other.source == self_track.source && on_device != self_on_device) tracks.push_back(t);
    }
    EventMatcher match = [correlation](const ColumnarPlane& plane, uint32_t e) {
      uint64_t value;
      return FindNumericStat(plane, e, plane.stat_index(StatType::kCorrelationId), &value) && value == correlation;
    };
    // A kernel starts after its launch: search forward from a launch, back from a kernel.
    for (FlowEnd& other : SearchGrowing(index, tracks, self.start_ps, /*before=*/self_on_device,
                                        /*after=*/!self_on_device, track, event, match)) {
      TraceFlow flow;
      flow.kind = TraceFlow::Kind::kCorrelation;
      flow.id = correlation;
      flow.from = self_on_device ? std::move(other) : self;
      flow.to = self_on_device ? self : std::move(other);
      flows.push_back(std::move(flow));
    }
  }

  // XFlow stats: any track of the same host, both directions in time.
  for (const XFlowValue& xflow : EventXFlows(self_plane, event)) {
    std::vector<uint32_t> tracks;
    for (uint32_t t = 0; t < index.tracks().size(); ++t) {
      if (index.tracks()[t].source == self_track.source) tracks.push_back(t);
    }
    const uint64_t id = xflow.id;
    EventMatcher match = [id](const ColumnarPlane& plane, uint32_t e) {
      for (const XFlowValue& other : EventXFlows(plane, e)) {
        if (other.id == id) return true;
      }
      return false;
    };
    for (FlowEnd& other : SearchGrowing(index, tracks, self.start_ps, true, true, track, event, match)) {
      // Direction bits: 2 = out (producer), 1 = in (consumer); otherwise by time.
      bool self_first = xflow.direction == 2 ? true
                        : xflow.direction == 1 ? false
                                               : self.start_ps <= other.start_ps;
      TraceFlow flow;
      flow.kind = TraceFlow::Kind::kFlow;
      flow.id = id;
      flow.from = self_first ? self : other;
      flow.to = self_first ? std::move(other) : self;
      flows.push_back(std::move(flow));
    }
  }
  return flows;
}

}  // namespace stepscope::analysis::trace
