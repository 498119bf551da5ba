// ColumnarXSpace: an XSpace held as compact columns instead of generated messages.
//
// This is what the analysis path reads (DESIGN.md "Performance architecture"): a real
// XSpace can be gigabytes, over protobuf's 2 GiB message limit, and generated messages
// cost 5-10x the file size. Here an event costs 20 bytes (start, duration, metadata
// index, stat offset) and a stat 8 bytes; names are stored once per plane.
//
// Layout, per plane:
//   - event metadata and stat metadata as dense tables. Ids from the file are remapped to
//     dense indices (0..n-1) once the plane is read; ids used by events or stats but never
//     defined get a placeholder entry with an empty name, so every index is valid.
//   - lines, each owning the half-open range [event_begin, event_end) of the plane's
//     event columns, in file order (not sorted by time).
//   - event columns: start in ps on the space's timeline (line.timestamp_ns * 1000 +
//     offset_ps, see ColumnarXSpace::time_origin_ns), duration (32 bits; the rare longer
//     ones in a side table - read it with duration_ps(); both clamped, see AppendEvent),
//     metadata index, and the
//     first index of its stats. Event i's stats are [event_stats_begin[i],
//     event_stats_begin[i + 1]); the column has one extra entry at the end.
//   - one stats table for event stats: a 32-bit key (metadata index, kind, "wide" flag)
//     and a 32-bit payload; payloads that need 64 bits (large or negative integers,
//     doubles) live in a side table the payload then indexes - read with event_stat().
//     Plane stats and event-metadata stats live in a second, small table ("other stats")
//     so the event ranges stay contiguous whatever the field order.
//   - strings of str/bytes stats in a per-plane pool (payload = index into `strings`);
//     ref stats carry the dense stat-metadata index whose name is the value.
// Nothing points into the file buffer: the reader may release the input as it goes.
//
// Aggregated events (`num_occurrences` instead of `offset_ps`) get start = the line's
// timestamp and are listed in `aggregated_events`; timing analyses skip them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/xspace/columnar/columnar_memory_events.h"
#include "src/xspace/columnar/pod_array.h"
#include "src/xspace/schema.h"

namespace stepscope::xspace {

// Which value an XStat carries (its oneof case). kNone: the stat had no value.
enum class StatKind : uint8_t { kNone = 0, kInt64, kUint64, kDouble, kStr, kBytes, kRef };

// One stat, unpacked. For kStr/kBytes `payload` indexes ColumnarPlane::strings; for kRef
// it is the dense stat-metadata index whose name is the value; for kDouble it holds the
// bit pattern (use AsDouble()).
struct ColumnarStat {
  uint32_t metadata_index = 0;  // dense stat-metadata index: the stat's name
  StatKind kind = StatKind::kNone;
  uint64_t payload = 0;
};

struct ColumnarEventMetadata {
  int64_t id = 0;  // id as in the file
  // False for the placeholder of an id events use but the plane never defines.
  bool defined = true;
  std::string name;
  std::string display_name;
  // Range in ColumnarPlane's other-stats table: stats every event of this metadata has.
  uint32_t stats_begin = 0;
  uint32_t stats_end = 0;
};

struct ColumnarStatMetadata {
  int64_t id = 0;  // id as in the file
  std::string name;
  // False for the placeholder of an id stats use but the plane never defines.
  bool defined = true;
  // The well-known stat this name is (kUnknown otherwise); resolved once per plane.
  StatType type = StatType::kUnknown;
};

struct ColumnarLine {
  int64_t id = 0;
  int64_t display_id = 0;  // as in the file; 0 means "same as id"
  std::string name;
  std::string display_name;
  int64_t timestamp_ns = 0;
  int64_t duration_ps = 0;
  uint32_t event_begin = 0;  // range in the plane's event columns
  uint32_t event_end = 0;
  uint32_t num_events() const { return event_end - event_begin; }
};

class ColumnarPlane {
 public:
  int64_t id = 0;
  std::string name;
  std::vector<ColumnarLine> lines;
  std::vector<ColumnarEventMetadata> event_metadata;  // dense
  std::vector<ColumnarStatMetadata> stat_metadata;    // dense
  uint32_t plane_stats_begin = 0;  // range of plane stats in other_stats
  uint32_t plane_stats_end = 0;

  // ---- event columns (one entry per event of every line) ----
  PodArray<int64_t> event_start_ps;
  // Durations below 2^31 ps (2.1 ms) verbatim; with kLongDuration set, the low bits index
  // long_durations_ps. Use duration_ps().
  PodArray<uint32_t> event_duration;
  PodArray<uint32_t> event_metadata_index;
  PodArray<uint32_t> event_stats_begin;  // num_events() + 1 entries
  std::vector<int64_t> long_durations_ps;
  // ---- event stats ----
  // Bits 0-27: dense stat-metadata index; bit 28: payload is an index into wide_payloads;
  // bits 29-31: StatKind. Use event_stat().
  PodArray<uint32_t> stat_key;
  PodArray<uint32_t> stat_payload;
  std::vector<uint64_t> wide_payloads;
  // ---- everything else ----
  std::vector<ColumnarStat> other_stats;  // plane stats + event-metadata stats
  std::vector<std::string> strings;       // values of kStr / kBytes stats
  // (event index, num_occurrences) of aggregated events.
  std::vector<std::pair<uint32_t, int64_t>> aggregated_events;
  // ---- memory events as records (ColumnarReadOptions::memory_event_records) ----
  // When set, the stats of this plane's memory events (not aggregated) are in `memory`,
  // not in the stat columns: their events are there with no stats. memory_stat_indices
  // lists the (dense) stat metadata those stats had.
  bool memory_in_records = false;
  std::vector<uint32_t> memory_stat_indices;
  ColumnarMemoryEvents memory;

  // Calls f(column) for each of the event and stat columns.
  template <typename F>
  void ForEachColumn(const F& f) {
    f(event_start_ps);
    f(event_duration);
    f(event_metadata_index);
    f(event_stats_begin);
    f(stat_key);
    f(stat_payload);
  }

  uint32_t num_events() const { return static_cast<uint32_t>(event_start_ps.size()); }
  uint32_t num_stats() const { return static_cast<uint32_t>(stat_payload.size()); }

  static constexpr uint32_t kLongDuration = 1u << 31;
  int64_t duration_ps(uint32_t event) const {
    uint32_t d = event_duration[event];
    return (d & kLongDuration) ? long_durations_ps[d & ~kLongDuration] : d;
  }
  // Reader only: room for `events` more events and `stats` more stats, then appends
  // without checks (AppendEvent / AppendEventStat).
  [[nodiscard]] bool ReserveMore(size_t events, size_t stats) {
    size_t e = event_start_ps.size() + events, s = stat_key.size() + stats;
    return event_start_ps.Reserve(e) && event_duration.Reserve(e) && event_metadata_index.Reserve(e) &&
           event_stats_begin.Reserve(e + 1) && stat_key.Reserve(s) && stat_payload.Reserve(s);
  }
  // Backs what ReserveMore reserved (PodArray::PopulateReserved), ahead of the appends.
  void PopulateReserved() {
    ForEachColumn([](auto& column) { column.PopulateReserved(); });
  }
  // Hands back what the columns reserved and did not use (PodArray::ReleaseUnusedPages):
  // ReserveMore's bounds, and the rest of a huge page at each column's end.
  void ReleaseUnusedPages() {
    ForEachColumn([](auto& column) { column.ReleaseUnusedPages(); });
  }
  // Times are clamped so that sums and differences of two never overflow, whatever a
  // hostile file says: starts to +-2^61 ps (+-26 days), durations to [0, 2^61] (a negative
  // duration is malformed and reads as 0).
  static constexpr int64_t kMaxAbsTimePs = int64_t{1} << 61;
  static int64_t ClampStartPs(int64_t start_ps) {
    return start_ps < -kMaxAbsTimePs ? -kMaxAbsTimePs : (start_ps > kMaxAbsTimePs ? kMaxAbsTimePs : start_ps);
  }
  // Moves event `e` by `delta_ps` (a line whose timestamp came after its events), keeping
  // the clamp of AppendEvent.
  void ShiftEventStart(uint32_t e, int64_t delta_ps) {
    int64_t moved;
    if (__builtin_add_overflow(event_start_ps[e], delta_ps, &moved)) moved = delta_ps > 0 ? INT64_MAX : INT64_MIN;
    event_start_ps[e] = ClampStartPs(moved);
  }
  void AppendEvent(int64_t start_ps, int64_t duration_ps, uint32_t metadata, uint32_t stats_begin) {
    start_ps = ClampStartPs(start_ps);
    duration_ps = duration_ps < 0 ? 0 : (duration_ps > kMaxAbsTimePs ? kMaxAbsTimePs : duration_ps);
    event_start_ps.PushBackUnchecked(start_ps);
    if (duration_ps >= 0 && duration_ps < kLongDuration) {
      event_duration.PushBackUnchecked(static_cast<uint32_t>(duration_ps));
    } else {
      long_durations_ps.push_back(duration_ps);
      event_duration.PushBackUnchecked(kLongDuration | static_cast<uint32_t>(long_durations_ps.size() - 1));
    }
    event_metadata_index.PushBackUnchecked(metadata);
    event_stats_begin.PushBackUnchecked(stats_begin);
  }

  static constexpr uint32_t kStatIndexBits = 28;
  static constexpr uint32_t kMaxStatMetadata = (1u << kStatIndexBits) - 1;
  static constexpr uint32_t kWidePayload = 1u << kStatIndexBits;
  static constexpr uint32_t kKindShift = kStatIndexBits + 1;
  static uint32_t PackStatKey(uint32_t metadata_index, StatKind kind) {
    return metadata_index | (static_cast<uint32_t>(kind) << kKindShift);
  }
  static uint32_t StatMetadataOfKey(uint32_t key) { return key & kMaxStatMetadata; }
  void AppendEventStat(const ColumnarStat& stat) {
    uint32_t key = PackStatKey(stat.metadata_index, stat.kind);
    if (stat.payload <= UINT32_MAX) {
      stat_key.PushBackUnchecked(key);
      stat_payload.PushBackUnchecked(static_cast<uint32_t>(stat.payload));
    } else {
      wide_payloads.push_back(stat.payload);
      stat_key.PushBackUnchecked(key | kWidePayload);
      stat_payload.PushBackUnchecked(static_cast<uint32_t>(wide_payloads.size() - 1));
    }
  }
  ColumnarStat event_stat(uint32_t i) const {
    uint32_t key = stat_key[i];
    uint64_t payload = (key & kWidePayload) ? wide_payloads[stat_payload[i]] : stat_payload[i];
    return {key & kMaxStatMetadata, static_cast<StatKind>(key >> kKindShift), payload};
  }

  std::string_view event_name(uint32_t event) const { return event_metadata[event_metadata_index[event]].name; }
  // Saturates: a hostile start + duration must not overflow (undefined behaviour).
  int64_t event_end_ps(uint32_t event) const {
    int64_t end_ps = 0;
    if (__builtin_add_overflow(event_start_ps[event], duration_ps(event), &end_ps)) {
      return duration_ps(event) < 0 ? INT64_MIN : INT64_MAX;
    }
    return end_ps;
  }

  // Dense stat-metadata index of a well-known stat on this plane, or kNoStat.
  static constexpr uint32_t kNoStat = UINT32_MAX;
  uint32_t stat_index(StatType type) const { return stat_index_by_type_[static_cast<int>(type)]; }

  // ---- value accessors (any numeric kind converts, as TF writes a stat inconsistently) ----
  static bool IsNumeric(StatKind kind) {
    return kind == StatKind::kInt64 || kind == StatKind::kUint64 || kind == StatKind::kDouble;
  }
  static int64_t AsInt64(const ColumnarStat& stat);
  static double AsDouble(const ColumnarStat& stat);
  // str value, bytes value, or the interned string of a ref; empty for numbers.
  std::string_view AsString(const ColumnarStat& stat) const;
  // Any value as text ("5", "0.25", "foo"; bytes as "<N bytes>"), as XStatVisitor::ToString.
  std::string ToString(const ColumnarStat& stat) const;
  std::string_view stat_name(const ColumnarStat& stat) const { return stat_metadata[stat.metadata_index].name; }

  // The event's own stat with this dense metadata index, or nullptr-equivalent (false).
  bool FindEventStat(uint32_t event, uint32_t metadata_index, ColumnarStat* out) const;
  // Event stat first, then the metadata's stats (XSpace readers must merge both).
  bool FindStat(uint32_t event, StatType type, ColumnarStat* out) const;
  bool FindPlaneStat(StatType type, ColumnarStat* out) const;

  // Called by the reader after the plane's metadata is complete.
  void IndexStatTypes();

  // Bytes of column and table storage (for memory accounting in benchmarks).
  size_t MemoryBytes() const;

 private:
  std::vector<uint32_t> stat_index_by_type_ = std::vector<uint32_t>(kNumStatTypes, kNoStat);
};

struct ColumnarXSpace {
  // Event times are (line.timestamp_ns - time_origin_ns) * 1000 + offset_ps. The origin
  // is 0 for files whose line timestamps are already relative to the profile start (all
  // files TF and stepscope save), so times are the file's own; for wall-clock line
  // timestamps it is the first line's timestamp, because wall-clock picoseconds do not
  // fit in int64.
  int64_t time_origin_ns = 0;
  std::vector<ColumnarPlane> planes;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  std::vector<std::string> hostnames;

  const ColumnarPlane* FindPlane(std::string_view name) const;
  uint64_t num_events() const;
  size_t MemoryBytes() const;
};

}  // namespace stepscope::xspace
