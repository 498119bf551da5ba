#include "src/cli/mcp_tool_schemas.h"

#include <initializer_list>
#include <string>
#include <utility>

#include "src/analysis/tool_options.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/check.h"
#include "src/analysis/trace/trace_event_list.h"
#include "src/cli/mcp_tool_args.h"

namespace stepscope::cli::mcp {
namespace {

using analysis::output::JsonWriter;

void StringProperty(JsonWriter* w, std::string_view name, std::string_view description) {
  w->Key(name);
  w->BeginObject();
  w->Field("type", "string");
  w->Field("description", description);
  w->EndObject();
}

void RunProperties(JsonWriter* w, std::string_view run = "run", std::string_view host = "host",
                   std::string_view side = "") {
  StringProperty(w, run,
                 std::string(side) + "run name, as list_runs gives it (default: the newest run, whose files were "
                                     "written last)");
  StringProperty(w, host, std::string(side) + "one host of the run (default: all hosts combined)");
}

void BeginSchema(JsonWriter* w) {
  w->Key("inputSchema");
  w->BeginObject();
  w->Field("type", "object");
  w->Key("properties");
  w->BeginObject();
}

void EndSchema(JsonWriter* w, std::initializer_list<std::string_view> required = {}) {
  w->EndObject();  // properties
  if (required.size() > 0) {
    w->Key("required");
    w->BeginArray();
    for (std::string_view name : required) w->String(name);
    w->EndArray();
  }
  w->Field("additionalProperties", false);
  w->EndObject();
}

// "overview_page: Step time and ... (options: a, b)" per tool, for run_tool's description.
std::string ToolCatalogue() {
  std::string text;
  for (const analysis::Tool* tool : analysis::AllTools()) {
    text += "\n- " + std::string(tool->id()) + ": " + std::string(tool->description());
    std::string options;
    for (const analysis::ToolOptionDecl* option : analysis::OptionsOf(*tool)) {
      options += (options.empty() ? "" : ", ") + std::string(option->name);
    }
    if (!options.empty()) text += " (options: " + options + ")";
  }
  return text;
}

// The tools that read `option`, as "kernel_stats: " before its help.
std::string ReadersOf(const analysis::ToolOptionDecl& option) {
  std::string tools;
  for (const analysis::Tool* tool : analysis::AllTools()) {
    for (std::string_view name : tool->option_names()) {
      if (name == option.name) tools += (tools.empty() ? "" : ", ") + std::string(tool->id());
    }
  }
  return tools.empty() ? "" : tools + ": ";
}

}  // namespace

void WriteListRunsSchema(JsonWriter* w) {
  BeginSchema(w);
  EndSchema(w);
}

void WriteRunToolSchema(JsonWriter* w) {
  BeginSchema(w);
  w->Key("tool");
  w->BeginObject();
  w->Field("type", "string");
  w->Field("description", "the analysis tool's id");
  w->Key("enum");
  w->BeginArray();
  for (const analysis::Tool* tool : analysis::AllTools()) w->String(tool->id());
  w->EndArray();
  w->EndObject();
  RunProperties(w);
  w->Key("step");
  w->BeginObject();
  w->Key("type");
  w->BeginArray();
  w->String("integer");
  w->String("string");
  w->EndArray();
  w->Field("description", "analyse one step: its step number (default: all steps; also \"all\")");
  w->EndObject();
  w->Key("options");
  w->BeginObject();
  w->Field("type", "object");
  w->Field("description", "the tool's options by name; each tool takes only its own (listed in this tool's "
                          "description), another tool's option is an error");
  w->Key("properties");
  w->BeginObject();
  for (const analysis::ToolOptionDecl& option : analysis::AllToolOptions()) {
    w->Key(option.name);
    WriteOptionSchema(option, ReadersOf(option), w);
  }
  w->EndObject();
  w->Field("additionalProperties", false);
  w->EndObject();
  EndSchema(w, {"tool"});
}

void WriteDiffSchema(JsonWriter* w) {
  BeginSchema(w);
  RunProperties(w, "run_a", "host_a", "A (before): ");
  RunProperties(w, "run_b", "host_b", "B (after): ");
  EndSchema(w, {"run_a", "run_b"});
}

void WriteCheckSchema(JsonWriter* w) {
  BeginSchema(w);
  RunProperties(w);
  w->Key("budgets");
  w->BeginObject();
  w->Field("type", "array");
  w->Key("items");
  w->BeginObject();
  w->Field("type", "string");
  w->EndObject();
  w->Field("minItems", int64_t{1});
  w->Field("description", "budgets in the budget file syntax, one per item: \"KEY <= VALUE\" or \"KEY >= VALUE\" "
                          "(e.g. \"step_ms <= 120\", \"steps >= 10\"); keys: " +
                              analysis::BudgetKeyList());
  w->EndObject();
  EndSchema(w, {"budgets"});
}

void WriteSearchSchema(JsonWriter* w) {
  BeginSchema(w);
  RunProperties(w);
  StringProperty(w, "query",
                 "case-insensitive substring of the event name, as the trace viewer's search (default: every event "
                 "of the range)");
  for (auto [name, description] :
       {std::pair<std::string_view, std::string_view>{"start_ms", "range start, ms since the trace's first event "
                                                                  "(default: 0)"},
        {"end_ms", "range end, ms since the trace's first event (default: the trace's end); events overlapping "
                   "[start_ms, end_ms) are listed"}}) {
    w->Key(name);
    w->BeginObject();
    w->Field("type", "number");
    w->Field("description", description);
    w->EndObject();
  }
  w->Key("limit");
  w->BeginObject();
  w->Field("type", "integer");
  w->Field("minimum", int64_t{1});
  w->Field("maximum", static_cast<int64_t>(analysis::trace::kMaxListedEvents));
  w->Field("default", kDefaultSearchLimit);
  w->Field("description", "the most events listed, the earliest first (`total` counts them all)");
  w->EndObject();
  w->Key("include_args");
  w->BeginObject();
  w->Field("type", "boolean");
  w->Field("default", true);
  w->Field("description", "list each event's stats (arguments) too");
  w->EndObject();
  EndSchema(w);
}

std::string ListRunsDescription() {
  return "List the profile runs in the logdir, each with its hosts (profile files, format, size, modification time) "
         "and which is the newest. Run and host names from here are what the other tools take.";
}
std::string RunToolDescription() {
  return "Run one stepscope analysis tool on a run (all hosts combined, or one host) and return its result: "
         "exactly the JSON `stepscope analyze --tool TOOL --format json` prints (fields in docs/tools.md). Start "
         "with overview_page (step time and its breakdown, input-bound verdict) and advisor (findings with the "
         "numbers behind them). Tools:" +
         ToolCatalogue();
}
std::string DiffDescription() {
  return "Compare two runs, A before and B after a change: step time, each step-time category, input verdicts, and "
         "the ops and kernels whose time changed most (matched by name); exactly `stepscope diff --format json`.";
}
std::string CheckDescription() {
  return "Check performance budgets on a run, as `stepscope check --format json`: each budget with its measured "
         "value and pass, fail or not_measured; `all_hold` is false when one does not hold (a normal result, not an "
         "error).";
}
std::string SearchDescription() {
  return "Find trace events (timeline slices) of a run: those overlapping a time range, optionally only those whose "
         "name contains `query`, the earliest first, with host, thread or stream, depth, start and duration in ms "
         "since the trace's first event, and their stats. `total` counts every match.";
}

}  // namespace stepscope::cli::mcp
