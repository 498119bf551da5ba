#include "src/analysis/output/tool_output.h"

#include "src/analysis/output/csv_writer.h"
#include "src/analysis/output/text_table.h"

namespace stepscope::analysis::output {

void WriteTablesJson(const std::vector<Table>& tables, JsonWriter* writer) {
  for (const Table& table : tables) {
    writer->Key(table.name);
    WriteTableRowsJson(table, writer);
  }
}

void EndResultJson(const std::vector<std::string>& diagnostics, JsonWriter* writer) {
  writer->Key("diagnostics");
  writer->BeginArray();
  for (const std::string& d : diagnostics) writer->String(d);
  writer->EndArray();
  writer->EndObject();
}

std::string FormatResultTextEnd(const std::vector<Table>& tables, const std::vector<std::string>& diagnostics,
                                size_t max_rows) {
  std::string out;
  for (const Table& table : tables) out += "\n" + FormatTextTable(table, {max_rows});
  for (const std::string& d : diagnostics) out += "note: " + d + "\n";
  return out;
}

std::string FormatOneTable(const Table& table, std::string_view format) {
  if (format == "csv") return TableToCsv(table);
  if (format != "json") return FormatTextTable(table);
  std::string json;
  JsonWriter writer(&json, JsonWriter::Style::kPretty);
  WriteTableRowsJson(table, &writer);
  return json + "\n";
}

}  // namespace stepscope::analysis::output
