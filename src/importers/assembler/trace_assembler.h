// Builds the XSpace of an import: importers add planes, lines, events, stats and flow
// points as they parse (phase 1), then Finish() sorts every line, fixes overlaps, binds
// flows and writes the messages (phase 2). One assembler per import; not thread-safe.
//
// Layout written (the same as stepscope's own recorder, src/collect):
//  - planes ordered host ("/host:...") first, then devices by name, then others, then the
//    "Task Environment" plane with profile_start_time / profile_stop_time (wall ns) when
//    the trace tells the wall-clock time (SetWallClockOfTimeZeroNs);
//  - every line has timestamp_ns 0 and event offsets relative to the profile start
//    (the earliest event), as TensorFlow's post-processing normalizes them;
//  - host lines ordered by name (TensorFlow's rule), other lines by id;
//  - event metadata per (name, display name); stat names and string values interned as
//    stat metadata (string values as ref_value), ids from 1 per plane.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/importers/assembler/line_nesting.h"
#include "src/importers/assembler/pending_trace.h"
#include "src/importers/assembler/string_table.h"
#include "src/importers/import_output.h"
#include "src/importers/import_stats.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::importers {

struct LineRef {
  uint32_t plane = 0;
  uint32_t line = 0;
};

struct EventRef {
  uint32_t plane = 0;
  uint32_t line = 0;
  uint32_t index = 0;  // into PendingLine::events (== seq until Finish)
};

class TraceAssembler {
 public:
  explicit TraceAssembler(ImportStats* stats) : stats_(stats) {}

  StringTable& strings() { return strings_; }
  uint32_t Intern(std::string_view text) { return strings_.Intern(text); }

  // ---- planes and lines ----
  // The plane with this name, created with `id` on first use.
  uint32_t GetOrCreatePlane(std::string_view name, int64_t id);
  std::optional<uint32_t> FindPlane(std::string_view name) const;
  LineRef GetOrCreateLine(uint32_t plane, int64_t line_id);
  void SetLineName(LineRef line, std::string_view name);
  void SetLineDisplayName(LineRef line, std::string_view name);
  // Counter lines keep their instants as they are: no sorting into nesting.
  void SetLineNests(LineRef line, bool nests);
  bool LineHasName(LineRef line) const;
  // Moves a line and everything added to it into `plane` as line `line_id`, appending to
  // that line if it exists (its name is kept; else the moved line's name is). Importers
  // collect tracks on a staging plane (named "") while the metadata that places them may
  // still be ahead in the file, then move them. Refs to the moved line become invalid.
  LineRef MoveLine(LineRef from, uint32_t plane, int64_t line_id);

  // ---- events (times in ps relative to the importer's time base) ----
  EventRef AddEvent(LineRef line, uint32_t name_id, int64_t timestamp_ps, int64_t duration_ps,
                    uint8_t flags = 0);
  EventRef AddEvent(LineRef line, std::string_view name, int64_t timestamp_ps, int64_t duration_ps,
                    uint8_t flags = 0) {
    return AddEvent(line, Intern(name), timestamp_ps, duration_ps, flags);
  }
  PendingEvent& event(EventRef ref) { return planes_[ref.plane].lines[ref.line].events[ref.index]; }
  void SetDisplayName(EventRef ref, std::string_view display_name) { event(ref).display_name_id = Intern(display_name); }

  // Stats on an event. Stats added right after their event are stored inline; later ones
  // go to a side list (e.g. the args of a matching 'E').
  void AddStat(EventRef ref, uint32_t key_id, StatKind kind, uint64_t bits);
  void AddInt(EventRef ref, uint32_t key_id, int64_t value) { AddStat(ref, key_id, StatKind::kInt64, static_cast<uint64_t>(value)); }
  void AddUint(EventRef ref, uint32_t key_id, uint64_t value) { AddStat(ref, key_id, StatKind::kUint64, value); }
  void AddDouble(EventRef ref, uint32_t key_id, double value);
  // A string value, interned and written as ref_value.
  void AddRef(EventRef ref, uint32_t key_id, std::string_view value) {
    AddStat(ref, key_id, StatKind::kRef, Intern(value));
  }

  // Plane-level stats (device capabilities, run environment).
  void AddPlaneStat(uint32_t plane, uint32_t key_id, StatKind kind, uint64_t bits);
  void AddPlaneInt(uint32_t plane, std::string_view key, int64_t value);
  void AddPlaneUint(uint32_t plane, std::string_view key, uint64_t value);
  void AddPlaneDouble(uint32_t plane, std::string_view key, double value);
  void AddPlaneStr(uint32_t plane, std::string_view key, std::string_view value);

  // A flow point on a line, bound to a slice in Finish(). Points that bind to no slice
  // are dropped and counted.
  void AddFlowPoint(LineRef line, const PendingFlowPoint& point) {
    planes_[line.plane].lines[line.line].flows.push_back(point);
  }

  // ---- the space ----
  void AddHostname(std::string_view host) { hostnames_.emplace_back(host); }
  void AddWarning(std::string_view warning) { warnings_.emplace_back(warning); }
  // Wall-clock ns of time 0 of the importer's time base, when the trace tells it.
  void SetWallClockOfTimeZeroNs(int64_t wall_ns) { wall_clock_of_zero_ns_ = wall_ns; }

  // Phase 2: writes everything into the output's XSpace or columns (which should be
  // empty) and frees the pending records line by line. Adds the stats' warnings to the
  // space's warnings. Lines are readied (sorted, nested, flows bound) and then planes
  // written on up to `threads` threads (the result is the same).
  Status Finish(const ImportOutput& output, int threads = 1);
  Status Finish(xspace::XSpace* space, int threads = 1) { return Finish(ImportOutput{.space = space}, threads); }

 private:
  struct Plane {
    std::string name;
    int64_t id = 0;
    std::vector<PendingLine> lines;
    std::unordered_map<int64_t, uint32_t> line_index;
    std::vector<PendingStat> stats;
  };

  // Readies a line to be written: drops dropped events, sorts and nests the rest (or
  // only sorts, for lines that do not nest), binds its flow points to slices as late
  // stats of flow_key. Returns its overflow lines' events, level 1 first; what it drops
  // and fixes goes to `stats`. Touches nothing but the line and `stats`.
  static std::vector<PendingEvents> PrepareLine(PendingLine& line, uint32_t flow_key, ImportStats* stats);
  // Writes one plane, its lines prepared, through `writer` (plane_writer.h), with
  // overflow[l] the overflow levels of line l; what it counts goes to `stats` (one per
  // plane, so that planes can be written in parallel).
  template <typename Writer>
  Status WritePlane(Plane& plane, std::vector<std::vector<PendingEvents>>& overflow, int64_t origin_ps,
                    Writer& writer, ImportStats* stats) const;
  static void CountNestingFixes(const NestingResult& nesting, ImportStats* stats);
  static std::pair<uint64_t, uint64_t> ColumnBounds(const Plane& plane);
  // Appends the planes `planes` (indices in planes_), in that order, to the output, on up
  // to `threads` threads.
  Status WritePlanes(const std::vector<uint32_t>& planes, int64_t origin_ps, const ImportOutput& output, int threads);
  Status WriteTaskEnvironment(std::span<const PendingStat> stats, const ImportOutput& output);

  ImportStats* stats_;
  StringTable strings_;
  std::vector<Plane> planes_;
  std::unordered_map<std::string, uint32_t> plane_index_;
  std::vector<std::string> hostnames_;
  std::vector<std::string> warnings_;
  std::optional<int64_t> wall_clock_of_zero_ns_;
};

}  // namespace stepscope::importers
