// The Model Context Protocol's methods over JSON-RPC (mcp_json_rpc.h), for one client
// on stdio: the lifecycle (initialize with version negotiation, initialized, ping), tools
// (tools/list, tools/call) and resources (resources/list, resources/templates/list,
// resources/read). What the tools and resources are is McpTools' (mcp_tools.h).
//
// Versions: the client's protocolVersion when it is one of kProtocolVersions, else the
// newest. What depends on it: tool results carry structuredContent from 2025-06-18 on;
// JSON-RPC batches are taken only under 2025-03-26, the one version that had them.
//
// Errors follow the spec's split: a malformed or unknown request is a JSON-RPC error
// (-32602 for bad params or an unknown tool, -32002 for an unknown resource); a tool that
// runs and fails - a bad option value, an unknown run - is a result with isError: true and
// the message, which the client shows its model so it can correct the call.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "src/cli/mcp_json_rpc.h"
#include "src/cli/mcp_tools.h"

namespace stepscope::cli::mcp {

// Newest first. 2025-11-25 is the newest the official TypeScript SDK speaks.
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

class McpSession : public RpcDispatcher {
 public:
  // `tools` must outlive the session; `log` gets one line per request (stderr).
  McpSession(McpTools* tools, std::ostream* log);

  RpcOutcome Call(std::string_view method, const simdjson::dom::element* params, bool notification) override;
  bool AcceptsBatches(std::string* why_not) const override;

  // The negotiated version; the newest until initialize.
  const std::string& protocol_version() const { return version_; }
  bool initialized() const { return initialized_; }

 private:
  RpcOutcome Initialize(const simdjson::dom::element* params);
  RpcOutcome ToolsCall(const simdjson::dom::element* params);
  RpcOutcome ResourcesRead(const simdjson::dom::element* params);
  RpcOutcome ToolsList() const;
  RpcOutcome ResourcesList() const;
  RpcOutcome ResourceTemplatesList() const;

  McpTools* tools_;
  std::ostream* log_;
  std::string version_;
  bool initialized_ = false;
};

}  // namespace stepscope::cli::mcp
