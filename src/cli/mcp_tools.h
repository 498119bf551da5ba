// What the MCP server offers over a logdir: its tools (list_runs, run_tool, diff, check,
// search_trace_events) and its runs as resources. Each tool answers with the JSON the
// matching command prints (`stepscope analyze --tool X --format json`, `diff`, `check`),
// through the same loader and the same tool registry; the server adds no analysis.
//
// The schemas follow the declarations: run_tool's `tool` lists analysis::AllTools() and its
// `options` every analysis::ToolOptionDecl, typed by kind, with its help, default and
// bounds.
//
// Read-only: nothing here creates or writes a file; every profile is found through
// ConfinedLogdir (mcp_logdir.h).
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "src/analysis/output/json_writer.h"
#include "src/cli/mcp_logdir.h"
#include "src/cli/mcp_profile_cache.h"
#include "stepscope/status.h"

namespace stepscope::cli::mcp {

// "stepscope://runs/<run>": a run as a resource (bytes outside [A-Za-z0-9-._~/]
// percent-encoded).
std::string RunUri(std::string_view run);

class McpTools {
 public:
  explicit McpTools(ConfinedLogdir logdir);

  // The tools/list "tools" array: name, title, description, inputSchema each.
  void WriteToolList(analysis::output::JsonWriter* w) const;
  bool HasTool(std::string_view name) const;
  // Runs tool `name` (HasTool) on `arguments` (null when absent): its answer as compact JSON
  // text, or the error to report as the tool's failure (bad arguments included: the agent
  // reads them and corrects its call).
  StatusOr<std::string> Call(std::string_view name, const simdjson::dom::element* arguments);

  // The resources/list "resources" array and resources/templates/list's templates.
  Status WriteResourceList(analysis::output::JsonWriter* w) const;
  void WriteResourceTemplates(analysis::output::JsonWriter* w) const;
  // The JSON text of the run resource `uri`; kNotFound when no run has that URI.
  StatusOr<std::string> ReadResource(std::string_view uri);

  // What every tool reads through.
  struct Context {
    ConfinedLogdir logdir;
    ProfileCache cache;
  };
  Context& context() { return context_; }

 private:
  Context context_;
};

}  // namespace stepscope::cli::mcp
