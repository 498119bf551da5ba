#include "src/analysis/tool.h"

#include "src/analysis/output/csv_writer.h"
#include "src/analysis/tool_options.h"

namespace stepscope::analysis {

std::string ToolResult::ToJson(bool pretty) const {
  std::string out;
  output::JsonWriter writer(&out, pretty ? output::JsonWriter::Style::kPretty : output::JsonWriter::Style::kCompact);
  WriteJson(&writer);
  out.push_back('\n');
  return out;
}

std::vector<std::string> ToolResult::TableNames() const {
  std::vector<std::string> names;
  for (const output::Table& table : Tables()) names.push_back(table.name);
  return names;
}

StatusOr<output::Table> ToolResult::FindTable(std::string_view name) const {
  std::string known;
  for (output::Table& table : Tables()) {
    if (table.name == name) return std::move(table);
    known += known.empty() ? "" : ", ";
    known += table.name;
  }
  return NotFoundError("no table '" + std::string(name) + "' in this tool's result; tables: " +
                       (known.empty() ? std::string("(none)") : known));
}

StatusOr<std::string> ToolResult::TableCsv(std::string_view name) const {
  StatusOr<output::Table> table = FindTable(name);
  if (!table.ok()) return table.status();
  return output::TableToCsv(*table);
}

StatusOr<std::unique_ptr<ToolResult>> Tool::Run(const ProfileModel& model, const ToolOptions& options) const {
  return Compute(model, MaskToolOptions(*this, options));
}

}  // namespace stepscope::analysis
