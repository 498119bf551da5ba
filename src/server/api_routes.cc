#include "src/server/api_routes.h"

#include <algorithm>
#include <optional>
#include <initializer_list>
#include <map>
#include <utility>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/diff.h"
#include "src/analysis/tool_options.h"
#include "src/base/status_macros.h"
#include "src/server/request_params.h"

namespace stepscope::server {
namespace {

using analysis::output::JsonWriter;

constexpr std::string_view kVersion = "0.1.0";
// /api/hosts?tool= checks the tool on each host's model up to this many hosts.
constexpr size_t kMaxHostsCheckedForTool = 64;

// The optional parameters of /api/data, /api/tables and /api/csv: host, step and every
// declared tool option (analysis/tool_options.h). A tool reads only its own options
// (Tool::Run masks the others), so one it does not take changes neither its result nor
// its cache key.
const std::vector<std::string_view>& ToolOptionParams() {
  static const std::vector<std::string_view> params = [] {
    std::vector<std::string_view> names = {"host", "step"};
    for (const analysis::ToolOptionDecl& option : analysis::AllToolOptions()) names.push_back(option.name);
    return names;
  }();
  return params;
}

// The declared tool options among the checked parameters.
StatusOr<analysis::ToolOptions> ToolOptionsFrom(const Params& params) {
  analysis::ToolOptions options;
  for (const analysis::ToolOptionDecl& option : analysis::AllToolOptions()) {
    auto it = params.find(option.name);
    if (it != params.end()) STEPSCOPE_RETURN_IF_ERROR(option.set(option.name, it->second, &options));
  }
  STEPSCOPE_RETURN_IF_ERROR(analysis::ValidateToolOptions(options, ""));
  return options;
}

// The `step` parameter: absent (or "all") for all steps, else a step number.
StatusOr<std::optional<int64_t>> StepFrom(const Params& params) {
  auto step = analysis::ParseStepSelection(Get(params, "step"));
  if (!step.ok()) return InvalidArgumentError("step: " + step.status().message());
  return step;
}

// "options": what the UI draws a control for, one per option the tool declares.
void WriteToolOptions(const analysis::Tool& tool, JsonWriter* w) {
  w->Key("options");
  w->BeginArray();
  for (const analysis::ToolOptionDecl* option : analysis::OptionsOf(tool)) {
    w->BeginObject();
    w->Field("name", option->name);
    w->Field("kind", analysis::OptionKindName(option->kind));
    w->Field("help", option->help);
    w->Field("default", option->default_text);
    if (option->kind == analysis::OptionKind::kInt || option->kind == analysis::OptionKind::kNumber) {
      w->Field("min", option->min);
      w->Field("max", option->max);
    }
    w->EndObject();
  }
  w->EndArray();
}

void WriteCacheStats(std::string_view key, const ResultCacheStats& stats, JsonWriter* w) {
  w->Key(key);
  w->BeginObject();
  w->Field("entries", static_cast<uint64_t>(stats.entries));
  w->Field("bytes", static_cast<uint64_t>(stats.bytes));
  w->Field("capacity_bytes", static_cast<uint64_t>(stats.capacity_bytes));
  w->Field("hits", stats.hits);
  w->Field("joins", stats.joins);
  w->Field("computations", stats.computations);
  w->Field("evictions", stats.evictions);
  w->EndObject();
}

std::string_view ColumnTypeName(analysis::output::ColumnType type) {
  switch (type) {
    case analysis::output::ColumnType::kInt: return "int";
    case analysis::output::ColumnType::kDouble: return "double";
    case analysis::output::ColumnType::kBool: return "bool";
    default: return "string";
  }
}

// The /api/tables body: each table's name, title, columns (id, label, type, unit) and row count.
std::string TablesJson(const std::vector<analysis::output::Table>& tables) {
  std::string body;
  JsonWriter w(&body, JsonWriter::Style::kPretty);
  w.BeginObject();
  w.Key("tables");
  w.BeginArray();
  for (const analysis::output::Table& table : tables) {
    w.BeginObject();
    w.Field("name", table.name);
    w.Field("title", table.title);
    w.Key("columns");
    w.BeginArray();
    for (const analysis::output::Column& column : table.columns) {
      w.BeginObject();
      w.Field("id", column.id);
      w.Field("label", column.label);
      w.Field("type", ColumnTypeName(column.type));
      w.Field("unit", column.unit);
      w.EndObject();
    }
    w.EndArray();
    w.Field("row_count", static_cast<int64_t>(table.rows.size()));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return body;
}

// How the comparison names a side: as `stepscope diff LOGDIR LOGDIR --run_a A --run_b B`
// does ("run R (host H)" / "run R (hosts H1, H2)"), so the two print the same JSON.
std::string CompareLabel(const load::RunProfiles& run, const std::string& host) {
  std::string hosts;
  size_t count = 0;
  for (const load::HostProfileFile& file : run.hosts) {
    if (!host.empty() && host != load::kAllHosts && file.host != host) continue;
    hosts += (hosts.empty() ? "" : ", ") + file.host;
    ++count;
  }
  return "run " + run.name + " (" + (count == 1 ? "host " : "hosts ") + hosts + ")";
}

HttpReply CsvReply(std::string csv, const std::string& file_stem) {
  HttpReply reply;
  reply.content_type = "text/csv; charset=utf-8";
  reply.body = std::move(csv);
  reply.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + SafeFileName(file_stem) + ".csv\"");
  return reply;
}

}  // namespace

HttpReply JsonReply(std::string body) {
  HttpReply reply;
  reply.body = std::move(body);
  return reply;
}

std::string SafeFileName(std::string_view name) {
  std::string out;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    out.push_back(ok ? c : '_');
  }
  return out;
}

int HttpStatusFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return 200;
    case StatusCode::kInvalidArgument: return 400;
    case StatusCode::kNotFound: return 404;
    case StatusCode::kFailedPrecondition: return 404;  // e.g. a tool that does not apply to this run
    case StatusCode::kPermissionDenied: return 403;
    case StatusCode::kResourceExhausted: return 413;
    case StatusCode::kDataLoss: return 422;  // the profile file is corrupt or truncated
    case StatusCode::kUnimplemented: return 501;
    case StatusCode::kUnavailable: return 503;
    case StatusCode::kDeadlineExceeded: return 504;
    default: return 500;
  }
}

HttpReply ErrorReply(int http_status, std::string_view message) {
  std::string body;
  JsonWriter w(&body);
  w.BeginObject();
  w.Field("error", message);
  w.EndObject();
  body.push_back('\n');
  HttpReply reply;
  reply.status = http_status;
  reply.body = std::move(body);
  return reply;
}

HttpReply ErrorReply(const Status& status) { return ErrorReply(HttpStatusFor(status), status.message()); }

HttpReply ApiRoutes::Handle(std::string_view path, const QueryParams& params) {
  if (path == "/api/info") return Info();
  // Every other endpoint reads the logdir; say so clearly once it has gone.
  if (!store_->LogdirExists()) {
    return ErrorReply(410, "the logdir " + store_->logdir() + " no longer exists (was it deleted or moved?)");
  }
  if (path == "/api/runs") return Runs();
  if (path == "/api/tools") return Tools(params);
  if (path == "/api/hosts") return Hosts(params);
  if (path == "/api/data") return Data(params);
  if (path == "/api/tables") return Tables(params);
  if (path == "/api/csv") return Csv(params);
  if (path == "/api/compare" || path == "/api/compare/tables" || path == "/api/compare/csv") {
    return Compare(path.substr(std::string_view("/api/compare").size()), params);
  }
  return ErrorReply(404, "no API endpoint " + std::string(path) +
                             "; endpoints: /api/info, /api/runs, /api/tools, /api/hosts, /api/data, /api/tables, "
                             "/api/csv, /api/compare, /api/compare/tables, /api/compare/csv");
}

HttpReply ApiRoutes::Info() {
  std::string body;
  JsonWriter w(&body, JsonWriter::Style::kPretty);
  w.BeginObject();
  w.Field("name", "stepscope");
  w.Field("version", kVersion);
  w.Field("logdir", store_->logdir());
  w.Field("logdir_exists", store_->LogdirExists());
  w.Field("all_hosts", load::kAllHosts);
  w.Key("tools");
  w.BeginArray();
  for (const analysis::Tool* tool : analysis::AllTools()) {
    w.BeginObject();
    w.Field("id", tool->id());
    w.Field("description", tool->description());
    w.Field("requirement", tool->requirement());
    w.EndObject();
  }
  w.EndArray();
  w.Key("cache");
  w.BeginObject();
  WriteCacheStats("models", store_->model_cache_stats(), &w);
  WriteCacheStats("results", store_->result_cache_stats(), &w);
  w.EndObject();
  w.EndObject();
  body.push_back('\n');
  return JsonReply(std::move(body));
}

HttpReply ApiRoutes::Runs() {
  auto runs = store_->ListRuns();
  if (!runs.ok()) return ErrorReply(runs.status());
  std::string body;
  JsonWriter w(&body, JsonWriter::Style::kPretty);
  w.BeginObject();
  w.Field("logdir", store_->logdir());
  w.Key("runs");
  w.BeginArray();
  for (const load::RunProfiles& run : *runs) {
    int64_t modified_ns = 0;
    int64_t bytes = 0;
    for (const load::HostProfileFile& file : run.hosts) {
      modified_ns = std::max(modified_ns, file.mtime_ns);
      bytes += file.size_bytes;
    }
    w.BeginObject();
    w.Field("name", run.name);
    w.Key("hosts");
    w.BeginArray();
    for (const std::string& host : ProfileStore::HostChoices(run)) w.String(host);
    w.EndArray();
    w.Field("file_count", static_cast<int64_t>(run.hosts.size()));
    w.Field("bytes", bytes);
    w.Field("modified_time_ns", modified_ns);
    // A session assembled from several run directories (load/run_sessions.h): their names.
    w.Key("assembled_from");
    w.BeginArray();
    for (const std::string& member : run.member_runs) w.String(member);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return JsonReply(std::move(body));
}

HttpReply ApiRoutes::Tools(const QueryParams& query) {
  auto params = CheckParams(query, {"run"}, {"host"});
  if (!params.ok()) return ErrorReply(params.status());
  auto run = store_->FindRun(Get(*params, "run"));
  if (!run.ok()) return ErrorReply(run.status());
  std::string host = Get(*params, "host");
  auto model = store_->GetModel(*run, host);
  if (!model.ok()) return ErrorReply(model.status());
  std::vector<const analysis::Tool*> available = analysis::AvailableTools(**model);
  std::string body;
  JsonWriter w(&body, JsonWriter::Style::kPretty);
  w.BeginObject();
  w.Field("run", run->name);
  w.Field("host", host.empty() ? std::string(load::kAllHosts) : host);
  w.Key("tools");
  w.BeginArray();
  for (const analysis::Tool* tool : analysis::AllTools()) {
    bool is_available = std::find(available.begin(), available.end(), tool) != available.end();
    w.BeginObject();
    w.Field("id", tool->id());
    w.Field("description", tool->description());
    w.Field("available", is_available);
    w.Field("requirement", tool->requirement());
    WriteToolOptions(*tool, &w);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return JsonReply(std::move(body));
}

HttpReply ApiRoutes::Hosts(const QueryParams& query) {
  auto params = CheckParams(query, {"run"}, {"tool"});
  if (!params.ok()) return ErrorReply(params.status());
  std::string tool_id = Get(*params, "tool");
  const analysis::Tool* tool = nullptr;
  if (!tool_id.empty()) {
    auto found = analysis::FindTool(tool_id);
    if (!found.ok()) return ErrorReply(found.status());
    tool = *found;
  }
  auto run = store_->FindRun(Get(*params, "run"));
  if (!run.ok()) return ErrorReply(run.status());
  // With a tool, only the hosts it applies to (a multi-GPU job's ranks each hold one GPU:
  // multi_gpu applies to all of them together, to none alone). That needs each host's
  // model; past kMaxHostsCheckedForTool hosts every host is listed, and `tool_checked`
  // says so, rather than loading thousands of models for a menu.
  const std::vector<std::string> choices = ProfileStore::HostChoices(*run);
  const bool check = tool != nullptr && choices.size() <= kMaxHostsCheckedForTool;
  std::vector<std::string> hosts;
  for (const std::string& host : choices) {
    if (check) {
      auto model = store_->GetModel(*run, host == load::kAllHosts ? std::string() : host);
      if (model.ok() && !tool->IsAvailable(**model)) continue;
    }
    hosts.push_back(host);
  }
  std::string body;
  JsonWriter w(&body, JsonWriter::Style::kPretty);
  w.BeginObject();
  w.Field("run", run->name);
  w.Field("tool_checked", check);
  w.Key("hosts");
  w.BeginArray();
  for (const std::string& host : hosts) w.String(host);
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return JsonReply(std::move(body));
}

HttpReply ApiRoutes::Data(const QueryParams& query) {
  auto params = CheckParams(query, {"run", "tool"}, ToolOptionParams());
  if (!params.ok()) return ErrorReply(params.status());
  auto options = ToolOptionsFrom(*params);
  if (!options.ok()) return ErrorReply(options.status());
  auto step = StepFrom(*params);
  if (!step.ok()) return ErrorReply(step.status());
  auto run = store_->FindRun(Get(*params, "run"));
  if (!run.ok()) return ErrorReply(run.status());
  auto result = store_->GetResult(*run, Get(*params, "host"), Get(*params, "tool"), *options, *step);
  if (!result.ok()) return ErrorReply(result.status());
  return JsonReply((*result)->json);
}

HttpReply ApiRoutes::Tables(const QueryParams& query) {
  auto params = CheckParams(query, {"run", "tool"}, ToolOptionParams());
  if (!params.ok()) return ErrorReply(params.status());
  auto options = ToolOptionsFrom(*params);
  if (!options.ok()) return ErrorReply(options.status());
  auto step = StepFrom(*params);
  if (!step.ok()) return ErrorReply(step.status());
  auto run = store_->FindRun(Get(*params, "run"));
  if (!run.ok()) return ErrorReply(run.status());
  auto result = store_->GetResult(*run, Get(*params, "host"), Get(*params, "tool"), *options, *step);
  if (!result.ok()) return ErrorReply(result.status());
  return JsonReply(TablesJson((*result)->result->Tables()));
}

HttpReply ApiRoutes::Csv(const QueryParams& query) {
  auto params = CheckParams(query, {"run", "tool", "table"}, ToolOptionParams());
  if (!params.ok()) return ErrorReply(params.status());
  auto options = ToolOptionsFrom(*params);
  if (!options.ok()) return ErrorReply(options.status());
  auto step = StepFrom(*params);
  if (!step.ok()) return ErrorReply(step.status());
  auto run = store_->FindRun(Get(*params, "run"));
  if (!run.ok()) return ErrorReply(run.status());
  std::string host = Get(*params, "host");
  std::string tool = Get(*params, "tool");
  std::string table = Get(*params, "table");
  auto result = store_->GetResult(*run, host, tool, *options, *step);
  if (!result.ok()) return ErrorReply(result.status());
  auto csv = (*result)->result->TableCsv(table);
  if (!csv.ok()) return ErrorReply(csv.status());
  return CsvReply(std::move(csv).value(), run->name + "_" + (host.empty() ? std::string(load::kAllHosts) : host) + "_" +
                                              tool + "_" + table + (*step ? "_step" + std::to_string(**step) : ""));
}

// The comparison is computed per request from the two cached models: matching names is
// cheap next to building a model, and caching every pair of runs would not pay.
HttpReply ApiRoutes::Compare(std::string_view what, const QueryParams& query) {
  const bool csv = what == "/csv";
  auto params = csv ? CheckParams(query, {"run_a", "run_b", "table"}, {"host_a", "host_b"})
                    : CheckParams(query, {"run_a", "run_b"}, {"host_a", "host_b"});
  if (!params.ok()) return ErrorReply(params.status());
  analysis::DiffOptions options;
  std::shared_ptr<const analysis::ProfileModel> models[2];
  for (int side = 0; side < 2; ++side) {
    const std::string suffix = side == 0 ? "_a" : "_b";
    auto run = store_->FindRun(Get(*params, "run" + suffix));
    if (!run.ok()) return ErrorReply(run.status());
    const std::string host = Get(*params, "host" + suffix);
    auto model = store_->GetModel(*run, host);
    if (!model.ok()) return ErrorReply(model.status());
    models[side] = *model;
    (side == 0 ? options.label_a : options.label_b) = CompareLabel(*run, host);
  }
  analysis::StructToolResult<analysis::ProfileDiff> result(analysis::CompareProfiles(*models[0], *models[1], options));
  if (what == "/tables") return JsonReply(TablesJson(result.Tables()));
  if (csv) {
    const std::string table = Get(*params, "table");
    auto text = result.TableCsv(table);
    if (!text.ok()) return ErrorReply(text.status());
    return CsvReply(std::move(text).value(),
                    "compare_" + Get(*params, "run_a") + "_vs_" + Get(*params, "run_b") + "_" + table);
  }
  return JsonReply(result.ToJson(/*pretty=*/true));
}

}  // namespace stepscope::server
