#include "src/analysis/trace/trace_index.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "src/analysis/trace/trace_counters.h"
#include "src/base/status_macros.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using xspace::ColumnarPlane;

// Sizes of a row's tree levels: ceil(n/16), ceil(that/16), ... down to one entry.
int LodLevelSizes(uint64_t n, uint64_t sizes[16]) {
  int levels = 0;
  uint64_t size = n;
  do {
    size = (size + kLodFanout - 1) / kLodFanout;
    sizes[levels++] = size;
  } while (size > 1 && levels < 16);
  return levels;
}

uint64_t LodBytes(uint64_t n) {
  if (n == 0) return 0;
  uint64_t sizes[16];
  int levels = LodLevelSizes(n, sizes);
  uint64_t total = 0;
  for (int i = 0; i < levels; ++i) total += sizes[i];
  return total;
}

// Aggregated events (num_occurrences instead of a time) of a plane, sorted: they have no
// place on a timeline.
std::vector<uint32_t> AggregatedEvents(const ColumnarPlane& plane) {
  std::vector<uint32_t> events;
  events.reserve(plane.aggregated_events.size());
  for (const auto& [event, count] : plane.aggregated_events) events.push_back(event);
  std::sort(events.begin(), events.end());
  return events;
}

bool Contains(const std::vector<uint32_t>& sorted, uint32_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

// Wall-clock ns at columnar time 0 of a space, when known.
std::optional<int64_t> SpaceBaseNs(const xspace::ColumnarXSpace& space) {
  if (space.time_origin_ns != 0) return space.time_origin_ns;
  const ColumnarPlane* env = space.FindPlane(xspace::kTaskEnvPlaneName);
  xspace::ColumnarStat stat;
  if (env != nullptr && env->FindPlaneStat(xspace::StatType::kProfileStartTime, &stat) &&
      ColumnarPlane::IsNumeric(stat.kind)) {
    return ColumnarPlane::AsInt64(stat);
  }
  return std::nullopt;
}

}  // namespace

// ---- RowView ----

uint64_t RowView::FirstOverlapping(int64_t t) const {
  // Ends ascend within a row, so the first end > t is a binary search; an instant at t
  // has end == t and still belongs to [t, ...).
  uint64_t lo = 0, hi = size_;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    int64_t e = end(mid);
    if (e > t || (e == t && duration(mid) == 0)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

uint64_t RowView::FirstStartingAtOrAfter(int64_t t, uint64_t from) const {
  if (from >= size_ || start(from) >= t) return from;
  // Gallop: find a bound whose start is >= t, then binary search the last step.
  uint64_t lo = from, step = 1, hi = from + 1;
  while (hi < size_ && start(hi) < t) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > size_) hi = size_;
  // start(lo) < t; answer in (lo, hi].
  uint64_t a = lo + 1, b = hi;
  while (a < b) {
    uint64_t mid = a + (b - a) / 2;
    if (start(mid) >= t) {
      b = mid;
    } else {
      a = mid + 1;
    }
  }
  return a;
}

uint64_t RowView::NextWithClassAtLeast(uint64_t from, uint64_t limit, uint8_t min_class) const {
  if (limit > size_) limit = size_;
  if (from >= limit) return limit;
  if (min_class == 0) return from;
  // Short ranges: scanning is cheaper than walking the tree.
  if (limit - from <= 2 * kLodFanout) {
    for (uint64_t i = from; i < limit; ++i) {
      if (DurationClass(duration(i)) >= min_class) return i;
    }
    return limit;
  }
  // Finish the level-0 block `from` is in.
  uint64_t i = from;
  uint64_t block_end = std::min(limit, (i / kLodFanout + 1) * kLodFanout);
  for (; i < block_end; ++i) {
    if (DurationClass(duration(i)) >= min_class) return i;
  }
  if (i >= limit) return limit;
  uint64_t sizes[16];
  int levels = LodLevelSizes(size_, sizes);
  uint64_t offsets[16];
  offsets[0] = 0;
  for (int l = 1; l < levels; ++l) offsets[l] = offsets[l - 1] + sizes[l - 1];
  // Climb: scan the rest of each group, going up a level when a group is exhausted.
  int level = 0;
  uint64_t b = i / kLodFanout;  // first level-0 entry not yet looked at
  while (true) {
    uint64_t group_end = std::min(sizes[level], (b / kLodFanout + 1) * kLodFanout);
    for (; b < group_end; ++b) {
      if (lod_[offsets[level] + b] >= min_class) break;
    }
    if (b < group_end) break;  // found an entry at this level
    if (b >= sizes[level] || level + 1 >= levels) return limit;
    // Events covered so far end at entry b; stop once past the limit.
    uint64_t covered = b;
    for (int l = 0; l <= level; ++l) covered *= kLodFanout;
    if (covered >= limit) return limit;
    ++level;
    b /= kLodFanout;
  }
  // Descend to the first qualifying level-0 block, then the first qualifying event.
  while (level > 0) {
    --level;
    b *= kLodFanout;
    while (lod_[offsets[level] + b] < min_class) ++b;  // the parent guarantees one exists
  }
  for (uint64_t e = b * kLodFanout, end = std::min(size_, e + kLodFanout); e < end; ++e) {
    if (e >= limit) return limit;
    if (DurationClass(duration(e)) >= min_class) return e;
  }
  return limit;
}

// ---- TraceIndex ----

StatusOr<TraceIndex> TraceIndex::Build(std::vector<TraceSourceInput> sources) {
  if (sources.empty()) return InvalidArgumentError("no profile to index");
  for (const TraceSourceInput& source : sources) {
    if (source.space == nullptr) return InvalidArgumentError("no profile data for host " + source.host);
  }
  TraceIndex index;
  index.sources_ = std::move(sources);
  for (const TraceSourceInput& source : index.sources_) index.hosts_.push_back(source.host);
  // Align hosts on their wall-clock start when every one of them has it.
  index.shifts_ps_.assign(index.sources_.size(), 0);
  std::vector<std::optional<int64_t>> bases;
  bool all_known = true;
  for (const TraceSourceInput& source : index.sources_) {
    bases.push_back(SpaceBaseNs(*source.space));
    all_known = all_known && bases.back().has_value();
  }
  if (all_known && index.sources_.size() > 1) {
    int64_t min_base = std::numeric_limits<int64_t>::max();
    for (const auto& base : bases) min_base = std::min(min_base, *base);
    for (size_t s = 0; s < bases.size(); ++s) index.shifts_ps_[s] = (*bases[s] - min_base) * 1000;
  }
  STEPSCOPE_RETURN_IF_ERROR(index.BuildTracks());
  STEPSCOPE_RETURN_IF_ERROR(index.BuildRows());
  // Trace time starts at the earliest event.
  int64_t origin = std::numeric_limits<int64_t>::max();
  for (const TraceTrack& track : index.tracks_) origin = std::min(origin, track.start_ps);
  if (index.tracks_.empty()) origin = 0;
  for (int64_t& shift : index.shifts_ps_) shift -= origin;
  index.end_ps_ = 0;
  for (TraceTrack& track : index.tracks_) {
    track.start_ps -= origin;
    track.end_ps -= origin;
    index.end_ps_ = std::max(index.end_ps_, track.end_ps);
  }
  index.counters_ = CollectCounterSeries(index.sources_, index.shifts_ps_);
  return index;
}

Status TraceIndex::BuildTracks() {
  struct PendingSection {
    std::string sort_key;
    TraceSection section;
    std::vector<std::pair<TrackSortKey, TraceTrack>> tracks;
  };
  std::vector<PendingSection> pending;
  for (uint32_t s = 0; s < sources_.size(); ++s) {
    const auto& planes = sources_[s].space->planes;
    for (uint32_t p = 0; p < planes.size(); ++p) {
      const ColumnarPlane& plane = planes[p];
      SectionPlacement placement = PlaceSection(plane.name);
      PendingSection section;
      // Hosts first (in the order given), then the viewer's section order.
      char host_key[16];
      std::snprintf(host_key, sizeof(host_key), "%08u", s);
      section.sort_key = std::string(host_key) + placement.sort_key;
      section.section.name = placement.name;
      section.section.host = sources_[s].host;
      section.section.kind = placement.kind;
      for (uint32_t l = 0; l < plane.lines.size(); ++l) {
        const xspace::ColumnarLine& line = plane.lines[l];
        if (line.num_events() == 0 || !IsShownLine(line.name, line.id)) continue;
        TraceTrack track;
        track.name = !line.display_name.empty() ? line.display_name : line.name;
        if (track.name.empty()) track.name = "line " + std::to_string(line.id);
        track.kind = ClassifyLine(placement.kind, line.name);
        track.source = s;
        track.plane = p;
        track.line = l;
        track.line_id = line.id;
        // Sorted by the thread's own name, shown with the plane it came from.
        TrackSortKey key = MakeTrackSortKey(track.kind, line.id, track.name);
        track.name += placement.lane_suffix;
        section.tracks.emplace_back(std::move(key), std::move(track));
      }
      if (!section.tracks.empty()) pending.push_back(std::move(section));
    }
  }
  std::stable_sort(pending.begin(), pending.end(),
                   [](const PendingSection& a, const PendingSection& b) { return a.sort_key < b.sort_key; });
  // One host's thread planes (same sort key) become one section: one OS thread, one group.
  std::vector<PendingSection> merged;
  for (PendingSection& section : pending) {
    if (!merged.empty() && section.section.kind == SectionKind::kHost && merged.back().sort_key == section.sort_key) {
      for (auto& track : section.tracks) merged.back().tracks.push_back(std::move(track));
      continue;
    }
    merged.push_back(std::move(section));
  }
  pending = std::move(merged);
  for (PendingSection& section : pending) {
    std::stable_sort(section.tracks.begin(), section.tracks.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    uint32_t section_id = static_cast<uint32_t>(sections_.size());
    for (auto& [key, track] : section.tracks) {
      track.section = section_id;
      section.section.tracks.push_back(static_cast<uint32_t>(tracks_.size()));
      tracks_.push_back(std::move(track));
    }
    sections_.push_back(std::move(section.section));
  }
  return OkStatus();
}

Status TraceIndex::BuildRows() {
  uint64_t total = 0;
  for (const TraceTrack& track : tracks_) total += plane_of(track).lines[track.line].num_events();
  if (!row_events_.Resize(total)) return ResourceExhaustedError("out of memory indexing " + std::to_string(total) + " events");
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> aggregated;  // per (source, plane)
  uint64_t next = 0;
  std::vector<uint32_t> order;
  std::vector<uint8_t> depths;
  std::vector<int64_t> stack_ends;
  std::vector<int64_t> last_end(kMaxRowsPerTrack);
  std::vector<uint64_t> row_counts(kMaxRowsPerTrack);
  for (uint32_t t = 0; t < tracks_.size(); ++t) {
    TraceTrack& track = tracks_[t];
    const ColumnarPlane& plane = plane_of(track);
    const xspace::ColumnarLine& line = plane.lines[track.line];
    const int64_t shift = shifts_ps_[track.source];
    auto key = std::make_pair(track.source, track.plane);
    auto agg = aggregated.find(key);
    if (agg == aggregated.end()) agg = aggregated.emplace(key, AggregatedEvents(plane)).first;
    // Events of the line in (start asc, end desc) order: parents before their children.
    order.clear();
    bool sorted = true;
    int64_t prev_start = std::numeric_limits<int64_t>::min(), prev_end = 0;
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
      if (!agg->second.empty() && Contains(agg->second, e)) continue;
      int64_t s = plane.event_start_ps[e];
      int64_t en = s + std::max<int64_t>(0, plane.duration_ps(e));
      if (s < prev_start || (s == prev_start && en > prev_end)) sorted = false;
      prev_start = s;
      prev_end = en;
      order.push_back(e);
    }
    if (!sorted) {
      std::sort(order.begin(), order.end(), [&plane](uint32_t a, uint32_t b) {
        int64_t sa = plane.event_start_ps[a], sb = plane.event_start_ps[b];
        if (sa != sb) return sa < sb;
        int64_t ea = sa + std::max<int64_t>(0, plane.duration_ps(a));
        int64_t eb = sb + std::max<int64_t>(0, plane.duration_ps(b));
        if (ea != eb) return ea > eb;
        return a < b;
      });
    }
    // Depth: the number of enclosing events; an event that would overlap the previous
    // event of its row (malformed nesting) moves down until it fits.
    depths.resize(order.size());
    stack_ends.clear();
    std::fill(last_end.begin(), last_end.end(), std::numeric_limits<int64_t>::min());
    std::fill(row_counts.begin(), row_counts.end(), 0);
    uint32_t rows_used = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      uint32_t e = order[i];
      int64_t s = plane.event_start_ps[e];
      int64_t en = s + std::max<int64_t>(0, plane.duration_ps(e));
      while (!stack_ends.empty() && stack_ends.back() <= s) stack_ends.pop_back();
      uint32_t depth = static_cast<uint32_t>(std::min<size_t>(stack_ends.size(), kMaxRowsPerTrack - 1));
      while (depth + 1 < kMaxRowsPerTrack && last_end[depth] > s) ++depth;
      last_end[depth] = std::max(last_end[depth], en);
      stack_ends.push_back(en);
      depths[i] = static_cast<uint8_t>(depth);
      ++row_counts[depth];
      rows_used = std::max(rows_used, depth + 1);
    }
    track.num_events = order.size();
    track.start_ps = order.empty() ? 0 : plane.event_start_ps[order.front()] + shift;
    track.end_ps = track.start_ps;
    track.row_begin = static_cast<uint32_t>(rows_.size());
    std::vector<uint64_t> cursor(rows_used);
    for (uint32_t d = 0; d < rows_used; ++d) {
      TraceRow row;
      row.track = t;
      row.depth = d;
      row.begin = next;
      row.end = next + row_counts[d];
      cursor[d] = next;
      next = row.end;
      rows_.push_back(row);
    }
    track.row_end = static_cast<uint32_t>(rows_.size());
    for (size_t i = 0; i < order.size(); ++i) {
      row_events_[cursor[depths[i]]++] = order[i];
      int64_t en = plane.event_start_ps[order[i]] + std::max<int64_t>(0, plane.duration_ps(order[i])) + shift;
      track.end_ps = std::max(track.end_ps, en);
    }
    num_events_ += order.size();
  }
  if (!row_events_.Resize(next)) return InternalError("shrinking the row index failed");
  // Duration-class trees.
  uint64_t lod_total = 0;
  for (const TraceRow& row : rows_) lod_total += LodBytes(row.end - row.begin);
  if (!lod_.Resize(lod_total)) return ResourceExhaustedError("out of memory building the trace level of detail");
  uint64_t lod_next = 0;
  for (TraceRow& row : rows_) {
    row.lod_begin = lod_next;
    const uint64_t n = row.end - row.begin;
    if (n == 0) continue;
    const ColumnarPlane& plane = plane_of(tracks_[row.track]);
    uint64_t sizes[16];
    int levels = LodLevelSizes(n, sizes);
    uint8_t* level0 = lod_.data() + lod_next;
    for (uint64_t b = 0; b < sizes[0]; ++b) {
      uint8_t max_class = 0;
      for (uint64_t i = b * kLodFanout, end = std::min(n, i + kLodFanout); i < end; ++i) {
        max_class = std::max(max_class, DurationClass(plane.duration_ps(row_events_[row.begin + i])));
      }
      level0[b] = max_class;
    }
    uint8_t* below = level0;
    uint64_t below_size = sizes[0];
    uint8_t* level = level0 + sizes[0];
    for (int l = 1; l < levels; ++l) {
      for (uint64_t b = 0; b < sizes[l]; ++b) {
        uint8_t max_class = 0;
        for (uint64_t i = b * kLodFanout, end = std::min(below_size, i + kLodFanout); i < end; ++i) {
          max_class = std::max(max_class, below[i]);
        }
        level[b] = max_class;
      }
      below = level;
      below_size = sizes[l];
      level += sizes[l];
    }
    lod_next += LodBytes(n);
  }
  return OkStatus();
}

RowView TraceIndex::row_view(uint32_t row_id) const {
  const TraceRow& row = rows_[row_id];
  const TraceTrack& track = tracks_[row.track];
  return RowView(row_events_.data() + row.begin, row.end - row.begin, &plane_of(track), shifts_ps_[track.source],
                 lod_.data() + row.lod_begin);
}

std::string_view TraceIndex::EventName(uint32_t track, uint32_t event) const {
  const ColumnarPlane& plane = plane_of(track);
  const xspace::ColumnarEventMetadata& metadata = plane.event_metadata[plane.event_metadata_index[event]];
  return metadata.display_name.empty() ? std::string_view(metadata.name) : std::string_view(metadata.display_name);
}

bool TraceIndex::IsTrackEvent(uint32_t track, uint32_t event) const {
  if (track >= tracks_.size()) return false;
  const TraceTrack& t = tracks_[track];
  const xspace::ColumnarLine& line = plane_of(t).lines[t.line];
  if (event < line.event_begin || event >= line.event_end) return false;
  for (const auto& [aggregated, count] : plane_of(t).aggregated_events) {
    if (aggregated == event) return false;
  }
  return true;
}

std::optional<EventLocation> TraceIndex::Locate(uint32_t track, uint32_t event) const {
  if (!IsTrackEvent(track, event)) return std::nullopt;
  const TraceTrack& t = tracks_[track];
  const int64_t start = plane_of(t).event_start_ps[event] + shifts_ps_[t.source];
  for (uint32_t r = t.row_begin; r < t.row_end; ++r) {
    RowView row = row_view(r);
    for (uint64_t i = row.FirstStartingAtOrAfter(start, 0); i < row.size() && row.start(i) == start; ++i) {
      if (row.event(i) == event) return EventLocation{track, r, i};
    }
  }
  return std::nullopt;
}

size_t TraceIndex::MemoryBytes() const {
  size_t bytes = row_events_.used_bytes() + lod_.used_bytes() + rows_.size() * sizeof(TraceRow);
  for (const TraceTrack& track : tracks_) bytes += sizeof(track) + track.name.capacity();
  for (const TraceSourceInput& source : sources_) bytes += source.space->MemoryBytes();
  for (const CounterSeries& series : counters_) bytes += series.t_ps.capacity() * (sizeof(int64_t) + sizeof(double));
  return bytes;
}

}  // namespace stepscope::analysis::trace
