#include "src/analysis/output/text_table.h"

#include <gtest/gtest.h>

#include "src/analysis/output/json_writer.h"

namespace stepscope::analysis::output {
namespace {

Table SampleTable() {
  Table t;
  t.name = "top";
  t.title = "Top ops";
  t.columns = {{"rank", "Rank", ColumnType::kInt},
               {"name", "Op", ColumnType::kString, 2, 8},
               {"self_ms", "Self (ms)", ColumnType::kDouble, 2}};
  t.AddRow({int64_t{1}, std::string("MatMul"), 12.5});
  t.AddRow({int64_t{10}, std::string("VeryLongOperationName"), 0.004});
  return t;
}

TEST(TextTableTest, AlignsNumbersRightAndTextLeft) {
  EXPECT_EQ(FormatTextTable(SampleTable()),
            "Top ops\n"
            "  Rank  Op        Self (ms)\n"
            "  ----  --------  ---------\n"
            "     1  MatMul        12.50\n"
            "    10  VeryL...       0.00\n");
}

TEST(TextTableTest, MaxRowsSummarisesTheRest) {
  std::string text = FormatTextTable(SampleTable(), {.max_rows = 1});
  EXPECT_NE(text.find("MatMul"), std::string::npos);
  EXPECT_EQ(text.find("VeryL"), std::string::npos);
  EXPECT_NE(text.find("... 1 more rows"), std::string::npos);
}

TEST(TextTableTest, EmptyTableSaysNone) {
  Table t = SampleTable();
  t.rows.clear();
  EXPECT_EQ(FormatTextTable(t), "Top ops\n  (none)\n");
}

TEST(TextTableTest, ControlCharactersCannotReachTheTerminal) {
  EXPECT_EQ(SanitizeForTerminal("a\x1b[31mred\x07"), "a?[31mred?");
  EXPECT_EQ(SanitizeForTerminal("µs\xff"), "µs?");
}

TEST(TextTableTest, WidthCountsCodePoints) {
  EXPECT_EQ(DisplayWidth("µs"), 2u);
  Table t;
  t.columns = {{"u", "Unit"}, {"v", "V", ColumnType::kInt}};
  t.AddRow({std::string("µs"), int64_t{1}});
  EXPECT_EQ(FormatTextTable(t), "  Unit  V\n  ----  -\n  µs    1\n");
}

TEST(TextTableTest, FixedFormatting) {
  EXPECT_EQ(FormatFixed(1.005, 1), "1.0");
  EXPECT_EQ(FormatFixed(-0.0001, 2), "0.00");
  EXPECT_EQ(FormatFixed(-1.5, 1), "-1.5");
  EXPECT_EQ(FormatFixed(std::numeric_limits<double>::quiet_NaN(), 2), "-");
  Column c{"x", "X", ColumnType::kBool};
  EXPECT_EQ(FormatCellText(true, c), "yes");
  EXPECT_EQ(FormatCellText(Cell{}, c), "-");
}

TEST(TextTableTest, KeyValuesAreAligned) {
  EXPECT_EQ(FormatKeyValues("Summary", {{"Steps", "10"}, {"Average step time", "12.30 ms"}}),
            "Summary\n"
            "  Steps:              10\n"
            "  Average step time:  12.30 ms\n");
}

TEST(TableTest, RowsAsJsonObjects) {
  std::string out;
  JsonWriter w(&out);
  WriteTableRowsJson(SampleTable(), &w);
  EXPECT_EQ(out, R"([{"rank":1,"name":"MatMul","self_ms":12.5},{"rank":10,"name":"VeryLongOperationName","self_ms":0.004}])");
  EXPECT_EQ(SampleTable().ColumnIndex("self_ms"), 2);
  EXPECT_EQ(SampleTable().ColumnIndex("nope"), -1);
}

}  // namespace
}  // namespace stepscope::analysis::output
