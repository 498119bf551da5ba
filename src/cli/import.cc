// `stepscope import <trace>... [--logdir D] [--run R]`: reads traces other profilers
// wrote (PyTorch/Kineto Chrome JSON, TF/JAX trace.json.gz, any Chrome trace JSON) and
// writes them as one TensorBoard-style run, <logdir>/plugins/profile/<run>/<host>.xplane.pb,
// one file per trace. Ranks of one job (Kineto's distributedInfo.rank) become the hosts
// rank0, rank1, ... of that run. Prints what was read, kept and dropped per file.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/cli/batch_memory.h"
#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/cli/import_run_name.h"
#include "src/importers/importer_registry.h"
#include "src/xspace/columnar/columnar_writer.h"
#include "src/xspace/logdir.h"
#include "src/xspace/schema.h"

namespace stepscope::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: stepscope import <trace file>... [flags]\n"
    "\n"
    "Converts trace files into a TensorBoard-style run that every stepscope tool reads:\n"
    "<logdir>/plugins/profile/<run>/<host>.xplane.pb, one host per file. Formats (found by\n"
    "sniffing, .gz or not): PyTorch profiler / Kineto JSON (*.pt.trace.json), TensorFlow or\n"
    "JAX trace viewer JSON (*.trace.json.gz), generic Chrome trace JSON. The host is the\n"
    "trace's rank (\"rank0\") or host name, else the file name. Every event that is not\n"
    "imported is counted with its reason. A file cut short is an error (exit 2) unless\n"
    "--allow_truncated, which imports the events before the cut.\n"
    "\n"
    "flags:\n";

// "rank0.pt.trace.json.gz" -> "rank0": the fallback host name.

struct Counts {
  int steps = 0;
  int device_planes = 0;
  int lines = 0;
};

Counts CountContents(const xspace::ColumnarXSpace& space) {
  Counts counts;
  for (const xspace::ColumnarPlane& plane : space.planes) {
    if (xspace::IsDevicePlaneName(plane.name)) ++counts.device_planes;
    counts.lines += static_cast<int>(plane.lines.size());
    const uint32_t root = plane.stat_index(xspace::StatType::kIsRoot);
    if (root == xspace::ColumnarPlane::kNoStat) continue;
    for (uint32_t i = 0; i < plane.num_stats(); ++i) counts.steps += plane.event_stat(i).metadata_index == root ? 1 : 0;
  }
  return counts;
}

std::string Megabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

}  // namespace

int RunImportCommand(CommandContext& context) {
  std::string logdir = ".";
  std::string run;
  std::string format;
  bool allow_truncated = false;
  FlagSet flags;
  flags.AddString("logdir", &logdir, "where to write the run (plugins/profile/<run>/ below it)");
  flags.AddString("run", &run,
                  "run name (default: named after the trace files, e.g. resnet50_rank for resnet50_rank-0/-1; "
                  "_2, _3, ... when that run exists)");
  flags.AddString("format", &format, "skip sniffing: kineto_json, tf_trace_json or chrome_json",
                  {"", "kineto_json", "tf_trace_json", "chrome_json"});
  flags.AddBool("allow_truncated", &allow_truncated, "import the events before the cut of a truncated file");
  std::vector<std::string> files;
  Status parsed = flags.Parse(context.args, &files);
  if (!parsed.ok()) return ReportUsageError(context.err, "import", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage() << "\nformats:\n";
    for (const importers::TraceImporter* importer : importers::AllImporters()) {
      context.out << "  " << importer->name() << ": " << importer->description() << "\n";
    }
    return kExitOk;
  }
  if (files.empty()) return ReportUsageError(context.err, "import", "expected at least one trace file");
  // One run for all files, named once, after the files (WriteXSpaceToLogdir would name
  // each call anew, by the time).
  if (run.empty()) run = FreshRunName(logdir, RunNameForTraces(files));

  PrepareHeapForInputs(files);
  std::set<std::string> hosts_written;
  for (const std::string& file : files) {
    const auto start = std::chrono::steady_clock::now();
    importers::ImportOptions options;
    options.fallback_host_name = TraceFileStem(file);
    options.allow_truncated = allow_truncated;
    importers::ImportStats stats;
    // Into columns, which are written as they are (columnar_writer.h): the same bytes as
    // the XSpace message would serialize to, without building the message (5-10x the
    // file) or holding its serialization.
    xspace::ColumnarXSpace space;
    Status status = importers::ImportTraceFileColumnar(file, options, &space, &stats, format);
    if (!status.ok()) return ReportError(context.err, file, status);
    std::string host = space.hostnames.empty() ? options.fallback_host_name : space.hostnames[0];
    std::string unique = xspace::SanitizeHostName(host);
    for (int k = 2; hosts_written.count(unique) != 0; ++k) unique = xspace::SanitizeHostName(host) + "_" + std::to_string(k);
    if (unique != xspace::SanitizeHostName(host)) {
      context.err << "stepscope: import: " << file << ": host " << host << " is already in run " << run
                  << "; writing it as " << unique << "\n";
    }
    StatusOr<std::string> written = xspace::PrepareLogdirHostPath(logdir, run, unique);
    if (written.ok()) {
      Status saved = xspace::WriteColumnarXSpaceFile(*written, space);
      if (!saved.ok()) written = saved;
    }
    if (!written.ok()) return ReportError(context.err, file, written.status());
    hosts_written.insert(unique);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Counts counts = CountContents(space);
    context.out << file << " (" << stats.format << ", " << Megabytes(stats.json_bytes) << " JSON) -> " << *written
                << "\n"
                << "  host " << unique << ": " << stats.events_read << " events read, " << stats.events_imported
                << " imported, " << stats.metadata_events << " metadata, " << stats.flow_events << " flow points, "
                << stats.DroppedTotal() << " dropped";
    if (stats.zero_length_device_events > 0) {
      context.out << " (" << stats.zero_length_device_events << " zero-length device events kept)";
    }
    context.out << "\n"
                << "  " << stats.xevents_written << " XEvents on " << counts.lines << " lines, "
                << counts.device_planes << " device planes, " << counts.steps << " steps; " << std::fixed;
    context.out.precision(2);
    context.out << seconds << " s\n";
    for (const std::string& warning : stats.Warnings()) context.out << "  " << warning << "\n";
  }
  return kExitOk;
}

}  // namespace stepscope::cli
