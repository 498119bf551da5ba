// Plain-text presentation for people: aligned tables and "key: value" blocks.
//
//   Top device ops
//   Rank  Op            Self (ms)  Self %
//   ----  ------------  ---------  ------
//      1  MatMul           12.50    41.20
//
// Numbers are right-aligned, text left-aligned; widths count UTF-8 code points.
// Control characters from profile data (names are untrusted) are replaced by '?', so
// a crafted op name cannot move the cursor or recolour the terminal.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/analysis/output/table.h"

namespace stepscope::analysis::output {

struct TextTableOptions {
  // Rows beyond this are summarised in one "... N more rows" line (0 = print all).
  size_t max_rows = 0;
};

// Title (if any), header, a dashed rule and the rows; ends with a newline.
std::string FormatTextTable(const Table& table, const TextTableOptions& options = {});

// An aligned block:
//   Title
//     Average step time:  12.30 ms
//     Steps:              10
std::string FormatKeyValues(std::string_view title,
                            const std::vector<std::pair<std::string, std::string>>& rows);

// A cell as text output shows it (fixed decimals for doubles, "-" when absent).
std::string FormatCellText(const Cell& cell, const Column& column);
// `value` with `decimals` digits after the point ("12.30"); "-" for NaN/Inf.
std::string FormatFixed(double value, int decimals);
// Replaces control characters and invalid UTF-8 with '?'.
std::string SanitizeForTerminal(std::string_view text);
// Number of UTF-8 code points (the display width we assume).
size_t DisplayWidth(std::string_view text);

}  // namespace stepscope::analysis::output
