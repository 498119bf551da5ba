// The tool registry: the only place that maps a tool id to code.
//
// The CLI, the HTTP server and the Python module all find tools here, so a tool added to
// the table in tool_registry.cc is everywhere at once (XProf's three separate
// dispatchers are the example of what this avoids).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/tool.h"

namespace stepscope::analysis {

// Every tool, in the order UIs list them. The pointers live for the whole program.
const std::vector<const Tool*>& AllTools();

// The tool with this id, or kNotFound whose message lists the valid ids.
StatusOr<const Tool*> FindTool(std::string_view id);

// "overview_page, input_pipeline_analyzer, ..." for help and error messages.
std::string ToolIdList();

// The tools that have something to say about `model`, in AllTools() order.
std::vector<const Tool*> AvailableTools(const ProfileModel& model);

// Finds and runs a tool: kNotFound for an unknown id, kFailedPrecondition when the tool
// does not apply to this profile (e.g. kernel_stats without a GPU).
// kFailedPrecondition "tool 'X' does not apply to this profile (it needs R): why" for a
// tool that is not available: the one wording of the CLI, the server and RunTool.
Status ToolUnavailableError(const Tool& tool, const ProfileModel& model);

StatusOr<std::unique_ptr<ToolResult>> RunTool(std::string_view id, const ProfileModel& model,
                                              const ToolOptions& options = {});

}  // namespace stepscope::analysis
