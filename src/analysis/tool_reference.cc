#include "src/analysis/tool_reference.h"

#include <set>
#include <utility>
#include <vector>

#include "src/analysis/output/json_writer.h"
#include "src/analysis/tool_options.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/check.h"
#include "src/analysis/tools/diff.h"

namespace stepscope::analysis {
namespace {

using output::FieldDesc;
using output::TypeDesc;
using output::ValueKind;

constexpr std::string_view kBlockStart = "<!-- generated: reference ";
constexpr std::string_view kBlockEnd = "<!-- end generated -->";

std::string TsString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string TsType(const TypeDesc& type) {
  switch (type.kind) {
    case ValueKind::kInt:
    case ValueKind::kDouble:
      return "number";
    case ValueKind::kBool:
      return "boolean";
    case ValueKind::kString:
      return "string";
    case ValueKind::kRecord:
      return std::string(type.name);
    case ValueKind::kArray: {
      std::string element = TsType(*type.element);
      return element.find(' ') != std::string::npos ? "(" + element + ")[]" : element + "[]";
    }
    case ValueKind::kOptional:
      return TsType(*type.element) + " | null";
    case ValueKind::kConstant:
      return "string";
    case ValueKind::kMap:
      return "Record<string, " + TsType(*type.element) + ">";
  }
  return "unknown";
}

// Every record reachable from `type`, each once, dependencies first.
void CollectRecords(const TypeDesc& type, std::set<const TypeDesc*>* seen, std::vector<const TypeDesc*>* order) {
  if (type.element != nullptr) CollectRecords(*type.element, seen, order);
  if (type.kind != ValueKind::kRecord || !seen->insert(&type).second) return;
  for (const FieldDesc& field : type.fields) CollectRecords(*field.type, seen, order);
  order->push_back(&type);
}

// "export interface Name extends Inlined, ... {": a record written into its parent's
// object is a base interface, so that its fields are declared once in TypeScript too.
std::string TsInterfaceHead(const TypeDesc& record) {
  std::string head = "export interface " + std::string(record.name);
  std::string bases;
  for (const FieldDesc& field : record.fields) {
    if (field.inlined) bases += (bases.empty() ? "" : ", ") + std::string(field.type->name);
  }
  return head + (bases.empty() ? "" : " extends " + bases) + " {\n";
}

// The records written as rows of a table in the JSON: there an absent value of a shown
// column is null, where a record's own `when` field is left out.
std::set<const TypeDesc*> JsonTableRows(const std::vector<const TypeDesc*>& records) {
  std::set<const TypeDesc*> rows;
  for (const TypeDesc* record : records) {
    for (const FieldDesc& field : record->fields) {
      if (field.table && field.json) rows.insert(field.type->element);
    }
  }
  return rows;
}

// A field's TypeScript type: a `when` field is optional (`?`), and where the writer leaves
// it out when empty (an object's field, not a table row's cell) it is never null.
std::string TsFieldType(const FieldDesc& field, bool table_row) {
  if (field.type->kind == ValueKind::kConstant) return TsString(field.constant);
  if (!field.info.when.empty() && !table_row && field.type->kind == ValueKind::kOptional) {
    return TsType(*field.type->element);
  }
  return TsType(*field.type);
}

void AppendTsFields(const TypeDesc& record, bool table_row, std::string* out) {
  for (const FieldDesc& field : record.fields) {
    if (field.inlined) continue;  // a base interface (TsInterfaceHead)
    if (!field.json) continue;  // a table view: in the tables, not in the JSON
    if (!field.info.description.empty()) *out += "  /** " + std::string(field.info.description) + " */\n";
    *out += "  " + std::string(field.id) + (field.info.when.empty() ? "" : "?") + ": ";
    *out += TsFieldType(field, table_row) + ";\n";
  }
}

std::string KindName(const TypeDesc& type) {
  switch (type.kind) {
    case ValueKind::kInt:
      return "integer";
    case ValueKind::kDouble:
      return "number";
    case ValueKind::kBool:
      return "bool";
    case ValueKind::kString:
    case ValueKind::kConstant:
      return "string";
    case ValueKind::kRecord:
      return "object `" + std::string(type.name) + "`";
    case ValueKind::kArray:
      return "array of " + KindName(*type.element);
    case ValueKind::kOptional:
      return KindName(*type.element) + " or null";
    case ValueKind::kMap:
      return "object of name to " + KindName(*type.element);
  }
  return "";
}

// Markdown table cells may not hold '|' or line breaks.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else {
      out += c == '\n' ? ' ' : c;
    }
  }
  return out;
}

std::string Meaning(const FieldDesc& field) {
  std::string meaning(field.info.description);
  if (field.type->kind == ValueKind::kConstant) meaning = "`\"" + std::string(field.constant) + "\"`";
  if (!field.info.when.empty()) meaning += (meaning.empty() ? "" : "; ") + ("only when " + std::string(field.info.when));
  return Cell(meaning);
}

void AppendFieldRows(const TypeDesc& record, std::string* out) {
  for (const FieldDesc& field : record.fields) {
    if (field.inlined) {
      AppendFieldRows(*field.type, out);
      continue;
    }
    std::string kind = !field.json ? "table only, not in the JSON (below)" : field.table ? "table (below)" : KindName(*field.type);
    *out += "| `" + std::string(field.id) + "` | " + kind + " | " + std::string(field.info.unit) + " | " +
            Meaning(field) + " |\n";
  }
}

// The record's table fields, its inlined records' included, in declaration order.
void CollectTableFields(const TypeDesc& record, std::vector<const FieldDesc*>* tables) {
  for (const FieldDesc& field : record.fields) {
    if (field.inlined) CollectTableFields(*field.type, tables);
    if (field.table) tables->push_back(&field);
  }
}
std::vector<const FieldDesc*> TableFields(const TypeDesc& record) {
  std::vector<const FieldDesc*> tables;
  CollectTableFields(record, &tables);
  return tables;
}

void AppendTables(const TypeDesc& record, std::string* out) {
  for (const FieldDesc* table : TableFields(record)) {
    const FieldDesc& field = *table;
    const TypeDesc& row = *field.type->element;
    *out += "\nTable `" + std::string(field.id) + "` (" + std::string(field.title) + ")";
    if (!field.info.description.empty()) *out += ": " + Cell(field.info.description);
    *out += "\n\n| column | label | type | unit | meaning |\n|---|---|---|---|---|\n";
    for (const FieldDesc& column : row.fields) {
      std::string label(column.info.label.empty() ? column.id : column.info.label);
      *out += "| `" + std::string(column.id) + "` | " + Cell(label) + " | " + KindName(*column.type) + " | " +
              std::string(column.info.unit) + " | " + Meaning(column) + " |\n";
    }
  }
}

// A declared result: the tool's or command's id and its type.
using DeclaredResult = std::pair<std::string_view, const TypeDesc*>;

std::vector<DeclaredResult> ToolResultTypes() {
  std::vector<DeclaredResult> results;
  for (const Tool* tool : AllTools()) {
    if (tool->result_type() != nullptr) results.emplace_back(tool->id(), tool->result_type());
  }
  return results;
}
std::vector<DeclaredResult> CommandResultTypes() {
  std::vector<DeclaredResult> results;
  for (const DeclaredCommand& command : DeclaredCommands()) results.emplace_back(command.id, command.result_type);
  return results;
}

void AppendResultsInterface(std::string_view name, const std::vector<DeclaredResult>& results, std::string* out) {
  *out += "export interface " + std::string(name) + " {\n";
  for (const auto& [id, type] : results) *out += "  " + std::string(id) + ": " + std::string(type->name) + ";\n";
  *out += "}\n";
}

// The result's fields, its tables' columns and the records it holds, in Markdown.
std::string ResultReferenceMarkdown(const TypeDesc& result) {
  std::set<const TypeDesc*> seen;
  std::vector<const TypeDesc*> records;
  CollectRecords(result, &seen, &records);
  // The result first, then the records it holds; table rows are described as tables.
  std::set<const TypeDesc*> rows;
  for (const FieldDesc* table : TableFields(result)) rows.insert(table->type->element);
  std::string out = "\nResult `" + std::string(result.name) + "`:\n\n| field | type | unit | meaning |\n|---|---|---|---|\n";
  AppendFieldRows(result, &out);
  AppendTables(result, &out);
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    const TypeDesc* record = *it;
    if (record == &result || rows.count(record)) continue;
    bool inlined_only = false;
    for (const FieldDesc& field : result.fields) inlined_only = inlined_only || (field.inlined && field.type == record);
    if (inlined_only) continue;
    out += "\nObject `" + std::string(record->name) + "`:\n\n| field | type | unit | meaning |\n|---|---|---|---|\n";
    AppendFieldRows(*record, &out);
  }
  return out;
}

}  // namespace

const std::vector<DeclaredCommand>& DeclaredCommands() {
  static const std::vector<DeclaredCommand> kCommands = {
      {"diff", &output::DescribeType<ProfileDiff>()},
      {"check", &output::DescribeType<CheckResult>()},
  };
  return kCommands;
}

std::string ToolsTypeScript() {
  std::string out =
      "// Generated from the tool declarations (src/analysis/tool_options.cc and each tool's\n"
      "// DescribeRecord) by `stepscope_reference --typescript`; do not edit: run ./dev gen.\n"
      "/* eslint-disable */\n\n";
  std::set<const TypeDesc*> seen;
  std::vector<const TypeDesc*> records;
  const std::vector<DeclaredResult> tools = ToolResultTypes();
  const std::vector<DeclaredResult> commands = CommandResultTypes();
  std::vector<DeclaredResult> results = tools;
  results.insert(results.end(), commands.begin(), commands.end());
  for (const auto& [id, type] : results) CollectRecords(*type, &seen, &records);
  const std::set<const TypeDesc*> table_rows = JsonTableRows(records);
  for (const TypeDesc* record : records) {
    out += TsInterfaceHead(*record);
    AppendTsFields(*record, table_rows.count(record) > 0, &out);
    out += "}\n\n";
  }
  out += "/** Each declared tool's result, by tool id. */\n";
  AppendResultsInterface("ToolResults", tools, &out);
  out += "\n/** The result of each command that is not a tool (`stepscope diff`, `check`), by command. */\n";
  AppendResultsInterface("CommandResults", commands, &out);
  out += "\nexport type OptionKind = 'bool' | 'int' | 'number' | 'text';\n";
  out += "export interface ToolOptionDecl {\n  name: string;\n  kind: OptionKind;\n  help: string;\n"
         "  default: string;\n  min?: number;\n  max?: number;\n}\n\n";
  out += "/** Every tool's options, by tool id (the same list /api/tools returns). */\n";
  out += "export const TOOL_OPTIONS: Record<string, ToolOptionDecl[]> = {\n";
  for (const Tool* tool : AllTools()) {
    out += "  " + std::string(tool->id()) + ": [";
    bool first = true;
    for (const ToolOptionDecl* option : OptionsOf(*tool)) {
      out += std::string(first ? "\n" : "") + "    { name: " + TsString(option->name) +
             ", kind: " + TsString(OptionKindName(option->kind)) + ", help: " + TsString(option->help) +
             ", default: " + TsString(option->default_text);
      if (option->kind == OptionKind::kInt || option->kind == OptionKind::kNumber) {
        out += ", min: " + output::FormatDoubleRoundTrip(option->min) + ", max: " + output::FormatDoubleRoundTrip(option->max);
      }
      out += " },\n";
      first = false;
    }
    out += std::string(first ? "" : "  ") + "],\n";
  }
  out += "};\n\n";
  out += "export interface ColumnDecl {\n  id: string;\n  label: string;\n  unit: string;\n  description: string;\n"
         "  conditional: boolean;\n}\n\n";
  out += "/** Every declared table's columns, by tool (or command) id and table name. */\n";
  out += "export const TOOL_COLUMNS: Record<string, Record<string, ColumnDecl[]>> = {\n";
  for (const auto& [id, type] : results) {
    out += "  " + std::string(id) + ": {\n";
    for (const FieldDesc* table : TableFields(*type)) {
      out += "    " + std::string(table->id) + ": [\n";
      for (const FieldDesc& column : table->type->element->fields) {
        out += "      { id: " + TsString(column.id) + ", label: " +
               TsString(column.info.label.empty() ? column.id : column.info.label) + ", unit: " +
               TsString(column.info.unit) + ", description: " + TsString(column.info.description) +
               ", conditional: " + (column.info.when.empty() ? "false" : "true") + " },\n";
      }
      out += "    ],\n";
    }
    out += "  },\n";
  }
  out += "};\n";
  return out;
}

std::string ToolReferenceMarkdown(const Tool& tool) {
  std::string out = "Generated from the tool's declaration (`stepscope_reference`).\n\n";
  std::vector<const ToolOptionDecl*> options = OptionsOf(tool);
  if (options.empty()) {
    out += "Options: none.\n";
  } else {
    out += "| option (`--name`, `name=`) | kind | default | meaning |\n|---|---|---|---|\n";
    for (const ToolOptionDecl* option : options) {
      std::string kind(OptionKindName(option->kind));
      if (option->kind == OptionKind::kInt || option->kind == OptionKind::kNumber) {
        kind += " " + output::FormatDoubleRoundTrip(option->min) + " to " + output::FormatDoubleRoundTrip(option->max);
      }
      out += "| `" + std::string(option->name) + "` | " + kind + " | " +
             (option->default_text.empty() ? "unset" : "`" + std::string(option->default_text) + "`") + " | " +
             Cell(option->help) + " |\n";
    }
  }
  const TypeDesc* result = tool.result_type();
  if (result == nullptr) return out + "\nResult: not declared.\n";
  return out + ResultReferenceMarkdown(*result);
}

std::string CommandReferenceMarkdown(const DeclaredCommand& command) {
  return "Generated from the command's declaration (`stepscope_reference`).\n" +
         ResultReferenceMarkdown(*command.result_type);
}

namespace {

// The reference block of the tool or declared command `id`.
StatusOr<std::string> ReferenceOf(std::string_view id) {
  for (const DeclaredCommand& command : DeclaredCommands()) {
    if (command.id == id) return CommandReferenceMarkdown(command);
  }
  StatusOr<const Tool*> tool = FindTool(id);
  if (!tool.ok()) return InvalidArgumentError("a reference block names no tool or command: " + tool.status().message());
  return ToolReferenceMarkdown(**tool);
}

}  // namespace

StatusOr<std::string> UpdateReferenceBlocks(std::string_view doc) {
  std::string out;
  size_t at = 0;
  while (true) {
    size_t start = doc.find(kBlockStart, at);
    if (start == std::string_view::npos) break;
    size_t id_end = doc.find(" -->", start);
    if (id_end == std::string_view::npos) return InvalidArgumentError("a reference marker without its closing ' -->'");
    std::string_view id = doc.substr(start + kBlockStart.size(), id_end - start - kBlockStart.size());
    StatusOr<std::string> reference = ReferenceOf(id);
    if (!reference.ok()) return reference.status();
    size_t end = doc.find(kBlockEnd, id_end);
    if (end == std::string_view::npos) {
      return InvalidArgumentError("the reference block of '" + std::string(id) + "' has no " + std::string(kBlockEnd));
    }
    out += doc.substr(at, id_end + 4 - at);
    out += "\n" + *reference;
    at = end;
  }
  out += doc.substr(at);
  return out;
}

}  // namespace stepscope::analysis
