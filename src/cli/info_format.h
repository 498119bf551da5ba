// Text and JSON presentation of `stepscope info` results. The JSON keys are a contract
// for scripts and tests (docs/cli.md); text is for people and may change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/analysis/output/json_writer.h"
#include "src/cli/xspace_summary.h"
#include "stepscope/status.h"

namespace stepscope::cli {

// One .xplane.pb file and what reading it gave.
struct FileInfo {
  std::string host;  // file name without ".xplane.pb" (empty for a lone file)
  std::string path;
  uint64_t file_bytes = 0;
  Status status;          // why the file could not be read, when !ok
  XSpaceSummary summary;  // valid when status.ok()
};

struct RunInfoSummary {
  std::string name;
  std::string path;
  std::vector<FileInfo> hosts;
};

// A single file: header block, planes, lines, steps, environment.
std::string FormatFileText(const FileInfo& file);
// A run directory: each host's header block and planes (no per-line detail).
std::string FormatRunText(const std::string& path, const std::vector<FileInfo>& hosts);
// A logdir: one row per (run, host).
std::string FormatLogdirText(const std::string& path, const std::vector<RunInfoSummary>& runs);

void WriteFileJson(const FileInfo& file, bool with_lines, analysis::output::JsonWriter* json);
std::string FormatFileJson(const FileInfo& file);
std::string FormatRunJson(const std::string& path, const std::vector<FileInfo>& hosts);
std::string FormatLogdirJson(const std::string& path, const std::vector<RunInfoSummary>& runs);

// "/device:GPU:0-3,6" for planes "/device:GPU:0".."/device:GPU:3" and "/device:GPU:6".
std::string CompressPlaneNames(const std::vector<std::string>& names);

}  // namespace stepscope::cli
