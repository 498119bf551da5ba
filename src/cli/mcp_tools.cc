#include "src/cli/mcp_tools.h"

#include <cctype>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_options.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/check.h"
#include "src/analysis/tools/diff.h"
#include "src/analysis/trace/event_details.h"
#include "src/analysis/trace/trace_event_list.h"
#include "src/cli/command_profile.h"
#include "src/cli/mcp_tool_args.h"
#include "src/cli/mcp_tool_schemas.h"

namespace stepscope::cli::mcp {
namespace {

using analysis::output::JsonWriter;

constexpr std::string_view kRunUriPrefix = "stepscope://runs/";
constexpr std::string_view kJsonMime = "application/json";
constexpr double kPsPerMs = 1e9;

// ---- The tools ----

// A compact JSON text without ToJson's final newline, to embed in a response.
std::string Embeddable(std::string json) {
  while (!json.empty() && json.back() == '\n') json.pop_back();
  return json;
}

std::string_view FormatName(load::ProfileFormat format) {
  return format == load::ProfileFormat::kXSpace ? "xspace" : "trace_json";
}

// One host of a run as list_runs and the run resource show it.
void WriteHosts(const std::vector<load::HostProfileFile>& files, JsonWriter* w) {
  w->Key("hosts");
  w->BeginArray();
  for (const load::HostProfileFile& file : files) {
    w->BeginObject();
    w->Field("host", file.host);
    const size_t slash = file.path.rfind('/');
    w->Field("file", slash == std::string::npos ? file.path : file.path.substr(slash + 1));
    w->Field("format", FormatName(file.format));
    w->Field("size_bytes", file.size_bytes);
    w->Field("modified_unix_ms", file.mtime_ns / 1'000'000);
    w->EndObject();
  }
  w->EndArray();
}

// The newest run's name (load::SelectRun's choice), "" when there are none.
std::string NewestRunName(const std::vector<load::RunProfiles>& runs) {
  if (runs.empty()) return "";
  StatusOr<load::ResolvedProfile> newest = load::SelectRun(runs, "", "");
  return newest.ok() ? newest->run : "";
}

// The run and host arguments named `run_key` and `host_key`, chosen in the logdir.
StatusOr<load::ResolvedProfile> SelectProfile(McpTools::Context& context, const ToolArgs& args,
                                              std::string_view run_key = "run", std::string_view host_key = "host") {
  StatusOr<std::string> run = args.String(run_key);
  if (!run.ok()) return run.status();
  StatusOr<std::string> host = args.String(host_key);
  if (!host.ok()) return host.status();
  return context.logdir.Select(*run, *host);
}

StatusOr<std::string> ListRuns(McpTools::Context& context, const simdjson::dom::element* arguments) {
  if (StatusOr<ToolArgs> args = ToolArgs::Read(arguments, {}); !args.ok()) return args.status();
  StatusOr<std::vector<load::RunProfiles>> runs = context.logdir.Runs();
  if (!runs.ok()) return runs.status();
  std::string json;
  JsonWriter w(&json);
  w.BeginObject();
  w.Field("logdir", context.logdir.path());
  w.Field("newest", NewestRunName(*runs));
  w.Key("runs");
  w.BeginArray();
  for (const load::RunProfiles& run : *runs) {
    w.BeginObject();
    w.Field("name", run.name);
    w.Field("uri", RunUri(run.name));
    WriteHosts(run.hosts, &w);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json;
}

// The `options` argument read by `tool`'s declarations: kInvalidArgument for an option it
// does not take (naming those it does) or a value its declaration refuses.
StatusOr<analysis::ToolOptions> ReadToolOptions(const analysis::Tool& tool, const ToolArgs& args) {
  analysis::ToolOptions options;
  StatusOr<std::optional<simdjson::dom::object>> given = args.Object("options");
  if (!given.ok()) return given.status();
  if (!*given) return options;
  for (auto field : **given) {
    StatusOr<const analysis::ToolOptionDecl*> found = analysis::FindOptionOf(tool, field.key);
    if (!found.ok()) return found.status();
    const analysis::ToolOptionDecl* option = *found;
    StatusOr<std::string> text = OptionValueText(*option, field.value);
    if (!text.ok()) return text.status();
    if (Status set = option->set(option->name, *text, &options); !set.ok()) return set;
  }
  if (Status valid = analysis::ValidateToolOptions(options, ""); !valid.ok()) return valid;
  return options;
}

// The `step` argument: absent or "all" for every step, else a step number.
StatusOr<std::optional<int64_t>> ReadStep(const ToolArgs& args) {
  const std::optional<simdjson::dom::element> value = args.Raw("step");
  if (!value) return std::optional<int64_t>();
  std::string text;
  if (value->is_string()) {
    text = std::string(std::string_view(value->get_string()));
  } else {
    StatusOr<std::optional<int64_t>> number = args.Int("step");
    if (!number.ok()) return number.status();
    text = std::to_string(**number);
  }
  StatusOr<std::optional<int64_t>> step = analysis::ParseStepSelection(text);
  if (!step.ok()) return InvalidArgumentError("step: " + step.status().message());
  return step;
}

StatusOr<std::string> RunTool(McpTools::Context& context, const simdjson::dom::element* arguments) {
  StatusOr<ToolArgs> args = ToolArgs::Read(arguments, {"tool", "run", "host", "step", "options"});
  if (!args.ok()) return args.status();
  StatusOr<std::string> tool_id = args->String("tool");
  if (!tool_id.ok()) return tool_id.status();
  if (tool_id->empty()) return InvalidArgumentError("tool is required: one of " + analysis::ToolIdList());
  StatusOr<const analysis::Tool*> tool = analysis::FindTool(*tool_id);
  if (!tool.ok()) return tool.status();
  // Everything cheap is checked before a profile is read.
  StatusOr<analysis::ToolOptions> options = ReadToolOptions(**tool, *args);
  if (!options.ok()) return options.status();
  StatusOr<std::optional<int64_t>> step = ReadStep(*args);
  if (!step.ok()) return step.status();
  StatusOr<load::ResolvedProfile> profile = SelectProfile(context, *args);
  if (!profile.ok()) return profile.status();
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> model = context.cache.Model(*profile, *step);
  if (!model.ok()) return model.status();
  if (!(*tool)->IsAvailable(**model)) return analysis::ToolUnavailableError(**tool, **model);
  StatusOr<std::unique_ptr<analysis::ToolResult>> result = (*tool)->Run(**model, *options);
  if (!result.ok()) return result.status();
  return Embeddable((*result)->ToJson(/*pretty=*/false));
}

StatusOr<std::string> Diff(McpTools::Context& context, const simdjson::dom::element* arguments) {
  StatusOr<ToolArgs> args = ToolArgs::Read(arguments, {"run_a", "host_a", "run_b", "host_b"});
  if (!args.ok()) return args.status();
  for (std::string_view required : {"run_a", "run_b"}) {
    if (!args->Has(required)) return InvalidArgumentError(std::string(required) + " is required (list_runs names the runs)");
  }
  StatusOr<load::ResolvedProfile> a = SelectProfile(context, *args, "run_a", "host_a");
  if (!a.ok()) return a.status();
  StatusOr<load::ResolvedProfile> b = SelectProfile(context, *args, "run_b", "host_b");
  if (!b.ok()) return b.status();
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> model_a = context.cache.Model(*a, std::nullopt);
  if (!model_a.ok()) return model_a.status();
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> model_b = context.cache.Model(*b, std::nullopt);
  if (!model_b.ok()) return model_b.status();
  // Labelled as `stepscope diff LOGDIR --run_a A --run_b B` labels them, so the JSON is the same.
  const analysis::DiffOptions options{.label_a = DescribeProfile("", *a), .label_b = DescribeProfile("", *b)};
  return Embeddable(analysis::StructToolResult<analysis::ProfileDiff>(
                        analysis::CompareProfiles(**model_a, **model_b, options))
                        .ToJson(/*pretty=*/false));
}

StatusOr<std::string> Check(McpTools::Context& context, const simdjson::dom::element* arguments) {
  StatusOr<ToolArgs> args = ToolArgs::Read(arguments, {"run", "host", "budgets"});
  if (!args.ok()) return args.status();
  StatusOr<std::vector<std::string>> lines = args->Strings("budgets");
  if (!lines.ok()) return lines.status();
  std::vector<analysis::Budget> budgets;
  for (size_t i = 0; i < lines->size(); ++i) {
    StatusOr<std::vector<analysis::Budget>> parsed = analysis::ParseBudgetFile((*lines)[i]);
    if (!parsed.ok()) return InvalidArgumentError("budgets[" + std::to_string(i) + "]: " + parsed.status().message());
    budgets.insert(budgets.end(), parsed->begin(), parsed->end());
  }
  if (budgets.empty()) {
    return InvalidArgumentError("budgets is required: e.g. [\"step_ms <= 120\", \"input_pct <= 5\"]; keys: " +
                                analysis::BudgetKeyList());
  }
  StatusOr<load::ResolvedProfile> profile = SelectProfile(context, *args);
  if (!profile.ok()) return profile.status();
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> model = context.cache.Model(*profile, std::nullopt);
  if (!model.ok()) return model.status();
  return Embeddable(
      analysis::StructToolResult<analysis::CheckResult>(analysis::CheckBudgets(**model, budgets)).ToJson(false));
}

// A time in ms since the trace's start as trace-time ps; kInvalidArgument past int64's.
StatusOr<int64_t> MsToPs(std::string_view name, double ms) {
  const double ps = std::round(ms * kPsPerMs);
  if (!std::isfinite(ps) || std::abs(ps) >= 9.2e18) {
    return InvalidArgumentError(std::string(name) + " is out of range");
  }
  return static_cast<int64_t>(ps);
}

// The event's stats as one object; a name its metadata and the event both carry keeps
// the event's own value (the later one).
void WriteEventArgs(const analysis::trace::EventDetails& details, JsonWriter* w) {
  using Kind = analysis::trace::DetailStat::Kind;
  w->Key("args");
  w->BeginObject();
  for (size_t i = 0; i < details.stats.size(); ++i) {
    const analysis::trace::DetailStat& stat = details.stats[i];
    bool overridden = false;
    for (size_t j = i + 1; j < details.stats.size(); ++j) overridden = overridden || details.stats[j].name == stat.name;
    if (overridden) continue;
    w->Key(stat.name);
    switch (stat.kind) {
      case Kind::kInt: w->Int(stat.int_value); break;
      case Kind::kUint: w->Uint(stat.uint_value); break;
      case Kind::kDouble: w->Double(stat.double_value); break;
      default: w->String(stat.string_value); break;
    }
  }
  w->EndObject();
}

void WriteListedEvent(const analysis::trace::TraceIndex& index, const analysis::trace::ListedEvent& event,
                      bool include_args, JsonWriter* w) {
  const analysis::trace::TraceTrack& track = index.tracks()[event.track];
  const analysis::trace::TraceSection& section = index.sections()[track.section];
  w->BeginObject();
  w->Field("name", index.EventName(event.track, event.event));
  w->Field("host", section.host);
  w->Field("section", section.name);
  w->Field("thread", track.name);
  w->Field("start_ms", static_cast<double>(event.start_ps) / kPsPerMs);
  w->Field("duration_ms", static_cast<double>(event.duration_ps) / kPsPerMs);
  w->Field("depth", static_cast<int64_t>(event.depth));
  w->Field("track_id", static_cast<int64_t>(event.track));
  w->Field("event_id", static_cast<int64_t>(event.event));
  if (include_args) {
    StatusOr<analysis::trace::EventDetails> details = analysis::trace::GetEventDetails(index, event.track, event.event);
    if (details.ok()) {
      if (!details->long_name.empty()) w->Field("long_name", details->long_name);
      WriteEventArgs(*details, w);
    }
  }
  w->EndObject();
}

StatusOr<std::string> SearchTraceEvents(McpTools::Context& context, const simdjson::dom::element* arguments) {
  StatusOr<ToolArgs> args =
      ToolArgs::Read(arguments, {"run", "host", "query", "start_ms", "end_ms", "limit", "include_args"});
  if (!args.ok()) return args.status();
  analysis::trace::EventListRequest request;
  StatusOr<std::string> query = args->String("query");
  if (!query.ok()) return query.status();
  request.query = *query;
  StatusOr<std::optional<double>> start_ms = args->Number("start_ms");
  if (!start_ms.ok()) return start_ms.status();
  StatusOr<std::optional<double>> end_ms = args->Number("end_ms");
  if (!end_ms.ok()) return end_ms.status();
  if (*start_ms) {
    StatusOr<int64_t> ps = MsToPs("start_ms", **start_ms);
    if (!ps.ok()) return ps.status();
    request.start_ps = *ps;
  }
  if (*end_ms) {
    StatusOr<int64_t> ps = MsToPs("end_ms", **end_ms);
    if (!ps.ok()) return ps.status();
    request.end_ps = *ps;
  }
  StatusOr<std::optional<int64_t>> limit = args->Int("limit");
  if (!limit.ok()) return limit.status();
  const int64_t wanted = limit->value_or(kDefaultSearchLimit);
  if (wanted < 1 || wanted > static_cast<int64_t>(analysis::trace::kMaxListedEvents)) {
    return InvalidArgumentError("limit must be from 1 to " + std::to_string(analysis::trace::kMaxListedEvents) +
                                ", not " + std::to_string(wanted));
  }
  request.limit = static_cast<size_t>(wanted);
  StatusOr<bool> include_args = args->Bool("include_args", true);
  if (!include_args.ok()) return include_args.status();
  StatusOr<load::ResolvedProfile> profile = SelectProfile(context, *args);
  if (!profile.ok()) return profile.status();
  StatusOr<std::shared_ptr<const analysis::trace::TraceIndex>> index = context.cache.TraceIndex(*profile);
  if (!index.ok()) return index.status();
  StatusOr<analysis::trace::EventList> list = analysis::trace::ListEvents(**index, request);
  if (!list.ok()) return list.status();

  std::string json;
  JsonWriter w(&json);
  w.BeginObject();
  w.Field("run", profile->run);
  w.Key("hosts");
  w.BeginArray();
  for (const load::HostProfileFile& file : profile->files) w.String(file.host);
  w.EndArray();
  w.Field("query", request.query);
  w.Field("start_ms", static_cast<double>(request.start_ps) / kPsPerMs);
  w.Field("end_ms", *end_ms ? std::optional<double>(static_cast<double>(request.end_ps) / kPsPerMs) : std::nullopt);
  w.Field("trace_end_ms", static_cast<double>((*index)->end_ps()) / kPsPerMs);
  w.Field("total", list->total);
  w.Field("truncated", list->truncated());
  w.Field("search_truncated", list->search_truncated);
  w.Key("events");
  w.BeginArray();
  for (const analysis::trace::ListedEvent& event : list->events) WriteListedEvent(**index, event, *include_args, &w);
  w.EndArray();
  w.EndObject();
  return json;
}

// ---- The tool table ----

struct ToolEntry {
  std::string_view name;
  std::string_view title;
  std::string (*description)();
  void (*schema)(JsonWriter*);
  StatusOr<std::string> (*call)(McpTools::Context&, const simdjson::dom::element*);
};

// The MCP tools: this table is the only place a tool is wired.
const std::vector<ToolEntry>& Tools() {
  static const std::vector<ToolEntry> tools = {
      {"list_runs", "List runs", ListRunsDescription, WriteListRunsSchema, ListRuns},
      {"run_tool", "Run an analysis tool", RunToolDescription, WriteRunToolSchema, RunTool},
      {"diff", "Compare two runs", DiffDescription, WriteDiffSchema, Diff},
      {"check", "Check performance budgets", CheckDescription, WriteCheckSchema, Check},
      {"search_trace_events", "Search trace events", SearchDescription, WriteSearchSchema, SearchTraceEvents},
  };
  return tools;
}

}  // namespace

std::string RunUri(std::string_view run) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri(kRunUriPrefix);
  for (char c : run) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      uri.push_back(c);
    } else {
      uri += '%';
      uri += kHex[u >> 4];
      uri += kHex[u & 15];
    }
  }
  return uri;
}

McpTools::McpTools(ConfinedLogdir logdir) : context_{std::move(logdir), {}} {}

void McpTools::WriteToolList(JsonWriter* w) const {
  w->BeginArray();
  for (const ToolEntry& tool : Tools()) {
    w->BeginObject();
    w->Field("name", tool.name);
    w->Field("title", tool.title);
    w->Field("description", tool.description());
    tool.schema(w);
    // Every tool only reads the logdir (MCP's tool annotations; hints for clients).
    w->Key("annotations");
    w->BeginObject();
    w->Field("readOnlyHint", true);
    w->Field("openWorldHint", false);
    w->EndObject();
    w->EndObject();
  }
  w->EndArray();
}

bool McpTools::HasTool(std::string_view name) const {
  for (const ToolEntry& tool : Tools()) {
    if (tool.name == name) return true;
  }
  return false;
}

StatusOr<std::string> McpTools::Call(std::string_view name, const simdjson::dom::element* arguments) {
  for (const ToolEntry& tool : Tools()) {
    if (tool.name == name) return tool.call(context_, arguments);
  }
  return NotFoundError("no tool '" + std::string(name) + "'");
}

Status McpTools::WriteResourceList(JsonWriter* w) const {
  StatusOr<std::vector<load::RunProfiles>> runs = context_.logdir.Runs();
  if (!runs.ok()) return runs.status();
  const std::string newest = NewestRunName(*runs);
  w->BeginArray();
  for (const load::RunProfiles& run : *runs) {
    std::string hosts;
    for (const load::HostProfileFile& file : run.hosts) hosts += (hosts.empty() ? "" : ", ") + file.host;
    w->BeginObject();
    w->Field("uri", RunUri(run.name));
    w->Field("name", run.name);
    w->Field("title", "Profile run " + run.name);
    w->Field("description", std::to_string(run.hosts.size()) + (run.hosts.size() == 1 ? " host: " : " hosts: ") +
                                hosts + (run.name == newest ? " (the newest run)" : ""));
    w->Field("mimeType", kJsonMime);
    w->EndObject();
  }
  w->EndArray();
  return OkStatus();
}

void McpTools::WriteResourceTemplates(JsonWriter* w) const {
  w->BeginArray();
  w->BeginObject();
  w->Field("uriTemplate", std::string(kRunUriPrefix) + "{run}");
  w->Field("name", "run");
  w->Field("title", "Profile run");
  w->Field("description", "A run of the logdir by name (list_runs): its hosts and files, step count and the analysis "
                          "tools that apply to it");
  w->Field("mimeType", kJsonMime);
  w->EndObject();
  w->EndArray();
}

StatusOr<std::string> McpTools::ReadResource(std::string_view uri) {
  StatusOr<std::vector<load::RunProfiles>> runs = context_.logdir.Runs();
  if (!runs.ok()) return runs.status();
  const load::RunProfiles* found = nullptr;
  for (const load::RunProfiles& run : *runs) found = RunUri(run.name) == uri ? &run : found;
  if (found == nullptr) return NotFoundError("no resource " + std::string(uri) + " (resources/list names the runs)");
  StatusOr<load::ResolvedProfile> profile = load::SelectRun(*runs, found->name, "");
  if (!profile.ok()) return profile.status();

  std::string json;
  JsonWriter w(&json);
  w.BeginObject();
  w.Field("run", found->name);
  w.Field("uri", RunUri(found->name));
  w.Field("newest", found->name == NewestRunName(*runs));
  WriteHosts(found->hosts, &w);
  // The model (all hosts) says the rest; it stays cached for the tools asked next.
  StatusOr<std::shared_ptr<const analysis::ProfileModel>> model = context_.cache.Model(*profile, std::nullopt);
  if (!model.ok()) {
    w.Field("error", model.status().message());
  } else {
    w.Field("steps", static_cast<int64_t>((*model)->steps.size()));
    w.Key("available_tools");
    w.BeginArray();
    for (const analysis::Tool* tool : analysis::AvailableTools(**model)) w.String(tool->id());
    w.EndArray();
  }
  w.EndObject();
  return json;
}

}  // namespace stepscope::cli::mcp
