#include "src/analysis/output/tool_output.h"

#include <gtest/gtest.h>

#include "src/analysis/output/csv_writer.h"
#include "src/analysis/output/text_table.h"

namespace stepscope::analysis::output {
namespace {

Table OneColumnTable(std::string name, std::vector<int64_t> values) {
  Table t;
  t.name = std::move(name);
  t.title = "Table " + t.name;
  t.columns = {{"n", "N", ColumnType::kInt}};
  for (int64_t v : values) t.AddRow({v});
  return t;
}

TEST(ToolOutputTest, JsonHasEachTableUnderItsNameThenTheDiagnosticsAndClosesTheObject) {
  std::string json;
  JsonWriter w(&json, JsonWriter::Style::kCompact);
  w.BeginObject();
  w.Field("tool", "t");
  WriteTablesJson({OneColumnTable("a", {1, 2}), OneColumnTable("b", {})}, &w);
  EndResultJson({"first", "second \"quoted\""}, &w);
  EXPECT_TRUE(w.complete());
  EXPECT_EQ(json, R"({"tool":"t","a":[{"n":1},{"n":2}],"b":[],"diagnostics":["first","second \"quoted\""]})");
}

TEST(ToolOutputTest, TextHasEachTableAfterABlankLineThenOneNoteLinePerDiagnostic) {
  const Table a = OneColumnTable("a", {1, 2, 3});
  const Table b = OneColumnTable("b", {4});
  EXPECT_EQ(FormatResultTextEnd({a, b}, {"x", "y"}, 2),
            "\n" + FormatTextTable(a, {2}) + "\n" + FormatTextTable(b, {2}) + "note: x\nnote: y\n");
  EXPECT_EQ(FormatResultTextEnd({}, {}, 0), "");
}

TEST(ToolOutputTest, OneTableInEachFormat) {
  const Table a = OneColumnTable("a", {7});
  EXPECT_EQ(FormatOneTable(a, "csv"), TableToCsv(a));
  EXPECT_EQ(FormatOneTable(a, "json"), "[\n  {\n    \"n\": 7\n  }\n]\n");
  EXPECT_EQ(FormatOneTable(a, "text"), FormatTextTable(a));
}

}  // namespace
}  // namespace stepscope::analysis::output
