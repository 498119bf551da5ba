#include "src/analysis/output/csv_writer.h"

#include <cmath>
#include <type_traits>

#include "src/analysis/output/json_writer.h"

namespace stepscope::analysis::output {
namespace {

bool NeedsQuoting(std::string_view field) {
  if (field.empty()) return false;
  if (field.front() == ' ' || field.back() == ' ') return true;
  return field.find_first_of(",\"\r\n") != std::string_view::npos;
}

// Names in a profile come from whoever wrote it (an imported trace, a remote worker). A
// text cell a spreadsheet would run as a formula (=, +, -, @, or a leading tab/CR, as
// OWASP lists them) gets a leading apostrophe, which spreadsheets show as text.
std::string NeutraliseFormula(const std::string& text) {
  if (text.empty() || std::string_view("=+-@\t\r").find(text.front()) == std::string_view::npos) return text;
  return "'" + text;
}

std::string CellToCsv(const Cell& cell) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) return "";
        else if constexpr (std::is_same_v<T, int64_t>) return std::to_string(v);
        else if constexpr (std::is_same_v<T, double>) return std::isfinite(v) ? FormatDoubleRoundTrip(v) : "";
        else if constexpr (std::is_same_v<T, std::string>) return NeutraliseFormula(v);
        else return v ? "true" : "false";
      },
      cell);
}

}  // namespace

void AppendCsvField(std::string_view field, std::string* out) {
  if (!NeedsQuoting(field)) {
    out->append(field);
    return;
  }
  out->push_back('"');
  for (char c : field) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

void AppendCsvRecord(const std::vector<std::string>& fields, std::string* out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendCsvField(fields[i], out);
  }
  out->append("\r\n");
}

std::string TableToCsv(const Table& table) {
  std::string out;
  std::vector<std::string> fields;
  for (const Column& column : table.columns) fields.push_back(column.id);
  AppendCsvRecord(fields, &out);
  for (const Row& row : table.rows) {
    fields.clear();
    for (const Cell& cell : row) fields.push_back(CellToCsv(cell));
    AppendCsvRecord(fields, &out);
  }
  return out;
}

}  // namespace stepscope::analysis::output
