// What follows from the tool declarations for people and for the UI: the TypeScript types
// of every declared result (ui/src/generated/tools.ts) and the per-tool reference blocks
// of docs/tools.md. The commands whose result is not a registered tool's (`diff`, `check`)
// are declared the same way and generated alongside (DeclaredCommands). Both files are checked in and kept current by a test
// (`stepscope_reference --check`); `./dev gen` rewrites them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/tool.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

// A command's declared result: one that no registered tool returns (AllTools), so that
// its types, tables and reference are generated as a tool's are.
struct DeclaredCommand {
  std::string_view id;  // the command: "diff", "check"
  const output::TypeDesc* result_type = nullptr;
};
// Every such command, in a fixed order.
const std::vector<DeclaredCommand>& DeclaredCommands();

// One TypeScript module: an interface per declared record, `ToolResults` (tool id -> its
// result's interface), `CommandResults` (the same for DeclaredCommands), `TOOL_OPTIONS`
// and `TOOL_COLUMNS` (each table's columns with label, unit and description, by tool or
// command id), so pages compile against the declarations.
std::string ToolsTypeScript();

// The reference of one tool in Markdown: its options, its result's fields (nested
// records after) and its tables' columns.
std::string ToolReferenceMarkdown(const Tool& tool);
// The same for a command: its result's fields and tables (its flags are in docs/cli.md).
std::string CommandReferenceMarkdown(const DeclaredCommand& command);

// `doc` with every block between "<!-- generated: reference ID -->" and
// "<!-- end generated -->" replaced by the reference of that tool or declared command.
// kInvalidArgument for a marker naming neither or a block without its end.
StatusOr<std::string> UpdateReferenceBlocks(std::string_view doc);

}  // namespace stepscope::analysis
