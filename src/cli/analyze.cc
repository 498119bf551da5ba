// `stepscope analyze <logdir | run dir | file.xplane.pb> --tool <id|all>`: runs analysis
// tools through the tool registry and prints text (people), JSON (programs) or CSV (one
// table). The HTTP server uses the same tool registry and the same loader (src/load: run
// and host selection, model building), so the CLI adds nothing of its own but printing.
#include <memory>
#include <string>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tool_options.h"
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

// One flag per declared tool option (analysis/tool_options.h), its help naming the tools
// that read it. Booleans go to `bools` (one per option, applied after parsing).
void AddToolOptionFlags(FlagSet* flags, analysis::ToolOptions* options, bool* bools) {
  flags->StartSection("tool options");
  const std::vector<analysis::ToolOptionDecl>& declared = analysis::AllToolOptions();
  for (size_t i = 0; i < declared.size(); ++i) {
    const analysis::ToolOptionDecl& option = declared[i];
    std::string tools;
    for (const Tool* tool : analysis::AllTools()) {
      for (std::string_view name : tool->option_names()) {
        if (name == option.name) tools += (tools.empty() ? "" : ", ") + std::string(tool->id());
      }
    }
    std::string help = tools + ": " + std::string(option.help);
    if (option.kind == analysis::OptionKind::kBool) {
      flags->AddBool(std::string(option.name), &bools[i], help);
      continue;
    }
    flags->AddCustom(std::string(option.name), std::string(option.value_name), help, std::string(option.default_text),
                     [&option, options](const std::string& text) {
                       return option.set("--" + std::string(option.name), text, options);
                     });
  }
}

}  // namespace

int RunAnalyzeCommand(CommandContext& context) {
  std::string tool_id = "all", run, host, format = "text", table;
  FlagSet flags;
  flags.AddString("tool", &tool_id, "tool id, or all (overview_page + advisor): " + analysis::ToolIdList());
  flags.AddString("run", &run, "run to analyse in a logdir (default: the newest)");
  flags.AddString("host", &host, "analyse one host of the run (default: all hosts combined)");
  bool separate_runs = false;
  flags.AddBool("separate_runs", &separate_runs, "read every run directory of the logdir on its own (no sessions assembled; see stepscope runs)");
  flags.AddString("format", &format, "text for people, json for programs, csv for one table", {"text", "json", "csv"});
  flags.AddString("table", &table, "print only this table (required with --format csv)");
  std::string step_text;
  flags.AddString("step", &step_text, "analyse one step: its step number (default: all steps, also 'all')");
  analysis::ToolOptions options;
  std::unique_ptr<bool[]> bool_options(new bool[analysis::AllToolOptions().size()]());
  AddToolOptionFlags(&flags, &options, bool_options.get());
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
  for (size_t i = 0; i < analysis::AllToolOptions().size(); ++i) {
    const analysis::ToolOptionDecl& option = analysis::AllToolOptions()[i];
    Status set = bool_options[i] ? option.set("--" + std::string(option.name), "1", &options) : OkStatus();
    if (!set.ok()) return ReportUsageError(context.err, "analyze", set.message());
  }
  if (Status valid = analysis::ValidateToolOptions(options, "--"); !valid.ok()) {
    return ReportUsageError(context.err, "analyze", valid.message());
  }
  if (format == "csv" && table.empty()) {
    return ReportError(context.err, "analyze", InvalidArgumentError("--format csv prints one table: add --table NAME"));
  }

  const std::string& path = positional[0];
  auto profile = LoadCommandProfile(
      "analyze",
      {.path = path,
       .run = run,
       .host = host,
       .model_options = model_options,
       .list_options = {.assemble_sessions = !separate_runs}},
      "--run", context.err);
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
