#include "src/analysis/output/csv_writer.h"

#include <cmath>

#include <gtest/gtest.h>

namespace stepscope::analysis::output {
namespace {

TEST(CsvWriterTest, QuotesOnlyWhenNeeded) {
  std::string out;
  AppendCsvRecord({"plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", " padded", ""}, &out);
  EXPECT_EQ(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",\" padded\",\r\n");
}

TEST(CsvWriterTest, TableHasHeaderOfIdsAndTypedCells) {
  Table t;
  t.name = "ops";
  t.columns = {{"name", "Name", ColumnType::kString},
               {"count", "Count", ColumnType::kInt},
               {"time_ms", "Time (ms)", ColumnType::kDouble},
               {"eligible", "Eligible", ColumnType::kBool}};
  t.AddRow({std::string("MatMul, fused"), int64_t{3}, 0.1 + 0.2, true});
  t.AddRow({std::string("Relu"), Cell{}, std::nan(""), false});
  EXPECT_EQ(TableToCsv(t),
            "name,count,time_ms,eligible\r\n"
            "\"MatMul, fused\",3,0.30000000000000004,true\r\n"
            "Relu,,,false\r\n");
}

TEST(CsvWriterTest, TextThatASpreadsheetWouldRunIsNeutralised) {
  Table t;
  t.columns = {{"name", "Name", ColumnType::kString}, {"self_ms", "Self (ms)", ColumnType::kDouble}};
  t.AddRow({std::string("=HYPERLINK(\"http://x\")"), -1.5});
  t.AddRow({std::string("+cmd"), 0.0});
  t.AddRow({std::string("@SUM(A1)"), 0.0});
  t.AddRow({std::string("-x"), 0.0});
  t.AddRow({std::string("MatMul=x"), 0.0});
  EXPECT_EQ(TableToCsv(t),
            "name,self_ms\r\n"
            "\"'=HYPERLINK(\"\"http://x\"\")\",-1.5\r\n"  // numbers keep their sign
            "'+cmd,0\r\n"
            "'@SUM(A1),0\r\n"
            "'-x,0\r\n"
            "MatMul=x,0\r\n");
}

TEST(CsvWriterTest, EmptyTableIsHeaderOnly) {
  Table t;
  t.columns = {{"a", "A"}, {"b", "B"}};
  EXPECT_EQ(TableToCsv(t), "a,b\r\n");
}

}  // namespace
}  // namespace stepscope::analysis::output
