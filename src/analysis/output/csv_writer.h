// CSV export of a Table, RFC 4180: comma separated, CRLF line ends, a header row of
// column ids, and a field quoted (with inner quotes doubled) exactly when it contains a
// comma, a quote, CR or LF, or starts/ends with a space (so spreadsheets keep it intact).
// Doubles use the shortest round-trip form; absent cells and NaN are empty fields. Text
// cells that a spreadsheet would evaluate (=, +, -, @, tab, CR first) start with ' .
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/output/table.h"

namespace stepscope::analysis::output {

// Appends one CSV record (fields + CRLF) to `out`.
void AppendCsvRecord(const std::vector<std::string>& fields, std::string* out);
// Appends `field`, quoted if needed.
void AppendCsvField(std::string_view field, std::string* out);
// The whole table: header (column ids) and one record per row.
std::string TableToCsv(const Table& table);

}  // namespace stepscope::analysis::output
