// What follows from the tool declarations for people and for the UI: the TypeScript types
// of every declared result (ui/src/generated/tools.ts) and the per-tool reference blocks
// of docs/tools.md. Both files are checked in and kept current by a test
// (`stepscope_reference --check`); `./dev gen` rewrites them.
#pragma once

#include <string>
#include <string_view>

#include "src/analysis/tool.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

// One TypeScript module: an interface per declared record, `ToolResults` (tool id -> its
// result's interface), `TOOL_OPTIONS` and `TOOL_COLUMNS` (each table's columns with label,
// unit and description), so pages compile against the declarations.
std::string ToolsTypeScript();

// The reference of one tool in Markdown: its options, its result's fields (nested
// records after) and its tables' columns.
std::string ToolReferenceMarkdown(const Tool& tool);

// `doc` with every block between "<!-- generated: reference TOOL_ID -->" and
// "<!-- end generated -->" replaced by that tool's reference. kInvalidArgument for a
// marker naming no tool or a block without its end.
StatusOr<std::string> UpdateReferenceBlocks(std::string_view doc);

}  // namespace stepscope::analysis
