// The importers' intermediate form: compact per-line event records collected while the
// JSON streams by, turned into XSpace messages once at the end (TraceAssembler::Finish).
//
// Why not build XEvents directly: a trace's events arrive in any order, a plane is known
// only once its metadata event has been seen (which may come last), and the lines must be
// sorted and made to nest before they are written. Sorting 40-byte records is far cheaper
// than sorting protobuf messages, and each line's records are freed as soon as it is
// written, which keeps the peak memory near the size of the XSpace itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/importers/assembler/record_vector.h"

namespace stepscope::importers {

// Flags on a PendingEvent.
inline constexpr uint8_t kEventStepMarker = 1;  // never trimmed by the overlap fix
inline constexpr uint8_t kEventDropped = 2;     // removed before writing (an unmatched B)

struct PendingEvent {
  int64_t timestamp_ps = 0;  // relative to the importer's time base
  int64_t duration_ps = 0;
  uint32_t name_id = 0;          // StringTable id
  uint32_t display_name_id = 0;  // 0: none
  uint32_t stats_begin = 0;      // index of the first stat in PendingLine::stats
  uint16_t stats_count = 0;
  uint8_t flags = 0;
  uint32_t seq = 0;  // insertion index within the line: stable tie-break and late-stat key

  int64_t end_ps() const { return timestamp_ps + duration_ps; }
};

enum class StatKind : uint8_t { kInt64, kUint64, kDouble, kRef, kStr };

struct PendingStat {
  uint32_t key_id = 0;  // StringTable id of the stat name
  StatKind kind = StatKind::kInt64;
  uint64_t bits = 0;    // the value: int64/uint64/double bits, or a StringTable id
};

// A stat attached to an event after later events were added to the same line.
struct LateStat {
  uint32_t seq = 0;
  PendingStat stat;
};

// XFlow direction bits (reference/xspace.md §1).
enum class FlowDirection : uint8_t { kIn = 1, kOut = 2, kInOut = 3 };
// Which slice a flow point attaches to.
enum class FlowBinding : uint8_t {
  kEnclosing,  // the innermost slice open at the point's time
  kNext,       // the first slice starting at or after it
};

struct PendingFlowPoint {
  int64_t timestamp_ps = 0;
  uint64_t flow_id = 0;  // 56 bits used
  uint8_t category = 0;  // XFlow category (ContextType)
  FlowDirection direction = FlowDirection::kOut;
  FlowBinding binding = FlowBinding::kEnclosing;
};

using PendingEvents = RecordVector<PendingEvent>;
using PendingStats = RecordVector<PendingStat>;
using LateStats = RecordVector<LateStat>;
using PendingFlowPoints = RecordVector<PendingFlowPoint>;

struct PendingLine {
  int64_t id = 0;
  uint32_t name_id = 0;
  uint32_t display_name_id = 0;
  bool nest = true;  // sort and fix overlaps (false for counter lines)
  PendingEvents events;
  PendingStats stats;
  LateStats late_stats;
  PendingFlowPoints flows;
};

}  // namespace stepscope::importers
