#include "src/importers/testing/import_fuzz_check.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "src/importers/importer_registry.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/columnar_writer.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xspace_io.h"
#include "tests/fuzz/same_columns.h"

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

// `stepscope import` writes the direct columns as the file (columnar_writer.h): read back,
// they must be what the message's own serialization reads to. (Not compared byte for
// byte: the columns clamp times a hostile trace puts beyond +-26 days, the message not.)
void CheckWrittenColumns(const xspace::ColumnarXSpace& direct, const xspace::XSpace& space) {
  StatusOr<std::string> written = xspace::SerializeColumnarXSpace(direct);
  StatusOr<std::string> serialized = xspace::SerializeXSpace(space);
  if (!written.ok() || !serialized.ok()) Fail("the columns or the message could not be serialized");
  StatusOr<xspace::ColumnarXSpace> from_columns = xspace::ParseColumnarXSpace(*written, "written columns");
  StatusOr<xspace::ColumnarXSpace> from_message = xspace::ParseColumnarXSpace(*serialized, "serialized message");
  if (from_columns.ok() != from_message.ok()) Fail("written columns and the message disagree on reading back");
  if (from_columns.ok() && !fuzzing::SameColumns(*from_message, *from_columns)) {
    Fail("written columns read back differently from the message's serialization");
  }
}

// The columns an import writes directly (import_output.h) must be the columns of the
// message it writes, as the message walk reads them.
void CheckColumns(std::string_view importer_name, std::string_view bytes, const ImportOptions& options,
                  const xspace::XSpace& space) {
  xspace::ColumnarXSpace direct;
  Status status = ImportTraceBytes(bytes, options, ImportOutput{.columnar = &direct}, nullptr, importer_name);
  StatusOr<xspace::ColumnarXSpace> read = xspace::XSpaceMessageToColumnar(space);
  if (status.ok() != read.ok()) {
    std::fprintf(stderr, "direct: %s\nmessage's columns: %s\n", status.ToString().c_str(),
                 read.status().ToString().c_str());
    Fail("direct columns and the message's columns disagree on success");
  }
  if (status.ok() && !fuzzing::SameColumns(*read, direct)) Fail("direct columns differ from the message's columns");
  if (status.ok()) CheckWrittenColumns(direct, space);
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
