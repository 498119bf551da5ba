// TensorFlow / JAX trace viewer JSON (`<host>.trace.json.gz`, JAX's perfetto_trace.json.gz):
// the Chrome JSON XProf writes from an XSpace (reference/xspace.md §6 "Trace JSON
// format"). Each pid is a plane, named by its process_name metadata ("/device:GPU:0",
// "/host:CPU"); each tid a line named by thread_name. The conversion is undone where the
// JSON allows it:
//  - "long_name" args hold the event name when the viewer showed a display name;
//  - args are strings; they become stats the way TraceMe args do (int64, uint64, double,
//    else an interned string), so kernel_details, correlation_id, step_num come back;
//  - host events with a step_num arg were step markers (the viewer hides the _r stat and
//    names the event "<name> <step>"): they get _r=1 and their name back.
#pragma once

#include "src/importers/importer.h"

namespace stepscope::importers {

class TfTraceJsonImporter : public TraceImporter {
 public:
  std::string_view name() const override { return "tf_trace_json"; }
  std::string_view description() const override {
    return "TensorFlow/JAX trace viewer JSON (*.trace.json.gz, perfetto_trace.json.gz)";
  }
  int Sniff(std::string_view head) const override;
  Status Import(ByteSource& source, const ImportOptions& options, const ImportOutput& output,
                ImportStats* stats) const override;
};

}  // namespace stepscope::importers
