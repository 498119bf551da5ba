#include "src/analysis/output/text_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "src/base/format_number.h"

namespace stepscope::analysis::output {
namespace {

constexpr std::string_view kColumnGap = "  ";
constexpr std::string_view kEllipsis = "...";

bool IsNumeric(ColumnType type) { return type == ColumnType::kInt || type == ColumnType::kDouble; }

// Cuts `text` to at most `max_width` code points, ending in "..." when cut.
std::string Truncate(std::string text, size_t max_width) {
  if (max_width == 0 || DisplayWidth(text) <= max_width) return text;
  const size_t keep = max_width > kEllipsis.size() ? max_width - kEllipsis.size() : 0;
  size_t points = 0, i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (points == keep) break;
      ++points;
    }
  }
  text.resize(i);
  text.append(kEllipsis);
  return text;
}

void Pad(std::string* out, std::string_view text, size_t width, bool right_align) {
  const size_t w = DisplayWidth(text);
  const size_t pad = width > w ? width - w : 0;
  if (right_align) out->append(pad, ' ');
  out->append(text);
  if (!right_align) out->append(pad, ' ');
}

void TrimTrailingSpaces(std::string* line) {
  while (!line->empty() && line->back() == ' ') line->pop_back();
}

}  // namespace

size_t DisplayWidth(std::string_view text) {
  size_t n = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string SanitizeForTerminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out.push_back(c < 0x20 || c == 0x7F ? '?' : static_cast<char>(c));
      ++i;
      continue;
    }
    // Accept a structurally valid multi-byte sequence; anything else becomes '?'.
    size_t len = (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (ok) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

std::string FormatFixed(double value, int decimals) { return base::FormatFixed(value, decimals); }

std::string FormatCellText(const Cell& cell, const Column& column) {
  std::string text = std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) return "-";
        else if constexpr (std::is_same_v<T, int64_t>) return std::to_string(v);
        else if constexpr (std::is_same_v<T, double>) return FormatFixed(v, column.text_decimals);
        else if constexpr (std::is_same_v<T, std::string>) return SanitizeForTerminal(v);
        else return v ? "yes" : "no";
      },
      cell);
  return Truncate(std::move(text), static_cast<size_t>(std::max(column.text_max_width, 0)));
}

std::string FormatTextTable(const Table& table, const TextTableOptions& options) {
  const size_t ncols = table.columns.size();
  const size_t nrows = options.max_rows > 0 ? std::min(options.max_rows, table.rows.size()) : table.rows.size();
  std::vector<std::vector<std::string>> cells(nrows, std::vector<std::string>(ncols));
  std::vector<size_t> widths(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    widths[c] = DisplayWidth(table.columns[c].label);
  }
  for (size_t r = 0; r < nrows; ++r) {
    for (size_t c = 0; c < ncols; ++c) {
      const Cell& cell = c < table.rows[r].size() ? table.rows[r][c] : Cell{};
      cells[r][c] = FormatCellText(cell, table.columns[c]);
      widths[c] = std::max(widths[c], DisplayWidth(cells[r][c]));
    }
  }

  std::string out;
  if (!table.title.empty()) {
    out.append(SanitizeForTerminal(table.title));
    out.push_back('\n');
  }
  if (table.rows.empty()) {
    out.append("  (none)\n");
    return out;
  }
  auto emit_line = [&](const std::vector<std::string>& texts) {
    std::string line = "  ";
    for (size_t c = 0; c < ncols; ++c) {
      if (c > 0) line.append(kColumnGap);
      Pad(&line, texts[c], widths[c], IsNumeric(table.columns[c].type));
    }
    TrimTrailingSpaces(&line);
    out.append(line);
    out.push_back('\n');
  };
  std::vector<std::string> header(ncols), rule(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    header[c] = SanitizeForTerminal(table.columns[c].label);
    rule[c] = std::string(widths[c], '-');
  }
  emit_line(header);
  emit_line(rule);
  for (const auto& row : cells) emit_line(row);
  if (nrows < table.rows.size()) {
    out.append("  ... " + std::to_string(table.rows.size() - nrows) + " more rows\n");
  }
  return out;
}

std::string FormatKeyValues(std::string_view title,
                            const std::vector<std::pair<std::string, std::string>>& rows) {
  size_t key_width = 0;
  for (const auto& [key, value] : rows) key_width = std::max(key_width, DisplayWidth(key) + 1);
  std::string out;
  if (!title.empty()) {
    out.append(SanitizeForTerminal(title));
    out.push_back('\n');
  }
  for (const auto& [key, value] : rows) {
    std::string line = "  ";
    Pad(&line, SanitizeForTerminal(key) + ":", key_width, false);
    line.append("  ");
    line.append(SanitizeForTerminal(value));
    TrimTrailingSpaces(&line);
    out.append(line);
    out.push_back('\n');
  }
  return out;
}

}  // namespace stepscope::analysis::output
