// `stepscope convert <profile> --to chrome|perfetto -o out.json[.gz]`: the whole trace
// as Chrome trace-event JSON (chrome://tracing) or Perfetto-flavoured JSON
// (ui.perfetto.dev), streamed to the file (gzip when it ends in .gz), so traces far past
// those viewers' limits convert without holding the JSON in memory. The trace viewer's
// index (src/analysis/trace) does the work; the server's /api/trace/export is the same.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "src/analysis/trace/trace_export.h"
#include "src/base/output_file.h"
#include "src/cli/batch_memory.h"
#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/load/profile_loader.h"
#include "src/load/trace_index_loader.h"

namespace stepscope::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: stepscope convert <logdir | run directory | file.xplane.pb[.gz] | trace.json[.gz]> --to FORMAT -o OUT\n"
    "\n"
    "Writes the profile's timeline as JSON for other trace viewers: --to chrome for\n"
    "chrome://tracing (flows as s/f events), --to perfetto for ui.perfetto.dev (flows bound\n"
    "to the events). OUT ending in .gz is gzip-compressed. A logdir with several runs: the\n"
    "newest unless --run; a run with several hosts: all of them side by side unless --host.\n"
    "Every event is kept (no 1 M-event cap); note that those viewers themselves struggle\n"
    "past a few million events, which stepscope's own trace viewer (stepscope serve) does not.\n"
    "\n"
    "flags:\n";

std::string Megabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

}  // namespace

int RunConvertCommand(CommandContext& context) {
  std::string to, out_path, run, host;
  FlagSet flags;
  flags.AddString("to", &to, "output format", {"chrome", "perfetto"});
  flags.AddString("output", &out_path, "output file (.json, or .json.gz for gzip)");
  // -o is the spelling people expect from compilers and converters.
  flags.AddShortName("output", 'o');
  flags.AddString("run", &run, "run to convert in a logdir (default: the newest)");
  flags.AddString("host", &host, "convert one host of the run (default: all hosts)");
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "convert", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  if (positional.size() != 1) {
    return ReportUsageError(context.err, "convert", "expected one profile path, got " + std::to_string(positional.size()));
  }
  if (to.empty()) return ReportError(context.err, "convert", InvalidArgumentError("--to chrome|perfetto is required"));
  if (out_path.empty()) return ReportError(context.err, "convert", InvalidArgumentError("-o OUTPUT (.json or .json.gz) is required"));
  auto format = analysis::trace::ParseExportFormat(to);
  if (!format.ok()) return ReportError(context.err, "convert", format.status());

  const std::string& path = positional[0];
  auto profile = load::ResolveProfile({.path = path, .run = run, .host = host});
  if (!profile.ok()) return ReportError(context.err, path, profile.status());
  const auto start = std::chrono::steady_clock::now();
  PrepareHeapForInputs(load::ProfilePaths(*profile));
  auto index = load::LoadTraceIndex(profile->files);
  if (!index.ok()) return ReportError(context.err, path, index.status());
  auto file = base::OutputFile::Open(out_path);
  if (!file.ok()) return ReportError(context.err, out_path, file.status());
  auto stats = analysis::trace::ExportTraceJson(*index, *format, [&file](std::string_view piece) {
    return (*file)->Write(piece);
  });
  Status closed = (*file)->Close();
  if (!closed.ok()) return ReportError(context.err, out_path, closed);
  if (!stats.ok()) return ReportError(context.err, out_path, stats.status());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char line[256];
  std::snprintf(line, sizeof(line), "%llu events, %llu flow events, %s of JSON in %.1f s",
                static_cast<unsigned long long>(stats->events), static_cast<unsigned long long>(stats->flow_events),
                Megabytes(stats->bytes).c_str(), seconds);
  context.out << "wrote " << out_path << " (" << to << "): " << line << "\n";
  return kExitOk;
}

}  // namespace stepscope::cli
