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

// Ids of a plane's event and stat metadata, assigned in order of first use.
class MetadataIds {
 public:
  // {id, true} when the id is new.
  std::pair<uint32_t, bool> EventId(uint32_t name_id, uint32_t display_name_id) {
    return Assign((static_cast<uint64_t>(name_id) << 32) | display_name_id, &event_);
  }
  std::pair<uint32_t, bool> StatId(uint32_t string_id) { return Assign(string_id, &stat_); }

 private:
  static std::pair<uint32_t, bool> Assign(uint64_t key, FlatIdMap* map) {
    if (uint32_t id = map->Find(key)) return {id, false};
    uint32_t id = static_cast<uint32_t>(map->size() + 1);
    map->Insert(key, id);
    return {id, true};
  }
  FlatIdMap event_;
  FlatIdMap stat_;
};

// The late stats of the event with insertion index `seq` (`late_sorted` sorted by seq).
inline std::pair<LateStats::const_iterator, LateStats::const_iterator> LateStatsOf(const LateStats& late_sorted,
                                                                                  uint32_t seq) {
  if (late_sorted.empty()) return {late_sorted.end(), late_sorted.end()};
  return std::equal_range(late_sorted.begin(), late_sorted.end(), LateStat{seq, {}},
                          [](const LateStat& a, const LateStat& b) { return a.seq < b.seq; });
}

class XPlaneWriter {
 public:
  XPlaneWriter(const StringTable& strings, xspace::XPlane* plane) : strings_(strings), plane_(plane) {}

  void WritePlaneStats(std::span<const PendingStat> stats);
  // Writes `events` (sorted); their inline stats live in `storage`, late ones in
  // `late_sorted`. Returns the number of events written.
  uint64_t WriteLine(const LineHeader& header, const PendingEvents& events, const PendingLine& storage,
                     const LateStats& late_sorted, int64_t origin_ps);
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
                     const LateStats& late_sorted, int64_t origin_ps);
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
