// A tool call's arguments, read by the names and types its inputSchema declares, with
// errors an agent can act on ("limit must be an integer, not \"ten\""); and the JSON
// Schema of a declared analysis option (analysis/tool_options.h), so the schemas the
// server lists follow the declarations instead of a hand-kept copy.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/output/json_writer.h"
#include "src/analysis/tool_options.h"
#include "stepscope/status.h"

namespace stepscope::cli::mcp {

class ToolArgs {
 public:
  // `arguments` may be null (no arguments). kInvalidArgument when it is not an object or
  // holds a name outside `known` (a misspelt argument must not be silently ignored).
  static StatusOr<ToolArgs> Read(const simdjson::dom::element* arguments, std::initializer_list<std::string_view> known);

  bool Has(std::string_view name) const;
  // Each: the argument's value, `fallback` (or nullopt) when absent, kInvalidArgument
  // naming the argument when it has another type.
  StatusOr<std::string> String(std::string_view name, std::string fallback = {}) const;
  StatusOr<std::optional<int64_t>> Int(std::string_view name) const;
  StatusOr<std::optional<double>> Number(std::string_view name) const;
  StatusOr<bool> Bool(std::string_view name, bool fallback) const;
  StatusOr<std::vector<std::string>> Strings(std::string_view name) const;
  // An object argument (null when absent).
  StatusOr<std::optional<simdjson::dom::object>> Object(std::string_view name) const;
  // The raw value (null when absent).
  std::optional<simdjson::dom::element> Raw(std::string_view name) const;

 private:
  explicit ToolArgs(std::optional<simdjson::dom::object> object) : object_(object) {}
  std::optional<simdjson::dom::object> object_;
};

// A JSON value given for `option` as the text its `set` reads: booleans as true/false,
// integers exactly, other numbers in their shortest round-trip form, strings as they are
// (so "5" works for a number, and `set` says what is wrong with "five").
StatusOr<std::string> OptionValueText(const analysis::ToolOptionDecl& option, simdjson::dom::element value);

// The option's property schema: type from its kind, description (prefixed by
// `description_prefix`, e.g. the tools reading it), default and bounds as declared.
void WriteOptionSchema(const analysis::ToolOptionDecl& option, std::string_view description_prefix,
                       analysis::output::JsonWriter* w);

// "'text'" with the value's JSON, cut to a readable length, for messages.
std::string QuotedJson(simdjson::dom::element value);

}  // namespace stepscope::cli::mcp
