// What an import read, kept and lost: Perfetto's "stats" idea for data problems. Nothing
// an importer skips or changes goes unreported: every element of the event array is
// counted exactly once, as imported, metadata, a flow point or dropped (with a reason),
// and every change to kept data (a trimmed overlap, a guessed duration) is counted too.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::importers {

struct ImportStats {
  std::string format;        // the importer that ran ("kineto_json", ...)
  uint64_t file_bytes = 0;   // bytes of the file (compressed if it was)
  uint64_t json_bytes = 0;   // bytes of JSON text (after inflation)

  // Elements of the event array. Invariant (checked by tests):
  //   events_read == events_imported + metadata_events + flow_events + DroppedTotal()
  uint64_t events_read = 0;
  uint64_t events_imported = 0;  // became (part of) an XEvent; a B/E pair counts twice
  uint64_t metadata_events = 0;  // M events and trace-level markers used as metadata
  uint64_t flow_events = 0;      // s/t/f points bound into `flow` stats
  std::map<std::string, uint64_t> dropped;  // reason -> elements

  uint64_t xevents_written = 0;  // XEvents in the result
  // Device events (kernels, copies, memsets) with duration 0, kept: real work shorter than
  // the file's time unit (1 us in integer-us Kineto files). Part of events_imported.
  uint64_t zero_length_device_events = 0;
  std::map<std::string, uint64_t> fixed;    // what was changed -> occurrences
  int64_t trimmed_ps = 0;                   // total time cut off by overlap fixes

  bool truncated = false;  // the file ended early and what came before was imported
  std::string truncation;

  void Drop(std::string_view reason, uint64_t n = 1);
  void Fix(std::string_view what, uint64_t n = 1);
  // Adds the flow, written, dropped, fixed and trimmed counts of `delta`: what one part of
  // the work (a plane, a line) counted on its own, so that parts can run in parallel.
  // flow_events may be a decrement there (modulo 2^64); trimmed_ps saturates.
  void Add(const ImportStats& delta);
  uint64_t DroppedTotal() const;

  // One line per reason, for XSpace.warnings and the CLI:
  //   "import: dropped 3 of 4855 events: unmatched 'E' (end without a begin)"
  //   "import: fixed 1 time: partially overlapping slices on one thread: ..."
  std::vector<std::string> Warnings() const;
};

}  // namespace stepscope::importers
