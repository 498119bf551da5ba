// What the MCP server's tools take and do, as tools/list shows them: each tool's
// description and the JSON Schema of its arguments (an object with additionalProperties
// false, so a misspelt argument is refused rather than ignored). run_tool's follow the
// declarations: its `tool` enum is analysis::AllTools(), its `options` one property per
// analysis::ToolOptionDecl (WriteOptionSchema, mcp_tool_args.h).
#pragma once

#include <cstdint>
#include <string>

#include "src/analysis/output/json_writer.h"

namespace stepscope::cli::mcp {

// search_trace_events' default number of events: enough to see a step's structure, few
// enough to read.
inline constexpr int64_t kDefaultSearchLimit = 100;

// Each writes the "inputSchema" member of the tool's tools/list entry.
void WriteListRunsSchema(analysis::output::JsonWriter* w);
void WriteRunToolSchema(analysis::output::JsonWriter* w);
void WriteDiffSchema(analysis::output::JsonWriter* w);
void WriteCheckSchema(analysis::output::JsonWriter* w);
void WriteSearchSchema(analysis::output::JsonWriter* w);

// The tools' descriptions, for the model that chooses among them.
std::string ListRunsDescription();
std::string RunToolDescription();
std::string DiffDescription();
std::string CheckDescription();
std::string SearchDescription();

}  // namespace stepscope::cli::mcp
