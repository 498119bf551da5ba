// `stepscope analyze <logdir | run dir | file.xplane.pb> --tool <id|all>`: runs analysis
// tools through the tool registry and prints text (people), JSON (programs) or CSV (one
// table). The HTTP server uses the same tool registry and the same loader (src/load: run
// and host selection, model building), so the CLI adds nothing of its own but printing.
#include <charconv>
#include <string>
#include <tuple>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/graph_viewer.h"
#include "src/analysis/tools/multi_gpu_options.h"
#include "src/cli/command.h"
#include "src/cli/command_profile.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/load/profile_loader.h"

namespace stepscope::cli {
namespace {

namespace output = analysis::output;
using analysis::ProfileModel;
using analysis::Tool;
using analysis::ToolResult;

constexpr std::string_view kUsage =
    "usage: stepscope analyze <logdir | run directory | file.xplane.pb[.gz]> [flags]\n"
    "\n"
    "Runs analysis tools on a profile. --tool all (the default) prints the overview page and\n"
    "the advisor. A logdir with several runs: the newest run unless --run. A run with several\n"
    "hosts: all hosts combined unless --host. Formats: text for people, json for programs\n"
    "(fields documented in docs/tools.md), csv for one table (--table NAME).\n"
    "\n"
    "flags:\n";

std::string JoinHosts(const std::vector<load::HostProfileFile>& files) {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + f.host;
  return out;
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
  std::string step_text;
  flags.AddString("step", &step_text, "analyse one step: its step number (default: all steps, also 'all')");
  std::string parameters_text;
  flags.AddString("parameters", &parameters_text,
                  "multi_gpu: the model's parameter count, for the estimate parameters x 4 B / link bandwidth "
                  "(default: the all-reduce bytes / 4)");
  std::string link_gbps_text;
  flags.AddString("link_gbps", &link_gbps_text,
                  "multi_gpu: the GPUs' link bandwidth in GB/s, one direction (default: a table by GPU model)");
  std::string start_text, end_text;
  flags.AddString("start_ps", &start_text, "memory_profile: only memory events at or after this time (ps) set the peak");
  flags.AddString("end_ps", &end_text, "memory_profile: only memory events at or before this time (ps) set the peak");
  analysis::ToolOptions hlo_options;
  flags.AddString("module", &hlo_options.module,
                  "memory_viewer, graph_viewer: the XLA module, as name(id), name or id (default: the largest)");
  flags.AddString("op", &hlo_options.op, "graph_viewer: the HLO op to centre on (default: the entry's root)");
  flags.AddInt("hops", &hlo_options.hops, "graph_viewer: operand/user hops around the op", 0, analysis::kGraphMaxHops);
  flags.AddInt("max_nodes", &hlo_options.max_nodes, "graph_viewer: the most ops shown", 1,
               analysis::kGraphMaxNodesLimit);
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "analyze", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage() << "\ntools:\n";
    for (const Tool* tool : analysis::AllTools()) context.out << "  " << tool->id() << ": " << tool->description() << "\n";
    return kExitOk;
  }
  if (positional.size() != 1) {
    return ReportUsageError(context.err, "analyze",
                            "expected one path (a logdir, run directory or .xplane.pb file), got " +
                                std::to_string(positional.size()));
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
  analysis::ModelOptions model_options;
  auto step = analysis::ParseStepSelection(step_text);
  if (!step.ok()) return ReportUsageError(context.err, "analyze", "--step: " + step.status().message());
  model_options.step = *step;
  analysis::ToolOptions options = hlo_options;
  options.include_idle = include_idle;
  for (auto [flag, text, bound] : {std::tuple{"--start_ps", &start_text, &options.start_ps},
                                   std::tuple{"--end_ps", &end_text, &options.end_ps}}) {
    if (text->empty()) continue;
    int64_t ps = 0;
    auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), ps);
    if (error != std::errc() || end != text->data() + text->size()) {
      return ReportUsageError(context.err, "analyze",
                              std::string(flag) + " takes a time in picoseconds, not '" + *text + "'");
    }
    *bound = ps;
  }
  if (options.start_ps && options.end_ps && *options.start_ps > *options.end_ps) {
    return ReportUsageError(context.err, "analyze", "--start_ps is after --end_ps");
  }
  if (!parameters_text.empty()) {
    auto count = analysis::ParseParameterCount("--parameters", parameters_text);
    if (!count.ok()) return ReportUsageError(context.err, "analyze", count.status().message());
    options.parameter_count = *count;
  }
  if (!link_gbps_text.empty()) {
    auto gbps = analysis::ParseLinkGbps("--link_gbps", link_gbps_text);
    if (!gbps.ok()) return ReportUsageError(context.err, "analyze", gbps.status().message());
    options.link_bandwidth_gbps = *gbps;
  }
  if (format == "csv" && table.empty()) {
    return ReportError(context.err, "analyze", InvalidArgumentError("--format csv prints one table: add --table NAME"));
  }

  const std::string& path = positional[0];
  auto profile = LoadCommandProfile(
      "analyze", {.path = path, .run = run, .host = host, .model_options = model_options}, "--run", context.err);
  if (!profile.ok()) return ReportError(context.err, path, profile.status());
  const ProfileModel* model = &profile->model;

  std::vector<NamedResult> results;
  for (const Tool* tool : tools) {
    if (!tool->IsAvailable(*model)) return ReportError(context.err, path, analysis::ToolUnavailableError(*tool, *model));
    auto result = tool->Run(*model, options);
    if (!result.ok()) return ReportError(context.err, std::string(tool->id()), result.status());
    results.push_back({tool, std::move(*result)});
  }

  if (!table.empty()) {
    auto found = FindTable(results, table);
    if (!found.ok()) return ReportError(context.err, "analyze", found.status());
    context.out << output::FormatOneTable(*found, format);
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
  context.out << "Profile: " << output::SanitizeForTerminal(path)
              << (profile->resolved.run.empty() ? "" : "  run " + output::SanitizeForTerminal(profile->resolved.run))
              << "  " << (profile->resolved.files.size() == 1 ? "host " : "hosts ")
              << output::SanitizeForTerminal(JoinHosts(profile->resolved.files)) << "\n\n";
  for (size_t i = 0; i < results.size(); ++i) {
    if (i > 0) context.out << "\n";
    context.out << results[i].result->FormatText(options);
  }
  return kExitOk;
}

}  // namespace stepscope::cli
