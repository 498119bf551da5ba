#include "src/importers/kineto_json/kineto_json_importer.h"

#include <array>

#include "src/importers/assembler/trace_assembler.h"
#include "src/importers/chrome_json/chrome_json_importer.h"
#include "src/importers/kineto_json/kineto_trace_parser.h"

namespace stepscope::importers {
namespace {

// Text that only PyTorch's profilers write. Kineto puts schemaVersion /
// deviceProperties / distributedInfo before the events, but other writers (TraceLens)
// put a metadata block first, so the category names count too. Both spacings occur.
constexpr std::array<std::string_view, 16> kKinetoMarkers = {
    "\"schemaVersion\"",       "\"deviceProperties\"",      "\"distributedInfo\"",
    "\"cat\": \"cpu_op\"",     "\"cat\":\"cpu_op\"",        "\"cat\": \"cuda_runtime\"",
    "\"cat\":\"cuda_runtime\"", "\"cat\": \"python_function\"", "\"cat\": \"Operator\"",
    "\"cat\":\"Operator\"",    "\"cat\": \"Runtime\"",      "\"ProfilerStep#",
    "\"pid\": \"CPU functions\"", "\"pid\":\"CPU functions\"", "\"pid\": \"CPU Functions\"",
    "\"cat\": \"user_annotation\""};

}  // namespace

int KinetoJsonImporter::Sniff(std::string_view head) const {
  if (ChromeJsonImporter().Sniff(head) == kSniffNo) return kSniffNo;
  for (std::string_view marker : kKinetoMarkers) {
    if (HeadContains(head, marker)) return kSniffLikely;
  }
  return kSniffNo;
}

Status KinetoJsonImporter::Import(ByteSource& source, const ImportOptions& options, const ImportOutput& output,
                                  ImportStats* stats) const {
  stats->format = std::string(name());
  TraceAssembler assembler(stats);
  KinetoTraceParser parser(&assembler, stats, options);
  return RunChromeTraceImport(source, options, parser, assembler, output, stats);
}

}  // namespace stepscope::importers
