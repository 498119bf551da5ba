// Table: the one tabular shape every tool result exposes, so the same rows can be
// printed as an aligned text table, exported as CSV (`--table NAME`) and written as a
// JSON array of objects, with the same column ids everywhere.
//
// Column ids are part of the documented contract (docs/tools.md): they are the CSV
// header and the JSON keys. Labels are for people only and may change.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace stepscope::analysis::output {

enum class ColumnType { kString, kInt, kDouble, kBool };

struct Column {
  std::string id;     // stable machine name, e.g. "total_self_time_ms"
  std::string label;  // header in text output, e.g. "Self (ms)"
  ColumnType type = ColumnType::kString;
  int text_decimals = 2;   // digits after the point for kDouble in text output
  int text_max_width = 0;  // text output truncates longer strings (0 = no limit)
  // What the values measure, for UIs and docs: "ms", "us", "%", "points" (a difference of
  // two percentages), "count"; empty for names and words. Labels already say it for people.
  std::string unit;
};

// std::monostate is an absent value: null in JSON, an empty CSV field, "-" in text.
using Cell = std::variant<std::monostate, int64_t, double, std::string, bool>;
using Row = std::vector<Cell>;

// A value that may be absent (a share without steps), as a cell.
inline Cell OptionalCell(const std::optional<double>& value) { return value ? Cell(*value) : Cell(); }
inline Cell OptionalCell(const std::optional<int64_t>& value) { return value ? Cell(*value) : Cell(); }
// An index or position where -1 means "none" (no schedule, no allocation), as a cell.
inline Cell IndexCell(int64_t index) { return index >= 0 ? Cell(index) : Cell(); }

struct Table {
  std::string name;   // what --table selects, e.g. "top_device_ops"
  std::string title;  // heading in text output
  std::vector<Column> columns;
  std::vector<Row> rows;

  // Appends a row; it must have one cell per column (checked in debug builds).
  void AddRow(Row row);
  // Index of the column with this id, or -1.
  int ColumnIndex(std::string_view id) const;
};

class JsonWriter;
// Writes the rows as a JSON array of objects keyed by column id.
void WriteTableRowsJson(const Table& table, JsonWriter* writer);

}  // namespace stepscope::analysis::output
