#include "src/importers/testing/import_fuzz_check.h"

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "src/importers/importer_registry.h"
#include "src/xspace/columnar/xspace_to_columnar.h"

namespace stepscope::importers {
namespace {

void Fail(const char* what) {
  std::fprintf(stderr, "import fuzz check failed: %s\n", what);
  std::abort();
}

void CheckSpace(const xspace::XSpace& space, const ImportStats& stats) {
  if (stats.events_read != stats.events_imported + stats.metadata_events + stats.flow_events + stats.DroppedTotal()) {
    Fail("events_read != imported + metadata + flows + dropped");
  }
  uint64_t events = 0;
  for (const xspace::XPlane& plane : space.planes()) {
    for (const xspace::XLine& line : plane.lines()) {
      std::vector<int64_t> open_ends;
      int64_t previous_start = INT64_MIN;
      bool nests = line.name() != "_counters_";
      for (const xspace::XEvent& event : line.events()) {
        ++events;
        if (plane.event_metadata().count(event.metadata_id()) == 0) Fail("event without metadata");
        if (event.duration_ps() < 0) Fail("negative duration");
        int64_t start = event.offset_ps();
        if (start < previous_start) Fail("line not sorted by start");
        previous_start = start;
        if (!nests) continue;
        while (!open_ends.empty() && open_ends.back() <= start) open_ends.pop_back();
        if (!open_ends.empty() && start + event.duration_ps() > open_ends.back()) Fail("partially overlapping events");
        open_ends.push_back(start + event.duration_ps());
      }
    }
  }
  if (events != stats.xevents_written) Fail("xevents_written differs from the events in the space");
}

// The columns an import writes directly (import_output.h) must be the columns of the
// message it writes, as the streaming reader reads them.
bool SameColumns(const xspace::ColumnarXSpace& a, const xspace::ColumnarXSpace& b) {
  if (a.planes.size() != b.planes.size() || a.warnings != b.warnings || a.hostnames != b.hostnames ||
      a.time_origin_ns != b.time_origin_ns) {
    return false;
  }
  auto same_column = [](const auto& x, const auto& y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
  for (size_t p = 0; p < a.planes.size(); ++p) {
    const xspace::ColumnarPlane& x = a.planes[p];
    const xspace::ColumnarPlane& y = b.planes[p];
    if (x.id != y.id || x.name != y.name || x.lines.size() != y.lines.size() || x.strings != y.strings ||
        x.event_metadata.size() != y.event_metadata.size() || x.stat_metadata.size() != y.stat_metadata.size() ||
        x.other_stats.size() != y.other_stats.size() || x.long_durations_ps != y.long_durations_ps ||
        x.wide_payloads != y.wide_payloads) {
      return false;
    }
    for (size_t l = 0; l < x.lines.size(); ++l) {
      const xspace::ColumnarLine& u = x.lines[l];
      const xspace::ColumnarLine& v = y.lines[l];
      if (u.id != v.id || u.name != v.name || u.display_name != v.display_name || u.event_begin != v.event_begin ||
          u.event_end != v.event_end) {
        return false;
      }
    }
    for (size_t m = 0; m < x.event_metadata.size(); ++m) {
      if (x.event_metadata[m].name != y.event_metadata[m].name ||
          x.event_metadata[m].display_name != y.event_metadata[m].display_name) {
        return false;
      }
    }
    for (size_t m = 0; m < x.stat_metadata.size(); ++m) {
      if (x.stat_metadata[m].name != y.stat_metadata[m].name) return false;
    }
    if (!same_column(x.event_start_ps, y.event_start_ps) || !same_column(x.event_duration, y.event_duration) ||
        !same_column(x.event_metadata_index, y.event_metadata_index) ||
        !same_column(x.event_stats_begin, y.event_stats_begin) || !same_column(x.stat_key, y.stat_key) ||
        !same_column(x.stat_payload, y.stat_payload)) {
      return false;
    }
  }
  return true;
}

void CheckColumns(std::string_view importer_name, std::string_view bytes, const ImportOptions& options,
                  const xspace::XSpace& space) {
  xspace::ColumnarXSpace direct;
  Status status = ImportTraceBytes(bytes, options, ImportOutput{.columnar = &direct}, nullptr, importer_name);
  StatusOr<xspace::ColumnarXSpace> read = xspace::XSpaceMessageToColumnar(space);
  if (status.ok() != read.ok()) Fail("direct columns and the message's columns disagree on success");
  if (status.ok() && !SameColumns(*read, direct)) Fail("direct columns differ from the message's columns");
}

}  // namespace

int FuzzOneTraceImport(std::string_view importer_name, const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  ImportOptions options;
  // The first byte chooses the window (64 B .. 8 KB) and whether a cut is tolerated.
  options.window_bytes = size_t{64} << (data[0] & 7);
  options.allow_truncated = (data[0] & 8) != 0;
  options.max_inflated_bytes = 16 << 20;  // keep gzip bombs cheap
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  xspace::XSpace space;
  ImportStats stats;
  Status status = ImportTraceBytes(bytes, options, &space, &stats, importer_name);
  if (!status.ok()) return 0;
  CheckSpace(space, stats);
  CheckColumns(importer_name, bytes, options, space);
  return 0;
}

}  // namespace stepscope::importers
