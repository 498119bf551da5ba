// `stepscope summarize <host file | run directory | logdir> [--shard I/N]`: writes each host's
// summary (src/load/summary_cache.h), the map of a multi-host analysis, so that any job
// runner can run it: a Slurm job array or a Kubernetes Indexed Job gives each task its
// index, and the tasks' summaries are what `analyze`, `serve`, `diff` and `check` then read.
#include <algorithm>
#include <chrono>
#include <charconv>
#include <string>
#include <vector>

#include "src/analysis/output/schema.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/tool.h"
#include "src/base/cores.h"
#include "src/base/map_in_order.h"
#include "src/cli/batch_memory.h"
#include "src/cli/command.h"
#include "src/cli/command_profile.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/load/summary_cache.h"

namespace stepscope::cli {

// One host file summarised.
struct SummarizedRow {
  std::string run;
  std::string host;
  std::string state;  // current / built / rebuilt_stale / rebuilt_corrupt / failed
  int64_t file_bytes = 0;
  int64_t summary_bytes = 0;
  double seconds = 0;
  std::string summary_path;
  std::string note;
};

struct SummarizeResult {
  int64_t shard = 0;
  int64_t shards = 1;
  int64_t hosts = 0;   // in this shard
  int64_t failed = 0;  // hosts that could not be read
  std::vector<SummarizedRow> rows;
};

constexpr auto DescribeRecord(std::type_identity<SummarizedRow>) {
  using R = SummarizedRow;
  namespace o = analysis::output;
  return o::Record(
      "SummarizedRow", o::Field("run", &R::run, {.label = "Run"}), o::Field("host", &R::host, {.label = "Host"}),
      o::Field("state", &R::state,
               {.label = "Summary",
                .description = "`current` (used as it was), `built` (none yet), `rebuilt_stale` (the file changed "
                               "or another format version), `rebuilt_corrupt`, `failed` (the host could not be read)"}),
      o::Field("file_bytes", &R::file_bytes, {.label = "File", .unit = "bytes"}),
      o::Field("summary_bytes", &R::summary_bytes, {.label = "Summary", .unit = "bytes"}),
      o::Field("seconds", &R::seconds, {.label = "Time", .unit = "s", .decimals = 3}),
      o::Field("summary_path", &R::summary_path, {.label = "Path"}),
      o::Field("note", &R::note, {.label = "Note", .description = "why a summary was rebuilt, or the error"}));
}

constexpr auto DescribeRecord(std::type_identity<SummarizeResult>) {
  using R = SummarizeResult;
  namespace o = analysis::output;
  return o::Record("SummarizeResult", o::Constant("tool", "summarize"),
                   o::Field("shard", &R::shard, {.description = "this shard's index (--shard I/N), from 0"}),
                   o::Field("shards", &R::shards, {.description = "N of --shard I/N"}),
                   o::Field("hosts", &R::hosts, {.description = "host files in this shard"}),
                   o::Field("failed", &R::failed, {.description = "host files that could not be read"}),
                   o::TableField("summaries", &R::rows, "Summaries", {.description = "one row per host file"}));
}

std::string FormatResultText(const SummarizeResult& result, const analysis::ToolOptions&) {
  std::string out;
  for (const analysis::output::Table& table : analysis::output::RecordTables(result)) {
    out += analysis::output::FormatTextTable(table) + "\n";
  }
  out += std::to_string(result.hosts) + " host" + (result.hosts == 1 ? "" : "s") + " in shard " +
         std::to_string(result.shard) + "/" + std::to_string(result.shards) +
         (result.failed > 0 ? ", " + std::to_string(result.failed) + " failed" : "") + "\n";
  return out;
}

namespace {

constexpr char kUsage[] =
    "usage: stepscope summarize <host file | run directory | logdir> [--shard I/N] [--cache_dir DIR]\n"
    "Writes each host's summary: what the multi-host analyses read (steps and their breakdowns,\n"
    "op and kernel stats, input ops, collectives, memory, tf.data, device counters), beside\n"
    "the host's file (or in the cache directory when that is read-only). A current summary is\n"
    "kept; a stale or corrupt one is rebuilt. --shard I/N takes every N-th host from the I-th\n"
    "(hosts in path order), so N processes (a Slurm job array, a Kubernetes Indexed Job) share\n"
    "the work. A logdir means every host of every run. Exit 2 when a host could not be read\n"
    "(the others are summarised).\n";

struct Shard {
  int64_t index = 0;
  int64_t count = 1;
};

Status ParseShard(const std::string& text, Shard* shard) {
  const size_t slash = text.find('/');
  auto number = [](std::string_view s, int64_t* out) {
    auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return error == std::errc() && end == s.data() + s.size();
  };
  if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), &shard->index) ||
      !number(std::string_view(text).substr(slash + 1), &shard->count) || shard->count < 1 || shard->index < 0 ||
      shard->index >= shard->count) {
    return InvalidArgumentError("--shard: I/N with 0 <= I < N is expected, not '" + text + "'");
  }
  return OkStatus();
}

SummarizedRow SummarizeOne(const load::HostInRun& host, const load::SummaryOptions& options) {
  SummarizedRow row{.run = host.run, .host = host.file.host, .file_bytes = host.file.size_bytes};
  const auto start = std::chrono::steady_clock::now();
  StatusOr<load::SummarizedHost> summarized = load::SummarizeHost(host.file, options);
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!summarized.ok()) {
    row.state = "failed";
    row.note = summarized.status().ToString();
    return row;
  }
  row.state = load::SummaryStateName(summarized->found);
  row.summary_bytes = summarized->summary_bytes;
  row.summary_path = summarized->summary_path;
  row.note = summarized->note;
  return row;
}

// The paths of the `count` largest host files.
std::vector<std::string> LargestPaths(std::vector<const load::HostInRun*> hosts, size_t count) {
  std::sort(hosts.begin(), hosts.end(), [](const load::HostInRun* a, const load::HostInRun* b) {
    return a->file.size_bytes > b->file.size_bytes;
  });
  std::vector<std::string> paths;
  for (size_t i = 0; i < std::min(count, hosts.size()); ++i) paths.push_back(hosts[i]->file.path);
  return paths;
}

}  // namespace

int RunSummarizeCommand(CommandContext& context) {
  std::string shard_text = "0/1", format = "text", table;
  load::SummaryOptions options;
  FlagSet flags;
  flags.AddString("shard", &shard_text, "I/N: summarise every N-th host from the I-th (from 0)");
  flags.AddString("cache_dir", &options.cache_dir,
                  "where summaries go when a run directory is read-only (default: $STEPSCOPE_CACHE_DIR, "
                  "$XDG_CACHE_HOME/stepscope or ~/.cache/stepscope)");
  flags.AddString("format", &format, "text for people, json for programs, csv for the table", {"text", "json", "csv"});
  flags.AddString("table", &table, "print only this table (summaries; required with --format csv)");
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "summarize", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  if (positional.size() != 1) {
    return ReportUsageError(context.err, "summarize", "expected one path, got " + std::to_string(positional.size()));
  }
  Shard shard;
  if (Status valid = ParseShard(shard_text, &shard); !valid.ok()) {
    return ReportUsageError(context.err, "summarize", valid.message());
  }
  auto hosts = load::ListHostFiles(positional[0]);
  if (!hosts.ok()) return ReportError(context.err, positional[0], hosts.status());

  std::vector<const load::HostInRun*> mine;
  for (size_t i = static_cast<size_t>(shard.index); i < hosts->size(); i += static_cast<size_t>(shard.count)) {
    mine.push_back(&(*hosts)[i]);
  }
  // Hosts on every core, a host a core at a time (as `analyze` reads a run), reported in
  // path order; the heap is prepared for the largest hosts that can be read at once.
  const int cores = std::max(1, base::UsableCores());
  PrepareHeapForInputs(LargestPaths(mine, static_cast<size_t>(cores)));
  SummarizeResult result{.shard = shard.index, .shards = shard.count};
  base::MapInOrder<SummarizedRow>(
      mine.size(), cores, 2 * static_cast<size_t>(cores), [&](size_t i) { return SummarizeOne(*mine[i], options); },
      [&](size_t i, SummarizedRow row) {
        if (row.state == "failed") {
          ++result.failed;
          context.err << "stepscope: summarize: " << mine[i]->file.path << ": " << row.note << "\n";
        }
        result.rows.push_back(std::move(row));
        return true;
      });
  result.hosts = static_cast<int64_t>(result.rows.size());
  analysis::StructToolResult<SummarizeResult> printed(std::move(result));
  if (Status written = PrintResult(printed, format, table, {}, context.out); !written.ok()) {
    return ReportError(context.err, "summarize", written);
  }
  return printed.value().failed > 0 ? kExitBadInput : kExitOk;
}

}  // namespace stepscope::cli
