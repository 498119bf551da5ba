#include "src/cli/mcp_session.h"

#include <functional>
#include <ostream>

#include "src/analysis/output/json_writer.h"

#ifndef STEPSCOPE_VERSION
#define STEPSCOPE_VERSION "unknown"
#endif

namespace stepscope::cli::mcp {
namespace {

using analysis::output::JsonWriter;

constexpr std::string_view kVersionWithBatches = "2025-03-26";
// The first version whose tool results carry structuredContent.
constexpr std::string_view kFirstStructuredVersion = "2025-06-18";

// What a client is told to do with this server (initialize's `instructions`).
constexpr std::string_view kInstructions =
    "stepscope analyses ML training profiles (TensorFlow/JAX XSpace, PyTorch/Kineto and Chrome traces) in one "
    "logdir. Call list_runs first; then run_tool with tool overview_page (step time, breakdown, input-bound "
    "verdict) and advisor (findings), other tools for detail; diff compares two runs; check tests budgets; "
    "search_trace_events finds timeline events. Every tool only reads.";

// Versions are dates: later ones sort later as text.
bool AtLeast(std::string_view version, std::string_view first) { return version >= first; }

// The params object, or null when params are absent or not an object.
std::optional<simdjson::dom::object> ParamsObject(const simdjson::dom::element* params) {
  simdjson::dom::object object;
  if (params == nullptr || params->get_object().get(object) != simdjson::SUCCESS) return std::nullopt;
  return object;
}

// params.`key` as a string; false when absent or not a string.
bool StringParam(const simdjson::dom::element* params, std::string_view key, std::string_view* value) {
  std::optional<simdjson::dom::object> object = ParamsObject(params);
  return object && (*object)[key].get_string().get(*value) == simdjson::SUCCESS;
}

// A tools/call result: the answer as one text block, and (when the version has it) the
// same object as structuredContent.
std::string ToolResultJson(const std::string& answer_json, bool structured) {
  std::string out = "{\"content\":[{\"type\":\"text\",\"text\":";
  analysis::output::AppendJsonString(answer_json, &out);
  out += "}]";
  if (structured) out += ",\"structuredContent\":" + answer_json;
  out += ",\"isError\":false}";
  return out;
}

std::string ToolErrorJson(std::string_view message) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("content");
  w.BeginArray();
  w.BeginObject();
  w.Field("type", "text");
  w.Field("text", message);
  w.EndObject();
  w.EndArray();
  w.Field("isError", true);
  w.EndObject();
  return out;
}

// A list method's result, {"<key>": <what `write` writes>}; -32603 when it fails.
RpcOutcome ListResult(std::string_view key, const std::function<Status(JsonWriter*)>& write) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key(key);
  if (Status written = write(&w); !written.ok()) return RpcOutcome::Error(kInternalError, written.message());
  w.EndObject();
  return RpcOutcome::Result(std::move(out));
}

}  // namespace

McpSession::McpSession(McpTools* tools, std::ostream* log)
    : tools_(tools), log_(log), version_(kProtocolVersions[0]) {}

bool McpSession::AcceptsBatches(std::string* why_not) const {
  if (version_ == kVersionWithBatches) return true;
  *why_not = "JSON-RPC batches are not supported in protocol version " + version_ + " (only in " +
             std::string(kVersionWithBatches) + ")";
  return false;
}

RpcOutcome McpSession::Call(std::string_view method, const simdjson::dom::element* params, bool notification) {
  if (notification) {
    // notifications/initialized completes the handshake; cancellation and progress need
    // nothing (requests are answered one at a time, each before the next is read), and
    // unknown notifications are ignored, as JSON-RPC asks.
    if (method == "notifications/initialized") initialized_ = true;
    return RpcOutcome::Result("{}");
  }
  if (method == "initialize") return Initialize(params);
  if (method == "ping") return RpcOutcome::Result("{}");
  if (method == "tools/list") return ToolsList();
  if (method == "tools/call") return ToolsCall(params);
  if (method == "resources/list") return ResourcesList();
  if (method == "resources/templates/list") return ResourceTemplatesList();
  if (method == "resources/read") return ResourcesRead(params);
  return RpcOutcome::Error(kMethodNotFound, "method not found: " + std::string(method));
}

RpcOutcome McpSession::Initialize(const simdjson::dom::element* params) {
  std::string_view requested;
  if (!StringParam(params, "protocolVersion", &requested)) {
    return RpcOutcome::Error(kInvalidParams, "initialize needs params.protocolVersion (a string)");
  }
  version_ = kProtocolVersions[0];
  for (std::string_view supported : kProtocolVersions) {
    if (supported == requested) version_ = std::string(supported);
  }
  std::string_view client;
  if ((*ParamsObject(params))["clientInfo"]["name"].get_string().get(client) != simdjson::SUCCESS) {
    client = "an unnamed client";
  }
  *log_ << "stepscope: mcp: " << client << " asked for protocol " << requested << "; speaking " << version_ << "\n";
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Field("protocolVersion", version_);
  w.Key("capabilities");
  w.BeginObject();
  w.Key("tools");
  w.BeginObject();
  w.Field("listChanged", false);
  w.EndObject();
  w.Key("resources");
  w.BeginObject();
  w.Field("subscribe", false);
  w.Field("listChanged", false);
  w.EndObject();
  w.EndObject();
  w.Key("serverInfo");
  w.BeginObject();
  w.Field("name", "stepscope");
  w.Field("title", "stepscope profile analysis");
  w.Field("version", STEPSCOPE_VERSION);
  w.EndObject();
  w.Field("instructions", kInstructions);
  w.EndObject();
  return RpcOutcome::Result(std::move(out));
}

RpcOutcome McpSession::ToolsList() const {
  return ListResult("tools", [this](JsonWriter* w) {
    tools_->WriteToolList(w);
    return OkStatus();
  });
}

RpcOutcome McpSession::ToolsCall(const simdjson::dom::element* params) {
  std::string_view name;
  if (!StringParam(params, "name", &name)) return RpcOutcome::Error(kInvalidParams, "tools/call needs params.name");
  if (!tools_->HasTool(name)) {
    return RpcOutcome::Error(kInvalidParams, "unknown tool: " + std::string(name) + " (tools/list names the tools)");
  }
  simdjson::dom::element arguments;
  const bool has_arguments = (*ParamsObject(params))["arguments"].get(arguments) == simdjson::SUCCESS;
  StatusOr<std::string> answer = tools_->Call(name, has_arguments ? &arguments : nullptr);
  if (!answer.ok()) {
    *log_ << "stepscope: mcp: " << name << ": " << answer.status().message() << "\n";
    return RpcOutcome::Result(ToolErrorJson(answer.status().message()));
  }
  return RpcOutcome::Result(ToolResultJson(*answer, AtLeast(version_, kFirstStructuredVersion)));
}

RpcOutcome McpSession::ResourcesList() const {
  return ListResult("resources", [this](JsonWriter* w) { return tools_->WriteResourceList(w); });
}

RpcOutcome McpSession::ResourceTemplatesList() const {
  return ListResult("resourceTemplates", [this](JsonWriter* w) {
    tools_->WriteResourceTemplates(w);
    return OkStatus();
  });
}

RpcOutcome McpSession::ResourcesRead(const simdjson::dom::element* params) {
  std::string_view uri;
  if (!StringParam(params, "uri", &uri)) return RpcOutcome::Error(kInvalidParams, "resources/read needs params.uri");
  StatusOr<std::string> text = tools_->ReadResource(uri);
  if (!text.ok()) {
    const int code = text.status().code() == StatusCode::kNotFound ? kResourceNotFound : kInternalError;
    return RpcOutcome::Error(code, text.status().message());
  }
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("contents");
  w.BeginArray();
  w.BeginObject();
  w.Field("uri", uri);
  w.Field("mimeType", "application/json");
  w.Field("text", *text);
  w.EndObject();
  w.EndArray();
  w.EndObject();
  return RpcOutcome::Result(std::move(out));
}

}  // namespace stepscope::cli::mcp
