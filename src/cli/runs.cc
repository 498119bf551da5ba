// `stepscope runs LOGDIR`: the logdir's profiling sessions, with the run directories and hosts
// each is made of. A session assembled from several run directories (src/load/run_sessions.h)
// shows them all; `--separate_runs` lists every run directory on its own, as
// `analyze --separate_runs` reads them. Cheap: it reads no profile, only each file's
// capture window (a few small reads).
#include <string>
#include <vector>

#include "src/analysis/output/schema.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/tool.h"
#include "src/base/clock.h"
#include "src/cli/command.h"
#include "src/cli/command_profile.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/load/run_sessions.h"

namespace stepscope::cli {

// One host file of a session: where it is and when it was recorded.
struct SessionHost {
  std::string session;  // the session's name (its first run's)
  std::string run;      // the run directory the file is in
  std::string host;
  std::string format;   // xspace / trace_json
  int64_t file_bytes = 0;
  std::string window_start;  // local time, YYYY-MM-DD HH:MM:SS
  std::string window_stop;
  std::string window_source;  // task_environment / run_name_and_mtime / mtime
};

struct SessionRow {
  std::string session;
  int64_t runs = 0;
  int64_t hosts = 0;
  int64_t file_bytes = 0;
};

struct RunListing {
  std::string logdir;
  bool assembled = true;
  std::vector<SessionRow> sessions;
  std::vector<SessionHost> hosts;
};

constexpr auto DescribeRecord(std::type_identity<SessionHost>) {
  using R = SessionHost;
  namespace o = analysis::output;
  return o::Record("SessionHost", o::Field("session", &R::session, {.label = "Session"}),
                   o::Field("run", &R::run, {.label = "Run directory"}), o::Field("host", &R::host, {.label = "Host"}),
                   o::Field("format", &R::format, {.label = "Format", .description = "`xspace` or `trace_json`"}),
                   o::Field("file_bytes", &R::file_bytes, {.label = "Bytes", .unit = "bytes"}),
                   o::Field("window_start", &R::window_start,
                            {.label = "Recorded from", .description = "local time the capture began"}),
                   o::Field("window_stop", &R::window_stop, {.label = "to", .description = "local time it ended"}),
                   o::Field("window_source", &R::window_source,
                            {.label = "Window from",
                             .description = "`task_environment` (exact: the XSpace's profile_start_time and "
                                            "profile_stop_time), `run_name_and_mtime` or `mtime`"}));
}

constexpr auto DescribeRecord(std::type_identity<SessionRow>) {
  using R = SessionRow;
  namespace o = analysis::output;
  return o::Record("SessionRow", o::Field("session", &R::session, {.label = "Session"}),
                   o::Field("runs", &R::runs, {.label = "Run directories", .unit = "count"}),
                   o::Field("hosts", &R::hosts, {.label = "Hosts", .unit = "count"}),
                   o::Field("file_bytes", &R::file_bytes, {.label = "Bytes", .unit = "bytes"}));
}

constexpr auto DescribeRecord(std::type_identity<RunListing>) {
  using R = RunListing;
  namespace o = analysis::output;
  return o::Record("RunListing", o::Constant("tool", "runs"), o::Field("logdir", &R::logdir, {}),
                   o::Field("assembled", &R::assembled,
                            {.description = "whether run directories were assembled into sessions"}),
                   o::TableField("sessions", &R::sessions, "Sessions", {.description = "one row per session"}),
                   o::TableField("hosts", &R::hosts, "Hosts", {.description = "one row per host file of each session"}));
}

std::string FormatResultText(const RunListing& listing, const analysis::ToolOptions&) {
  std::vector<analysis::output::Table> tables = analysis::output::RecordTables(listing);
  std::string out;
  for (const analysis::output::Table& table : tables) out += analysis::output::FormatTextTable(table) + "\n";
  return out;
}

namespace {

const char* SourceName(load::WindowSource source) {
  switch (source) {
    case load::WindowSource::kTaskEnvironment: return "task_environment";
    case load::WindowSource::kRunNameAndMtime: return "run_name_and_mtime";
    case load::WindowSource::kMtime: return "mtime";
  }
  return "mtime";
}

std::string LocalTime(int64_t ns) {
  std::string text = base::LocalTimestampString(static_cast<uint64_t>(std::max<int64_t>(0, ns)));
  // YYYY_MM_DD_HH_MM_SS -> YYYY-MM-DD HH:MM:SS
  for (size_t i : {4, 7}) text[i] = '-';
  text[10] = ' ';
  for (size_t i : {13, 16}) text[i] = ':';
  return text;
}

RunListing ListSessions(const std::string& logdir, bool assembled, const std::vector<load::RunProfiles>& runs) {
  RunListing listing{.logdir = logdir, .assembled = assembled};
  for (const load::RunProfiles& session : runs) {
    SessionRow row{.session = session.name,
                   .runs = static_cast<int64_t>(std::max<size_t>(1, session.member_runs.size())),
                   .hosts = static_cast<int64_t>(session.hosts.size())};
    for (const load::HostProfileFile& file : session.hosts) {
      // The run directory a file is in is the last part of its parent path's name.
      std::string run = session.name;
      for (size_t i = 0; i < session.member_paths.size(); ++i) {
        if (file.path.starts_with(session.member_paths[i] + "/")) run = session.member_runs[i];
      }
      const size_t slash = run.rfind('/');
      const load::CaptureWindow window =
          load::ReadCaptureWindow(file, slash == std::string::npos ? run : run.substr(slash + 1));
      listing.hosts.push_back({.session = session.name,
                               .run = run,
                               .host = file.host,
                               .format = file.format == load::ProfileFormat::kXSpace ? "xspace" : "trace_json",
                               .file_bytes = file.size_bytes,
                               .window_start = LocalTime(window.start_ns),
                               .window_stop = LocalTime(window.stop_ns),
                               .window_source = SourceName(window.source)});
      row.file_bytes += file.size_bytes;
    }
    listing.sessions.push_back(std::move(row));
  }
  return listing;
}

constexpr char kUsage[] =
    "usage: stepscope runs <logdir> [--separate_runs] [--format text|json|csv --table sessions|hosts]\n"
    "Lists a logdir's profiling sessions and the run directories and hosts each is made of.\n"
    "Runs that the workers of one job wrote to run directories of their own (each named after\n"
    "its start time) are one session when their capture windows overlap and their hosts differ;\n"
    "every command reads such a session as one run (its name: its first run's; any of its run\n"
    "names selects it). --separate_runs turns that off here and in analyze, check, diff, serve.\n";

}  // namespace

int RunRunsCommand(CommandContext& context) {
  std::string format = "text", table;
  bool separate_runs = false;
  FlagSet flags;
  flags.AddBool("separate_runs", &separate_runs, "list every run directory on its own (no sessions assembled)");
  flags.AddString("format", &format, "text for people, json for programs, csv for one table", {"text", "json", "csv"});
  flags.AddString("table", &table, "print only this table: sessions or hosts (required with --format csv)");
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "runs", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  if (positional.size() != 1) {
    return ReportUsageError(context.err, "runs", "expected one logdir, got " + std::to_string(positional.size()));
  }
  const std::string& logdir = positional[0];
  auto runs = load::ListLogdirRuns(logdir, {.assemble_sessions = !separate_runs});
  if (!runs.ok()) return ReportError(context.err, logdir, runs.status());
  analysis::StructToolResult<RunListing> result(ListSessions(logdir, !separate_runs, *runs));
  if (Status printed = PrintResult(result, format, table, {}, context.out); !printed.ok()) {
    return ReportError(context.err, "runs", printed);
  }
  return kExitOk;
}

}  // namespace stepscope::cli
