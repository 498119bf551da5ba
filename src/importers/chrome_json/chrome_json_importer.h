// Generic Chrome trace-event JSON (chrome://tracing, Perfetto, Catapult): every process
// and thread goes to the /host:CPU plane, one line per thread (id = tid, name from the
// thread_name metadata; "<process> / <thread>" as display name when there are several
// processes), counters to its _counters_ line. See chrome_trace_parser.h for the event
// semantics.
#pragma once

#include "src/importers/importer.h"

namespace stepscope::importers {

class ChromeJsonImporter : public TraceImporter {
 public:
  std::string_view name() const override { return "chrome_json"; }
  std::string_view description() const override {
    return "Chrome trace-event JSON ({\"traceEvents\": [...]} or a bare array), .gz or not";
  }
  int Sniff(std::string_view head) const override;
  Status Import(ByteSource& source, const ImportOptions& options, const ImportOutput& output,
                ImportStats* stats) const override;
};

}  // namespace stepscope::importers
