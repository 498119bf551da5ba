// JSON-RPC 2.0 as the MCP stdio transport carries it: one message per line, parsed,
// checked and handed to a dispatcher, whose answer becomes the response line. Knows
// nothing of MCP's methods (mcp_session.h) or of stepscope's tools (mcp_tools.h), so the
// protocol core can be driven in-process by feeding it lines.
//
// Every malformed input becomes an error response, never a crash or a silent drop:
//   not JSON (or not UTF-8, or nested past kMaxJsonDepth)  -32700, id null
//   JSON but not a request (no "jsonrpc":"2.0", a method that is not a string, an id
//   that is not a string or an integer, params that are not an object or array)
//                                                          -32600, the id when readable
// Responses a client sends (it never gets a request from this server) are ignored.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::cli::mcp {

// JSON-RPC's error codes, and MCP's for a resource that does not exist.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kResourceNotFound = -32002;

// A line longer than this is refused unread: no request of this server is near it (tool
// arguments are a few names and numbers), and it bounds what one message can cost.
inline constexpr size_t kMaxMessageBytes = size_t{16} << 20;
// Deeper JSON is refused by the parser (simdjson's own limit is 1024).
inline constexpr size_t kMaxJsonDepth = 64;
// A batch with more messages than this is refused whole.
inline constexpr size_t kMaxBatchMessages = 1000;

// What a method returns: a result (the JSON text of an object), or an error.
struct RpcOutcome {
  std::string result_json;
  int error_code = 0;  // 0: success
  std::string error_message;

  static RpcOutcome Result(std::string json) { return {std::move(json), 0, {}}; }
  static RpcOutcome Error(int code, std::string message) { return {{}, code, std::move(message)}; }
};

// Answers the methods. `params` is the request's params, null when it has none. A
// notification's outcome is dropped (JSON-RPC answers no notification).
class RpcDispatcher {
 public:
  virtual ~RpcDispatcher() = default;
  virtual RpcOutcome Call(std::string_view method, const simdjson::dom::element* params, bool notification) = 0;
  // Whether a batch (a JSON array of messages) is taken now; the error says why not.
  virtual bool AcceptsBatches(std::string* why_not) const = 0;
};

// One incoming line -> what to write back: one response line (newline-terminated), a
// batch's array of responses, or "" when nothing is due (notifications, responses).
class JsonRpcEndpoint {
 public:
  explicit JsonRpcEndpoint(RpcDispatcher* dispatcher);
  std::string HandleLine(std::string_view line);

 private:
  std::string HandleMessage(simdjson::dom::element message);
  std::string HandleBatch(simdjson::dom::array batch);

  RpcDispatcher* dispatcher_;
  simdjson::dom::parser parser_;
};

// The response lines (without the newline), for the endpoint and for callers that must
// answer without a parsed request (an oversized line).
std::string ResultResponse(std::string_view id_json, std::string_view result_json);
std::string ErrorResponse(std::string_view id_json, int code, std::string_view message);

}  // namespace stepscope::cli::mcp
