// PyTorch profiler traces: Kineto Chrome JSON (`*.pt.trace.json[.gz]`, current category
// names and the 2021 ones) and the legacy autograd-profiler export. Mapping rules in
// kineto_trace_parser.h and docs/importers.md.
#pragma once

#include "src/importers/importer.h"

namespace stepscope::importers {

class KinetoJsonImporter : public TraceImporter {
 public:
  std::string_view name() const override { return "kineto_json"; }
  std::string_view description() const override {
    return "PyTorch profiler (Kineto) trace JSON, *.pt.trace.json[.gz]; also the legacy autograd export";
  }
  int Sniff(std::string_view head) const override;
  Status Import(ByteSource& source, const ImportOptions& options, const ImportOutput& output,
                ImportStats* stats) const override;
};

}  // namespace stepscope::importers
