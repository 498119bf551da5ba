// `stepscope info <logdir | run dir | file.xplane.pb[.gz] | trace.json[.gz]>`: what a profile holds.
//
// Every file is read in full as analyze, convert and serve read it (load::
// ReadProfileFileColumnar: XSpace through the streaming reader, with the same limits, gzip
// rules and refusals; trace JSON through the importers), so info is also the quickest way
// to tell whether a file is usable by the other commands.
#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/cli/info_format.h"
#include "src/load/trace_import.h"
#include "src/xspace/logdir.h"
#include "src/xspace/columnar/columnar_reader.h"

namespace stepscope::cli {
namespace {

// The readers' own sanity bound (read_rules.h), in MiB: the default and the largest value.
constexpr int64_t kMaxProfileMiB = static_cast<int64_t>(xspace::kMaxProfileFileBytes >> 20);

constexpr std::string_view kUsage =
    "usage: stepscope info <logdir | run directory | file.xplane.pb[.gz] | trace.json[.gz]> [flags]\n"
    "\n"
    "Summarizes a profile. For a file: hosts, planes, lines, event counts, steps found\n"
    "(host events with an _r stat, TraceContext, device Steps lines), dropped events and\n"
    "the run environment. For a run directory: each host's summary. For a logdir: one\n"
    "row per run and host.\n"
    "\n"
    "flags:\n";

FileInfo LoadFile(const std::string& host, const std::string& path, const xspace::ColumnarReadOptions& options) {
  FileInfo file;
  file.host = host;
  file.path = path;
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(path, ec);
  file.file_bytes = ec ? 0 : static_cast<uint64_t>(size);
  auto space = load::ReadProfileFileColumnar(path, options);
  if (!space.ok()) {
    file.status = space.status();
    return file;
  }
  file.summary = SummarizeXSpace(*space);
  return file;
}

// Reports every unreadable file (one line each) and returns the exit code.
int ReportUnreadable(const std::vector<FileInfo>& files, std::ostream& err) {
  int exit_code = kExitOk;
  for (const FileInfo& file : files) {
    if (file.status.ok()) continue;
    int code = ReportError(err, file.path, file.status);
    if (exit_code == kExitOk || code == kExitInternalError) exit_code = code;
  }
  return exit_code;
}

}  // namespace

int RunInfoCommand(CommandContext& context) {
  std::string format = "text";
  int64_t max_mib = kMaxProfileMiB;
  FlagSet flags;
  flags.AddString("format", &format, "output format; json is for scripts", {"text", "json"});
  flags.AddInt("max_file_mb", &max_mib, "largest profile to read, in MiB, after gunzip", 1, kMaxProfileMiB);
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "info", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  if (positional.size() != 1) {
    return ReportUsageError(context.err, "info",
                            "expected one path (a logdir, run directory or .xplane.pb file), got " +
                                std::to_string(positional.size()));
  }
  const std::string& path = positional[0];
  const bool json = format == "json";
  xspace::ColumnarReadOptions read_options;
  xspace::ReadLimits& limits = read_options.limits;
  limits.max_file_bytes = static_cast<uint64_t>(max_mib) << 20;
  limits.inflate.max_output_bytes = std::min(limits.inflate.max_output_bytes, limits.max_file_bytes);

  auto kind = xspace::ClassifyProfilePath(path);
  if (!kind.ok()) {
    std::error_code ec;
    if (kind.status().code() == StatusCode::kInvalidArgument && std::filesystem::is_directory(path, ec)) {
      return ReportError(context.err, path,
                         InvalidArgumentError("holds no profile (expected a logdir with plugins/profile/<run>/, "
                                              "a run directory with *.xplane.pb files, or an .xplane.pb file)"));
    }
    return ReportError(context.err, path, kind.status());
  }

  switch (*kind) {
    case xspace::ProfilePathKind::kXSpaceFile: {
      FileInfo file = LoadFile("", path, read_options);
      if (!file.status.ok()) return ReportError(context.err, path, file.status);
      context.out << (json ? FormatFileJson(file) : FormatFileText(file));
      return kExitOk;
    }
    case xspace::ProfilePathKind::kRunDir: {
      auto hosts = xspace::ListHosts(path);
      if (!hosts.ok()) return ReportError(context.err, path, hosts.status());
      std::vector<FileInfo> files;
      for (const xspace::HostFile& host : *hosts) files.push_back(LoadFile(host.host, host.path, read_options));
      context.out << (json ? FormatRunJson(path, files) : FormatRunText(path, files));
      return ReportUnreadable(files, context.err);
    }
    case xspace::ProfilePathKind::kLogdir: {
      auto runs = xspace::ListRuns(path);
      if (!runs.ok()) return ReportError(context.err, path, runs.status());
      std::vector<RunInfoSummary> summaries;
      std::vector<FileInfo> all_files;
      for (const xspace::RunInfo& run : *runs) {
        RunInfoSummary summary{run.name, run.path, {}};
        for (const xspace::HostFile& host : run.hosts) {
          FileInfo file = LoadFile(host.host, host.path, read_options);
          // The logdir view keeps totals only; drop per-line detail early.
          for (PlaneSummary& plane : file.summary.planes) plane.lines.clear();
          summary.hosts.push_back(std::move(file));
        }
        summaries.push_back(std::move(summary));
      }
      context.out << (json ? FormatLogdirJson(path, summaries) : FormatLogdirText(path, summaries));
      for (const RunInfoSummary& run : summaries) {
        all_files.insert(all_files.end(), run.hosts.begin(), run.hosts.end());
      }
      return ReportUnreadable(all_files, context.err);
    }
  }
  return ReportError(context.err, path, InternalError("unhandled profile path kind"));
}

}  // namespace stepscope::cli
