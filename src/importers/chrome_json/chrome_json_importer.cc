#include "src/importers/chrome_json/chrome_json_importer.h"

#include "src/importers/assembler/trace_assembler.h"
#include "src/importers/chrome_json/chrome_trace_parser.h"

namespace stepscope::importers {

int ChromeJsonImporter::Sniff(std::string_view head) const {
  size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return kSniffNo;
  if (head.substr(first, 3) == "\xEF\xBB\xBF") first += 3;
  char c = first < head.size() ? head[first] : '\0';
  if (c == '{' && HeadContains(head, "\"traceEvents\"")) return kSniffGeneric;
  if (c == '[' && HeadContains(head, "\"ph\"")) return kSniffGeneric;
  return kSniffNo;
}

Status ChromeJsonImporter::Import(ByteSource& source, const ImportOptions& options, const ImportOutput& output,
                                  ImportStats* stats) const {
  stats->format = std::string(name());
  TraceAssembler assembler(stats);
  ChromeTraceParser parser(&assembler, stats, options);
  return RunChromeTraceImport(source, options, parser, assembler, output, stats);
}

}  // namespace stepscope::importers
