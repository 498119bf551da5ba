#include "src/analysis/output/table.h"

#include <type_traits>

#include "src/analysis/output/json_writer.h"
#include "src/base/logging.h"

namespace stepscope::analysis::output {

void Table::AddRow(Row row) {
  STEPSCOPE_DCHECK(row.size() == columns.size());
  rows.push_back(std::move(row));
}

int Table::ColumnIndex(std::string_view id) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

void WriteTableRowsJson(const Table& table, JsonWriter* writer) {
  writer->BeginArray();
  for (const Row& row : table.rows) {
    writer->BeginObject();
    for (size_t c = 0; c < table.columns.size() && c < row.size(); ++c) {
      writer->Key(table.columns[c].id);
      std::visit(
          [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) writer->Null();
            else if constexpr (std::is_same_v<T, int64_t>) writer->Int(v);
            else if constexpr (std::is_same_v<T, double>) writer->Double(v);
            else if constexpr (std::is_same_v<T, std::string>) writer->String(v);
            else writer->Bool(v);
          },
          row[c]);
    }
    writer->EndObject();
  }
  writer->EndArray();
}

}  // namespace stepscope::analysis::output
