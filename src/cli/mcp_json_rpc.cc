#include "src/cli/mcp_json_rpc.h"

#include <algorithm>

#include "src/analysis/output/json_writer.h"

namespace stepscope::cli::mcp {
namespace {

constexpr std::string_view kNullId = "null";

// The request's id as JSON text to echo ("7", "\"abc\""); "" when there is none (a
// notification). False for an id JSON-RPC does not allow here (MCP: string or integer).
bool ReadId(simdjson::dom::object message, std::string* id_json) {
  simdjson::dom::element id;
  if (message["id"].get(id) != simdjson::SUCCESS) {
    id_json->clear();
    return true;
  }
  switch (id.type()) {
    case simdjson::dom::element_type::STRING:
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
      *id_json = simdjson::minify(id);
      return true;
    default:
      return false;
  }
}

// A message with "result" or "error" and no "method": a client's response.
bool IsResponse(simdjson::dom::object message) {
  simdjson::dom::element unused;
  return message["method"].get(unused) != simdjson::SUCCESS &&
         (message["result"].get(unused) == simdjson::SUCCESS || message["error"].get(unused) == simdjson::SUCCESS);
}

std::string WithNewline(std::string line) {
  line.push_back('\n');
  return line;
}

}  // namespace

std::string ResultResponse(std::string_view id_json, std::string_view result_json) {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::string(id_json) + ",\"result\":" + std::string(result_json) + "}";
}

std::string ErrorResponse(std::string_view id_json, int code, std::string_view message) {
  std::string error;
  analysis::output::JsonWriter w(&error);
  w.BeginObject();
  w.Field("code", code);
  w.Field("message", message);
  w.EndObject();
  return "{\"jsonrpc\":\"2.0\",\"id\":" + std::string(id_json.empty() ? kNullId : id_json) + ",\"error\":" + error +
         "}";
}

JsonRpcEndpoint::JsonRpcEndpoint(RpcDispatcher* dispatcher) : dispatcher_(dispatcher) {}

std::string JsonRpcEndpoint::HandleLine(std::string_view line) {
  if (line.size() > kMaxMessageBytes) {
    return WithNewline(ErrorResponse(kNullId, kInvalidRequest,
                                     "message larger than " + std::to_string(kMaxMessageBytes >> 20) + " MiB"));
  }
  // Blank lines between messages carry nothing (some clients end with "\r\n").
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return "";
  if ((line.size() > parser_.capacity() || parser_.max_depth() != kMaxJsonDepth) &&
      parser_.allocate(std::max(line.size(), parser_.capacity()), kMaxJsonDepth) != simdjson::SUCCESS) {
    return WithNewline(ErrorResponse(kNullId, kInternalError, "out of memory parsing the message"));
  }
  simdjson::dom::element root;
  const simdjson::error_code parsed = parser_.parse(line.data(), line.size()).get(root);
  if (parsed != simdjson::SUCCESS) {
    return WithNewline(ErrorResponse(kNullId, kParseError,
                                     std::string("parse error: ") + simdjson::error_message(parsed)));
  }
  simdjson::dom::array batch;
  if (root.get_array().get(batch) == simdjson::SUCCESS) return HandleBatch(batch);
  std::string response = HandleMessage(root);
  return response.empty() ? "" : WithNewline(std::move(response));
}

std::string JsonRpcEndpoint::HandleBatch(simdjson::dom::array batch) {
  std::string why_not;
  if (!dispatcher_->AcceptsBatches(&why_not)) return WithNewline(ErrorResponse(kNullId, kInvalidRequest, why_not));
  if (batch.size() == 0) return WithNewline(ErrorResponse(kNullId, kInvalidRequest, "empty batch"));
  if (batch.size() > kMaxBatchMessages) {
    return WithNewline(ErrorResponse(kNullId, kInvalidRequest,
                                     "batch of more than " + std::to_string(kMaxBatchMessages) + " messages"));
  }
  std::string responses;
  for (simdjson::dom::element message : batch) {
    std::string response = HandleMessage(message);
    if (response.empty()) continue;
    responses += responses.empty() ? "[" : ",";
    responses += response;
  }
  // A batch of notifications only is answered with nothing at all (JSON-RPC 2.0, 6).
  return responses.empty() ? "" : WithNewline(responses + "]");
}

std::string JsonRpcEndpoint::HandleMessage(simdjson::dom::element element) {
  simdjson::dom::object message;
  if (element.get_object().get(message) != simdjson::SUCCESS) {
    return ErrorResponse(kNullId, kInvalidRequest, "a message must be a JSON object");
  }
  std::string id;
  if (!ReadId(message, &id)) return ErrorResponse(kNullId, kInvalidRequest, "id must be a string or an integer");
  std::string_view version;
  if (message["jsonrpc"].get_string().get(version) != simdjson::SUCCESS || version != "2.0") {
    return ErrorResponse(id, kInvalidRequest, "jsonrpc must be \"2.0\"");
  }
  if (IsResponse(message)) return "";
  std::string_view method;
  if (message["method"].get_string().get(method) != simdjson::SUCCESS) {
    return ErrorResponse(id, kInvalidRequest, "method must be a string");
  }
  simdjson::dom::element params;
  const bool has_params = message["params"].get(params) == simdjson::SUCCESS;
  if (has_params && !params.is_object() && !params.is_array()) {
    return ErrorResponse(id, kInvalidRequest, "params must be an object or an array");
  }
  const bool notification = id.empty();
  RpcOutcome outcome = dispatcher_->Call(method, has_params ? &params : nullptr, notification);
  if (notification) return "";
  if (outcome.error_code != 0) return ErrorResponse(id, outcome.error_code, outcome.error_message);
  return ResultResponse(id, outcome.result_json);
}

}  // namespace stepscope::cli::mcp
