// TraceIndex: the trace viewer's index over one host's XSpace (or several hosts'), built
// once and then queried many times by the UI (tiles, details, search, flows, export).
//
// It keeps the ColumnarXSpace it was built from (names, stats and times stay there, never
// copied per event) and adds, per track and nesting depth ("row"), the events of that
// row ordered by start, plus a level-of-detail summary of their durations:
//
//   row_events   one uint32 per event: its index in the plane's event columns. Within a
//                row events never overlap, so starts and ends both ascend and a time
//                range is found by binary search on either.
//   lod          per row, a tree of "duration classes" (bit width of the duration in ps,
//                one byte) with fan-out 16: level 0 holds the largest class of each 16
//                events, level 1 of each 16 level-0 entries, and so on. Because query
//                resolutions are powers of two, "is any event in this block at least one
//                pixel wide" is an exact byte comparison, and the next wide event after
//                a position is found in O(log n) without touching the events in between.
//
// Cost on top of the columnar data: ~4.07 bytes per event. Times the index reports are
// "trace time": picoseconds since the earliest event of the trace (0 = trace start).
//
// Thread safety: immutable after Build; every const method may be called concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/trace/track_layout.h"
#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/columnar/pod_array.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

// Rows per track. Real nesting rarely passes 30; an event that would go deeper (or that
// partially overlaps its neighbours in a malformed file) goes into the last row.
inline constexpr uint32_t kMaxRowsPerTrack = 255;
// Fan-out of the duration-class tree: a level-0 entry covers 16 events, so the tree costs
// 1/15 byte per event and a search scans at most 16 entries per level.
inline constexpr uint32_t kLodFanout = 16;

// One host's profile as the index takes it. Shared, so a server can index the columnar
// data its profile model already holds instead of reading the file a second time.
struct TraceSourceInput {
  std::string host;
  std::shared_ptr<const xspace::ColumnarXSpace> space;
};

struct TraceSection {
  std::string name;  // "/device:GPU:0", "Host Threads", or a plane name
  std::string host;  // the source's host
  SectionKind kind = SectionKind::kOther;
  std::vector<uint32_t> tracks;  // track ids in display order
};

struct TraceTrack {
  std::string name;  // line display name (thread name, "Stream #7(Compute)", "Steps")
  TrackKind kind = TrackKind::kOther;
  uint32_t section = 0;
  uint32_t source = 0;  // index of the TraceSourceInput
  uint32_t plane = 0;   // plane index in that source's space
  uint32_t line = 0;    // line index in the plane
  int64_t line_id = 0;  // XLine.id (thread id, stream id)
  uint32_t row_begin = 0;  // rows [row_begin, row_end) are depths 0, 1, ...
  uint32_t row_end = 0;
  uint64_t num_events = 0;
  int64_t start_ps = 0;  // trace time of the first start / last end
  int64_t end_ps = 0;
  uint32_t num_rows() const { return row_end - row_begin; }
};

struct TraceRow {
  uint32_t track = 0;
  uint32_t depth = 0;
  uint64_t begin = 0;  // range in the row-events array
  uint64_t end = 0;
  uint64_t lod_begin = 0;  // first byte of this row's tree in the lod array
};

// The duration class of a duration: 0 for <= 0, else its bit width (so d >= 2^r exactly
// when class >= r + 1).
inline uint8_t DurationClass(int64_t duration_ps) {
  return duration_ps <= 0 ? 0 : static_cast<uint8_t>(64 - __builtin_clzll(static_cast<uint64_t>(duration_ps)));
}

// A read-only view of one row: positions 0..size()-1 in time order.
class RowView {
 public:
  RowView(const uint32_t* events, uint64_t size, const xspace::ColumnarPlane* plane, int64_t shift_ps,
          const uint8_t* lod)
      : events_(events), size_(size), plane_(plane), shift_ps_(shift_ps), lod_(lod) {}

  uint64_t size() const { return size_; }
  uint32_t event(uint64_t i) const { return events_[i]; }
  int64_t start(uint64_t i) const { return plane_->event_start_ps[events_[i]] + shift_ps_; }
  int64_t duration(uint64_t i) const {
    int64_t d = plane_->duration_ps(events_[i]);
    return d < 0 ? 0 : d;
  }
  int64_t end(uint64_t i) const { return start(i) + duration(i); }

  // First position whose event reaches into [t, ...): end > t, or an instant at t or later.
  uint64_t FirstOverlapping(int64_t t) const;
  // First position >= from whose start is >= t (galloping from `from`: cheap when near).
  uint64_t FirstStartingAtOrAfter(int64_t t, uint64_t from) const;
  // First position in [from, limit) whose duration class is >= min_class; limit if none.
  uint64_t NextWithClassAtLeast(uint64_t from, uint64_t limit, uint8_t min_class) const;

 private:
  const uint32_t* events_;
  uint64_t size_;
  const xspace::ColumnarPlane* plane_;
  int64_t shift_ps_;
  const uint8_t* lod_;
};

// A counter over time, drawn as a counter track (a step-area graph) rather than as slices:
// memory in use from the MemoryAllocation / MemoryDeallocation events of host threads (the
// allocator's bytes_allocated after each event), and each numeric series of the
// `_counters_` line (Chrome 'C' events: "<counter> <series>"). trace_counters.h builds them.
struct CounterSeries {
  std::string name;  // "Memory in use (cuda:0)", "GPU Memory Allocated"
  std::string host;
  std::string unit;  // "bytes" for memory, else empty
  std::vector<int64_t> t_ps;  // trace time, ascending
  std::vector<double> value;  // the counter from t_ps[i] until the next sample
  double min_value = 0;
  double max_value = 0;
};

// Where an event sits in the index.
struct EventLocation {
  uint32_t track = 0;
  uint32_t row = 0;       // global row id
  uint64_t position = 0;  // position within the row
};

class TraceIndex {
 public:
  // Builds the index; shares ownership of the spaces (null spaces are refused). Hosts are aligned on their
  // profile start times when every source has one (Task Environment), else each starts
  // at 0. kInvalidArgument for an empty list.
  static StatusOr<TraceIndex> Build(std::vector<TraceSourceInput> sources);

  TraceIndex(TraceIndex&&) = default;
  TraceIndex& operator=(TraceIndex&&) = default;

  const std::vector<TraceSection>& sections() const { return sections_; }
  const std::vector<TraceTrack>& tracks() const { return tracks_; }
  const std::vector<TraceRow>& rows() const { return rows_; }
  uint64_t num_events() const { return num_events_; }
  // Trace time of the last event end (the trace spans [0, end_ps()]).
  int64_t end_ps() const { return end_ps_; }
  const std::vector<std::string>& hosts() const { return hosts_; }
  // Counter tracks, by host then name.
  const std::vector<CounterSeries>& counters() const { return counters_; }

  RowView row_view(uint32_t row) const;
  const xspace::ColumnarPlane& plane_of(const TraceTrack& track) const {
    return sources_[track.source].space->planes[track.plane];
  }
  const xspace::ColumnarPlane& plane_of(uint32_t track) const { return plane_of(tracks_[track]); }
  // Columnar time + shift = trace time.
  int64_t shift_ps(uint32_t track) const { return shifts_ps_[tracks_[track].source]; }

  // The name the viewer shows: the metadata's display name, else its name.
  std::string_view EventName(uint32_t track, uint32_t event) const;
  // True when `event` is a timed event of `track`'s line (what requests may name).
  bool IsTrackEvent(uint32_t track, uint32_t event) const;
  // The row and position of an event of `track`; nullopt if it is not on the timeline.
  std::optional<EventLocation> Locate(uint32_t track, uint32_t event) const;

  // Bytes held: the columnar spaces (even when shared) plus the index arrays.
  size_t MemoryBytes() const;

 private:
  TraceIndex() = default;
  Status BuildTracks();
  Status BuildRows();

  std::vector<TraceSourceInput> sources_;
  std::vector<int64_t> shifts_ps_;  // per source
  std::vector<std::string> hosts_;
  std::vector<TraceSection> sections_;
  std::vector<TraceTrack> tracks_;
  std::vector<TraceRow> rows_;
  std::vector<CounterSeries> counters_;
  xspace::PodArray<uint32_t> row_events_;
  xspace::PodArray<uint8_t> lod_;
  uint64_t num_events_ = 0;
  int64_t end_ps_ = 0;
};

}  // namespace stepscope::analysis::trace
