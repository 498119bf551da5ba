// Every tool option, declared once: its name, kind, default, bounds and help, and how its
// text becomes a ToolOptions field. The CLI's flags and `--help`, the HTTP API's query
// parameters, the server's result-cache key, the UI's option controls (through
// /api/tools) and docs/tools.md all read this list; none keeps its own copy.
//
// A tool names the options it reads (Tool::option_names()); MaskToolOptions keeps only
// those, so a result, and the cache key that stands for it, depend on exactly the
// declared options: an option a tool reads without declaring it is always its default.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/tool.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

enum class OptionKind { kBool, kInt, kNumber, kText };
// "bool", "int", "number", "text": the kind as /api/tools and the generated docs name it.
std::string_view OptionKindName(OptionKind kind);

struct ToolOptionDecl {
  std::string_view name;        // `--name` on the CLI, `name=` in the HTTP API and the UI
  OptionKind kind = OptionKind::kText;
  std::string_view value_name;  // for help: `--hops N`
  std::string_view help;
  std::string_view default_text;  // as help and docs show it; empty: unset
  // kInt, kNumber: the accepted range (inclusive).
  double min = 0;
  double max = 0;
  // Reads `text` (as the user typed it) into `options`; the error names the option as
  // `display_name` ("--hops" on the CLI, "hops" in the HTTP API).
  Status (*set)(std::string_view display_name, std::string_view text, ToolOptions* options) = nullptr;
  // The value in `options` as the exact text `set` reads back; empty when unset.
  std::string (*get)(const ToolOptions& options) = nullptr;
  // Copies this option's member from one ToolOptions to another, as it is (checked or not).
  void (*copy)(const ToolOptions& from, ToolOptions* to) = nullptr;
};

// Every declared option, in help order.
const std::vector<ToolOptionDecl>& AllToolOptions();
// The declaration named `name`, or null.
const ToolOptionDecl* FindToolOption(std::string_view name);
// The declarations `tool` reads, in its order.
std::vector<const ToolOptionDecl*> OptionsOf(const Tool& tool);
// The declaration of `tool`'s option `name`; kInvalidArgument "<tool> takes no option
// 'name'; its options: a, b" when the tool does not read one of that name (for callers
// that take options by name, such as the MCP server, rather than as flags).
StatusOr<const ToolOptionDecl*> FindOptionOf(const Tool& tool, std::string_view name);

// Checks what no single option can: start_ps <= end_ps. `prefix` is put before option
// names in the message ("--" on the CLI).
Status ValidateToolOptions(const ToolOptions& options, std::string_view prefix);

// `options` with every option `tool` does not declare reset to its default (text
// settings such as text_max_rows are kept).
ToolOptions MaskToolOptions(const Tool& tool, const ToolOptions& options);

// The tool's declared options as "name=value" parts joined by '\0', unset ones as
// "name=": the result-cache key's option part, complete by construction.
std::string ToolOptionsKey(const Tool& tool, const ToolOptions& options);

}  // namespace stepscope::analysis
