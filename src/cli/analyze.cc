// `stepscope analyze <logdir | run dir | file.xplane.pb> --tool <id|all>`: runs analysis
// tools through the tool registry and prints text (people), JSON (programs) or CSV (one
// table). The same registry serves the HTTP server, so the CLI adds no analysis here:
// only choosing the run and hosts, building the models, and printing.
#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <system_error>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/output/csv_writer.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/tool_registry.h"
#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/xspace/logdir.h"
#if __has_include("src/analysis/model/combine_hosts.h")
#include "src/analysis/model/combine_hosts.h"
#define STEPSCOPE_HAVE_COMBINE_HOSTS 1
#endif

namespace stepscope::cli {
namespace {

namespace fs = std::filesystem;
namespace output = analysis::output;
using analysis::ProfileModel;
using analysis::Tool;
using analysis::ToolResult;

// Reading takes longer than this: say on stderr what is going on, so a user with a
// gigabyte profile does not think the command hangs.
constexpr std::chrono::milliseconds kProgressAfter{1000};

constexpr std::string_view kUsage =
    "usage: stepscope analyze <logdir | run directory | file.xplane.pb[.gz]> [flags]\n"
    "\n"
    "Runs analysis tools on a profile. --tool all (the default) prints the overview page and\n"
    "the advisor. A logdir with several runs: the newest run unless --run. A run with several\n"
    "hosts: all hosts combined unless --host. Formats: text for people, json for programs\n"
    "(fields documented in docs/tools.md), csv for one table (--table NAME).\n"
    "\n"
    "flags:\n";

// The hosts chosen for analysis, and what the user should be told about the choice.
struct Selection {
  std::string subject;  // for error messages: the path given
  std::string run;      // empty for a single file
  std::vector<xspace::HostFile> hosts;
};

std::string JoinHosts(const std::vector<xspace::HostFile>& hosts) {
  std::string out;
  for (const auto& h : hosts) out += (out.empty() ? "" : ", ") + h.host;
  return out;
}

// "worker0.xplane.pb.gz" -> "worker0", as TensorBoard names hosts after their files.
std::string HostFromFileName(const std::string& path) {
  std::string file = fs::path(path).filename().string();
  for (std::string_view suffix : {".xplane.pb.gz", ".xplane.pb"}) {
    if (file.size() > suffix.size() && file.ends_with(suffix)) return file.substr(0, file.size() - suffix.size());
  }
  return file;
}

// Newest = the run whose files were written last; names are free-form (run_name), so
// they do not sort by time in general.
const xspace::RunInfo* NewestRun(const std::vector<xspace::RunInfo>& runs) {
  const xspace::RunInfo* newest = nullptr;
  fs::file_time_type newest_time{};
  for (const xspace::RunInfo& run : runs) {
    fs::file_time_type t{};
    for (const xspace::HostFile& host : run.hosts) {
      std::error_code ec;
      fs::file_time_type ht = fs::last_write_time(host.path, ec);
      if (!ec && ht > t) t = ht;
    }
    if (newest == nullptr || t > newest_time || (t == newest_time && run.name > newest->name)) {
      newest = &run;
      newest_time = t;
    }
  }
  return newest;
}

StatusOr<Selection> SelectHosts(const std::string& path, const std::string& run_flag, const std::string& host_flag,
                                std::ostream& err) {
  Selection sel;
  sel.subject = path;
  auto kind = xspace::ClassifyProfilePath(path);
  if (!kind.ok()) return kind.status();
  if (*kind != xspace::ProfilePathKind::kLogdir && !run_flag.empty()) {
    return InvalidArgumentError("--run applies to a logdir, and " + path + " is a " +
                                (*kind == xspace::ProfilePathKind::kRunDir ? "run directory" : "file"));
  }
  switch (*kind) {
    case xspace::ProfilePathKind::kXSpaceFile:
      sel.hosts.push_back({HostFromFileName(path), path});
      if (!host_flag.empty()) return InvalidArgumentError("--host applies to a run or logdir, not to one file");
      return sel;
    case xspace::ProfilePathKind::kRunDir: {
      auto hosts = xspace::ListHosts(path);
      if (!hosts.ok()) return hosts.status();
      sel.run = fs::path(path).filename().string();
      sel.hosts = std::move(*hosts);
      break;
    }
    case xspace::ProfilePathKind::kLogdir: {
      auto runs = xspace::ListRuns(path);
      if (!runs.ok()) return runs.status();
      const xspace::RunInfo* chosen = nullptr;
      if (!run_flag.empty()) {
        std::string names;
        for (const xspace::RunInfo& run : *runs) {
          if (run.name == run_flag) chosen = &run;
          names += (names.empty() ? "" : ", ") + run.name;
        }
        if (chosen == nullptr) return NotFoundError("no run '" + run_flag + "'; runs: " + names);
      } else {
        chosen = NewestRun(*runs);
        if (runs->size() > 1) {
          err << "stepscope: analyze: " << runs->size() << " runs in " << path << "; using the newest, "
              << chosen->name << " (choose with --run)\n";
        }
      }
      sel.run = chosen->name;
      sel.hosts = chosen->hosts;
      break;
    }
  }
  if (sel.hosts.empty()) return NotFoundError("run " + sel.run + " holds no .xplane.pb files");
  if (!host_flag.empty()) {
    for (const xspace::HostFile& h : sel.hosts) {
      if (h.host == host_flag) {
        sel.hosts = {h};
        return sel;
      }
    }
    return NotFoundError("no host '" + host_flag + "' in run " + sel.run + "; hosts: " + JoinHosts(sel.hosts));
  }
  return sel;
}

// Builds one model per host (combined when there are several), printing a progress line
// on stderr when that takes longer than kProgressAfter.
StatusOr<ProfileModel> BuildModel(const Selection& sel, std::ostream& err) {
  uint64_t total_bytes = 0;
  for (const auto& h : sel.hosts) {
    std::error_code ec;
    total_bytes += fs::file_size(h.path, ec);
  }
  const auto start = std::chrono::steady_clock::now();
  auto job = std::async(std::launch::async, [&sel]() -> StatusOr<ProfileModel> {
    std::vector<ProfileModel> models;
    for (const xspace::HostFile& h : sel.hosts) {
      analysis::ModelOptions options;
      options.hostname = h.host;
      // Tools read the summarised model only; dropping per-event trees halves memory.
      options.keep_event_tree = false;
      auto model = analysis::BuildProfileModelFromFile(h.path, options);
      if (!model.ok()) return model.status().WithContext(h.path);
      models.push_back(std::move(*model));
    }
    if (models.size() == 1) return std::move(models[0]);
#ifdef STEPSCOPE_HAVE_COMBINE_HOSTS
    return analysis::CombineHostModels(std::move(models));
#else
    // The host combiner (analysis/model/combine_hosts.h) has not landed yet.
    return UnimplementedError("the run has " + std::to_string(models.size()) + " hosts (" + JoinHosts(sel.hosts) +
                              ") and combining hosts is not available yet: choose one with --host");
#endif
  });
  if (job.wait_for(kProgressAfter) != std::future_status::ready) {
    err << "stepscope: analyze: reading " << sel.hosts.size() << (sel.hosts.size() == 1 ? " host" : " hosts")
        << " (" << output::FormatFixed(total_bytes / 1048576.0, 1) << " MiB)...\n";
    err.flush();
    StatusOr<ProfileModel> model = job.get();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    err << "stepscope: analyze: model built in " << output::FormatFixed(seconds, 1) << " s\n";
    return model;
  }
  return job.get();
}

struct NamedResult {
  const Tool* tool;
  std::unique_ptr<ToolResult> result;
};

// Finds `name` among the tables of the results; kNotFound listing every table otherwise.
StatusOr<output::Table> FindTable(const std::vector<NamedResult>& results, const std::string& name) {
  std::string known;
  for (const NamedResult& r : results) {
    for (output::Table& table : r.result->Tables()) {
      if (table.name == name) return std::move(table);
      known += (known.empty() ? "" : ", ") + table.name;
    }
  }
  return NotFoundError("no table '" + name + "'; tables: " + known);
}

}  // namespace

int RunAnalyzeCommand(CommandContext& context) {
  std::string tool_id = "all", run, host, format = "text", table;
  bool include_idle = false;
  FlagSet flags;
  flags.AddString("tool", &tool_id, "tool id, or all (overview_page + advisor): " + analysis::ToolIdList());
  flags.AddString("run", &run, "run to analyse in a logdir (default: the newest)");
  flags.AddString("host", &host, "analyse one host of the run (default: all hosts combined)");
  flags.AddString("format", &format, "text for people, json for programs, csv for one table", {"text", "json", "csv"});
  flags.AddString("table", &table, "print only this table (required with --format csv)");
  flags.AddBool("include_idle", &include_idle, "framework_op_stats: count idle time as an IDLE op");
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) {
    context.err << "stepscope: analyze: " << parsed.message() << " (see stepscope help analyze)\n";
    return kExitBadInput;
  }
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage() << "\ntools:\n";
    for (const Tool* tool : analysis::AllTools()) context.out << "  " << tool->id() << ": " << tool->description() << "\n";
    return kExitOk;
  }
  if (positional.size() != 1) {
    context.err << "stepscope: analyze: expected one path (a logdir, run directory or .xplane.pb file), got "
                << positional.size() << " (see stepscope help analyze)\n";
    return kExitBadInput;
  }
  // Validate everything cheap before reading a possibly huge profile.
  std::vector<const Tool*> tools;
  if (tool_id == "all") {
    for (const char* id : {"overview_page", "advisor"}) tools.push_back(*analysis::FindTool(id));
  } else {
    auto tool = analysis::FindTool(tool_id);
    if (!tool.ok()) return ReportError(context.err, "analyze", tool.status());
    tools.push_back(*tool);
  }
  if (format == "csv" && table.empty()) {
    return ReportError(context.err, "analyze", InvalidArgumentError("--format csv prints one table: add --table NAME"));
  }

  const std::string& path = positional[0];
  auto selection = SelectHosts(path, run, host, context.err);
  if (!selection.ok()) return ReportError(context.err, path, selection.status());
  auto model = BuildModel(*selection, context.err);
  if (!model.ok()) return ReportError(context.err, path, model.status());

  analysis::ToolOptions options;
  options.include_idle = include_idle;
  std::vector<NamedResult> results;
  for (const Tool* tool : tools) {
    if (!tool->IsAvailable(*model)) {
      return ReportError(context.err, path,
                         FailedPreconditionError("tool " + std::string(tool->id()) + " does not apply: it needs " +
                                                 std::string(tool->requirement())));
    }
    auto result = tool->Run(*model, options);
    if (!result.ok()) return ReportError(context.err, std::string(tool->id()), result.status());
    results.push_back({tool, std::move(*result)});
  }

  if (!table.empty()) {
    auto found = FindTable(results, table);
    if (!found.ok()) return ReportError(context.err, "analyze", found.status());
    if (format == "csv") {
      context.out << output::TableToCsv(*found);
    } else if (format == "json") {
      std::string json;
      output::JsonWriter writer(&json, output::JsonWriter::Style::kPretty);
      output::WriteTableRowsJson(*found, &writer);
      context.out << json << "\n";
    } else {
      context.out << output::FormatTextTable(*found);
    }
    return kExitOk;
  }
  if (format == "json") {
    if (results.size() == 1) {
      context.out << results[0].result->ToJson(/*pretty=*/true);
    } else {
      std::string json;
      output::JsonWriter writer(&json, output::JsonWriter::Style::kPretty);
      writer.BeginObject();
      for (const NamedResult& r : results) {
        writer.Key(r.tool->id());
        r.result->WriteJson(&writer);
      }
      writer.EndObject();
      context.out << json << "\n";
    }
    return kExitOk;
  }
  std::string hosts = JoinHosts(selection->hosts);
  context.out << "Profile: " << output::SanitizeForTerminal(path)
              << (selection->run.empty() ? "" : "  run " + output::SanitizeForTerminal(selection->run))
              << "  " << (selection->hosts.size() == 1 ? "host " : "hosts ") << output::SanitizeForTerminal(hosts)
              << "\n\n";
  for (size_t i = 0; i < results.size(); ++i) {
    if (i > 0) context.out << "\n";
    context.out << results[i].result->FormatText(options);
  }
  return kExitOk;
}

}  // namespace stepscope::cli
