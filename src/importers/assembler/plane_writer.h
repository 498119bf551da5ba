// The two ways TraceAssembler::Finish writes an assembled plane: as XPlane messages
// (XPlaneWriter, for `stepscope import`) or straight into analysis columns
// (ColumnarPlaneWriter, for everything that analyzes a trace; import_output.h). The
// assembler sorts, nests and binds each line itself and hands both the same calls, in the
// same order:
//   WritePlaneStats(plane stats)  once, first
//   WriteLine(header, events...)   per line, in the plane's line order
//   Finish()                       once, last
// Layout shared by both (trace_assembler.h): event metadata per (name, display name) and
// stat metadata per name, ids from 1 in order of first use, plane stats' names first;
// string values of kRef stats become stat metadata too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "src/importers/assembler/flat_id_map.h"
#include "src/importers/assembler/pending_trace.h"
#include "src/importers/assembler/string_table.h"
#include "src/xspace/columnar/columnar_finalize.h"
#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::importers {

struct LineHeader {
  int64_t id = 0;
  std::string name;
  std::string display_name;  // empty: none
};

// Ids of a plane's event and stat metadata, assigned in order of first use. Looked up
// once per event and per stat, so the common keys (a stat name, an event name without a
// display name: StringTable ids, dense from 0) index vectors instead of hashing.
class MetadataIds {
 public:
  // {id, true} when the id is new.
  std::pair<uint32_t, bool> EventId(uint32_t name_id, uint32_t display_name_id) {
    if (display_name_id != 0) return AssignNamedEvent((static_cast<uint64_t>(name_id) << 32) | display_name_id);
    return AssignDense(name_id, &events_, &next_event_);
  }
  std::pair<uint32_t, bool> StatId(uint32_t string_id) { return AssignDense(string_id, &stats_, &next_stat_); }

 private:
  std::pair<uint32_t, bool> AssignNamedEvent(uint64_t key) {
    if (uint32_t id = named_events_.Find(key)) return {id, false};
    named_events_.Insert(key, ++next_event_);
    return {next_event_, true};
  }
  static std::pair<uint32_t, bool> AssignDense(uint32_t key, std::vector<uint32_t>* ids, uint32_t* next) {
    if (key >= ids->size()) ids->resize(std::max<size_t>(key + 1, ids->size() * 2), 0);
    uint32_t& id = (*ids)[key];
    if (id != 0) return {id, false};
    id = ++*next;
    return {id, true};
  }
  std::vector<uint32_t> events_;  // by name id (no display name)
  FlatIdMap named_events_;        // (name id, display name id)
  std::vector<uint32_t> stats_;   // by name id
  uint32_t next_event_ = 0;
  uint32_t next_stat_ = 0;
};

// A line's late stats grouped by the event they belong to (PendingEvent::seq), in the
// order they were added: one counting pass instead of a sort and a search per event.
class LateStatIndex {
 public:
  explicit LateStatIndex(const LateStats& late);
  std::span<const LateStat> Of(uint32_t seq) const {
    if (static_cast<size_t>(seq) + 1 >= begin_.size()) return {};
    return {ordered_.data() + begin_[seq], ordered_.data() + begin_[seq + 1]};
  }

 private:
  std::vector<LateStat> ordered_;
  std::vector<uint32_t> begin_;  // seq -> first index in ordered_; one extra entry
};

class XPlaneWriter {
 public:
  XPlaneWriter(const StringTable& strings, xspace::XPlane* plane) : strings_(strings), plane_(plane) {}

  void WritePlaneStats(std::span<const PendingStat> stats);
  // Writes `events` (sorted); their inline stats live in `storage`, late ones in `late`.
  // Returns the number of events written.
  uint64_t WriteLine(const LineHeader& header, const PendingEvents& events, const PendingLine& storage,
                     const LateStatIndex& late, int64_t origin_ps);
  Status Finish() { return OkStatus(); }

 private:
  int64_t EventMetadataId(uint32_t name_id, uint32_t display_name_id);
  int64_t StatMetadataId(uint32_t string_id);
  void SetStat(xspace::XStat* out, const PendingStat& stat);

  const StringTable& strings_;
  xspace::XPlane* plane_;
  MetadataIds ids_;
};

// Fills a ColumnarPlane as xspace's streaming reader would from the XPlane that
// XPlaneWriter writes for the same calls: raw ids in the columns, then FinalizePlane.
class ColumnarPlaneWriter {
 public:
  // `events` / `stats`: upper bounds of the plane's events and event stats (reserved once).
  ColumnarPlaneWriter(const StringTable& strings, int64_t id, std::string_view name, uint64_t events, uint64_t stats,
                      xspace::ColumnarPlane* plane);

  void WritePlaneStats(std::span<const PendingStat> stats);
  uint64_t WriteLine(const LineHeader& header, const PendingEvents& events, const PendingLine& storage,
                     const LateStatIndex& late, int64_t origin_ps);
  // Plane stats and metadata into place; the first problem found (a string that is not
  // UTF-8, too many events), as the reader would report it for the message.
  Status Finish();

 private:
  uint32_t EventMetadataId(uint32_t name_id, uint32_t display_name_id);
  uint32_t StatMetadataId(uint32_t string_id);
  xspace::ColumnarStat Convert(const PendingStat& stat);
  void CheckUtf8(std::string_view text, const char* where);

  const StringTable& strings_;
  xspace::ColumnarPlane* plane_;
  xspace::PlaneIds raw_;
  MetadataIds ids_;
  std::vector<PendingStat> plane_stats_;  // converted last: their string values come last in the pool
  Status status_;
};

}  // namespace stepscope::importers
