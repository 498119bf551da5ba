// What every tool's output shares, written once: a tool decides its own fields and which
// of its tables go where, and these functions render the tables and the diagnostics the
// same way in every tool (JSON keys = table names, "note: " lines in text).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/output/json_writer.h"
#include "src/analysis/output/table.h"

namespace stepscope::analysis::output {

// Inside a tool's JSON object: each table's rows under the table's name, in order.
void WriteTablesJson(const std::vector<Table>& tables, JsonWriter* writer);
// Ends a tool's JSON object: "diagnostics" as an array of strings, then the closing brace.
void EndResultJson(const std::vector<std::string>& diagnostics, JsonWriter* writer);

// Ends a tool's text report: each table after a blank line, at most `max_rows` rows each
// (0 = all), then one "note: <diagnostic>" line per diagnostic.
std::string FormatResultTextEnd(const std::vector<Table>& tables, const std::vector<std::string>& diagnostics,
                                size_t max_rows);

// One table alone in `format` ("csv", "json", anything else: text), as `--table NAME`
// prints it: CSV records, a pretty JSON array of row objects (newline-terminated), or the
// aligned text table.
std::string FormatOneTable(const Table& table, std::string_view format);

}  // namespace stepscope::analysis::output
