// The only table of trace importers, and the entry points the CLI uses: pick an importer
// by sniffing the first bytes of a file (after gunzip), then import it.
//
//   StatusOr<xspace::XSpace> space = importers::ImportTraceFile("rank0.pt.trace.json.gz");
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/importers/importer.h"

namespace stepscope::importers {

// Bytes of the (inflated) head given to Sniff(): enough to get past Kineto's
// deviceProperties block and TraceLens' metadata block to the first events.
inline constexpr size_t kSniffHeadBytes = 64 << 10;

// Every importer, most specific first.
const std::vector<const TraceImporter*>& AllImporters();
// By name ("kineto_json"); nullptr if unknown.
const TraceImporter* FindImporter(std::string_view name);
// The importer most confident about `head`; nullptr when none recognises it.
const TraceImporter* SniffImporter(std::string_view head);

// Imports a trace file (gzip or not, whatever its name). `format` forces an importer by
// name; empty sniffs. `stats` may be null. Errors name the file.
Status ImportTraceFile(const std::string& path, const ImportOptions& options, xspace::XSpace* space,
                       ImportStats* stats = nullptr, std::string_view format = "");
StatusOr<xspace::XSpace> ImportTraceFile(const std::string& path, const ImportOptions& options = {},
                                         ImportStats* stats = nullptr);
// The same, straight into analysis columns (import_output.h): what analyzing a trace
// needs, without building the XSpace message first.
Status ImportTraceFileColumnar(const std::string& path, const ImportOptions& options, xspace::ColumnarXSpace* columnar,
                               ImportStats* stats = nullptr, std::string_view format = "");
// The same over bytes in memory (gzip or not).
Status ImportTraceBytes(std::string_view bytes, const ImportOptions& options, const ImportOutput& output,
                        ImportStats* stats = nullptr, std::string_view format = "");
inline Status ImportTraceBytes(std::string_view bytes, const ImportOptions& options, xspace::XSpace* space,
                               ImportStats* stats = nullptr, std::string_view format = "") {
  return ImportTraceBytes(bytes, options, ImportOutput{.space = space}, stats, format);
}

// True when `path` is a regular file whose head one of the importers recognises (so
// `stepscope analyze trace.json.gz` can take a trace where a profile is expected).
bool LooksLikeTraceFile(const std::string& path);

}  // namespace stepscope::importers
