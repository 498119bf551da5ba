#include "src/analysis/output/schema.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/output/schema_writer.h"

namespace stepscope::analysis::output {
namespace {

struct Row {
  int64_t count = 0;
  double total_ms = 0;
  std::optional<int64_t> bytes;
  std::string hidden_internal;  // not declared: never written
};

constexpr auto DescribeRecord(std::type_identity<Row>) {
  return Record("Row", Field("count", &Row::count, {.label = "Count", .unit = "count"}),
                Field("total_ms", &Row::total_ms, {.label = "Total (ms)", .unit = "ms", .decimals = 3}),
                Computed<Row>("avg_ms", [](const Row& r) {
                  return r.count > 0 ? std::optional<double>(r.total_ms / r.count) : std::nullopt;
                }),
                Field("bytes", &Row::bytes, {.when = "with memory"}));
}

struct Header {
  std::string name;
};
constexpr auto DescribeRecord(std::type_identity<Header>) { return Record("Header", Field("name", &Header::name)); }

struct Result {
  Header header;
  bool with_memory = false;
  std::vector<Row> rows;
  std::vector<int> plain;
};
bool ShowColumn(const Result& r, std::string_view table, std::string_view column) {
  return table != "rows" || column != "bytes" || r.with_memory;
}
constexpr auto DescribeRecord(std::type_identity<Result>) {
  return Record("Result", Constant("tool", "test"), Inline(&Result::header),
                Field("with_memory", &Result::with_memory), TableField("rows", &Result::rows, "Rows"),
                Field("plain", &Result::plain));
}

std::string Json(const Result& r) {
  std::string out;
  JsonWriter w(&out, JsonWriter::Style::kCompact);
  WriteRecordJson(r, &w);
  return out;
}

TEST(SchemaTest, JsonFollowsTheDeclarationInOrder) {
  Result r{{"n"}, false, {{2, 3.0, 7, "x"}, {0, 0, std::nullopt, ""}}, {1, 2}};
  EXPECT_EQ(Json(r),
            "{\"tool\":\"test\",\"name\":\"n\",\"with_memory\":false,"
            "\"rows\":[{\"count\":2,\"total_ms\":3,\"avg_ms\":1.5},{\"count\":0,\"total_ms\":0,\"avg_ms\":null}],"
            "\"plain\":[1,2]}");
  r.with_memory = true;
  EXPECT_THAT(Json(r), ::testing::HasSubstr("\"avg_ms\":1.5,\"bytes\":7},{\"count\":0,\"total_ms\":0,\"avg_ms\":null,\"bytes\":null}"));
}

TEST(SchemaTest, TablesHaveTheDeclaredColumnsAndTypedCells) {
  Result r{{"n"}, true, {{4, 2.0, 5, ""}}, {}};
  std::vector<Table> tables = RecordTables(r);
  ASSERT_EQ(tables.size(), 1u);
  const Table& t = tables[0];
  EXPECT_EQ(t.name, "rows");
  EXPECT_EQ(t.title, "Rows");
  ASSERT_EQ(t.columns.size(), 4u);
  EXPECT_EQ(t.columns[1].label, "Total (ms)");
  EXPECT_EQ(t.columns[1].unit, "ms");
  EXPECT_EQ(t.columns[1].text_decimals, 3);
  EXPECT_EQ(t.columns[2].label, "avg_ms");  // no label: the id
  EXPECT_EQ(t.columns[0].type, ColumnType::kInt);
  EXPECT_EQ(t.columns[2].type, ColumnType::kDouble);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(std::get<double>(t.rows[0][2]), 0.5);
  r.with_memory = false;
  EXPECT_EQ(RecordTables(r)[0].columns.size(), 3u);
}

TEST(SchemaTest, DescriptionListsFieldsKindsAndConditions) {
  const TypeDesc& d = DescribeType<Result>();
  ASSERT_EQ(d.kind, ValueKind::kRecord);
  EXPECT_EQ(d.name, "Result");
  ASSERT_EQ(d.fields.size(), 5u);
  EXPECT_EQ(d.fields[0].constant, "test");
  EXPECT_TRUE(d.fields[1].inlined);
  EXPECT_EQ(d.fields[1].type, &DescribeType<Header>());
  EXPECT_TRUE(d.fields[3].table);
  const TypeDesc& row = *d.fields[3].type->element;
  EXPECT_EQ(row.fields[2].type->kind, ValueKind::kOptional);  // the computed average
  EXPECT_EQ(row.fields[3].info.when, "with memory");
  EXPECT_EQ(d.fields[4].type->element->kind, ValueKind::kInt);
}

// A tree whose JSON nests and whose table is the tree flattened; a map by name.
struct Node {
  std::string name;
  std::vector<std::pair<std::string, double>> numbers;  // ordered map
  std::map<std::string, int64_t> counts;                // sorted map
  std::vector<Node> children;
};
struct FlatRow {
  int64_t depth = 0;
  std::string name;
};
constexpr auto DescribeRecord(std::type_identity<FlatRow>) {
  return Record("FlatRow", Field("depth", &FlatRow::depth), Field("name", &FlatRow::name));
}
void Flatten(const Node& n, int64_t depth, std::vector<FlatRow>* rows) {
  rows->push_back({depth, n.name});
  for (const Node& c : n.children) Flatten(c, depth + 1, rows);
}
constexpr auto DescribeRecord(std::type_identity<Node>) {
  return Record("Node", Field("name", &Node::name), Field("numbers", &Node::numbers), Field("counts", &Node::counts),
                Field("children", &Node::children),
                TableView<Node>("flat", [](const Node& n) {
                  std::vector<FlatRow> rows;
                  Flatten(n, 0, &rows);
                  return rows;
                }, "Flat"));
}

TEST(SchemaTest, MapsAreObjectsAndTableViewsAreTablesOnly) {
  Node root{"root", {{"z", 1.5}, {"a", 2}}, {{"y", 2}, {"b", 1}}, {{"leaf", {}, {}, {}}}};
  std::string json;
  JsonWriter w(&json, JsonWriter::Style::kCompact);
  WriteRecordJson(root, &w);
  EXPECT_EQ(json,
            "{\"name\":\"root\",\"numbers\":{\"z\":1.5,\"a\":2},\"counts\":{\"b\":1,\"y\":2},"
            "\"children\":[{\"name\":\"leaf\",\"numbers\":{},\"counts\":{},\"children\":[]}]}");
  std::vector<Table> tables = RecordTables(root);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].name, "flat");
  ASSERT_EQ(tables[0].rows.size(), 2u);
  EXPECT_EQ(std::get<int64_t>(tables[0].rows[1][0]), 1);
  EXPECT_EQ(std::get<std::string>(tables[0].rows[1][1]), "leaf");

  const TypeDesc& d = DescribeType<Node>();
  ASSERT_EQ(d.fields.size(), 5u);
  EXPECT_EQ(d.fields[1].type->kind, ValueKind::kMap);
  EXPECT_EQ(d.fields[1].type->element->kind, ValueKind::kDouble);
  EXPECT_EQ(d.fields[2].type->kind, ValueKind::kMap);
  EXPECT_EQ(d.fields[3].type->element, &d);  // recursive
  EXPECT_TRUE(d.fields[4].table);
  EXPECT_FALSE(d.fields[4].json);
  EXPECT_EQ(d.fields[4].type->element, &DescribeType<FlatRow>());
}

// A field present only sometimes (`when`) is left out where absent; other absent values
// are null.
struct Sometimes {
  std::optional<double> only_with_x;
  std::optional<double> or_null;
};
constexpr auto DescribeRecord(std::type_identity<Sometimes>) {
  return Record("Sometimes", Field("only_with_x", &Sometimes::only_with_x, {.when = "with x"}),
                Field("or_null", &Sometimes::or_null));
}

TEST(SchemaTest, ConditionalOptionalFieldsAreLeftOutWhereAbsent) {
  auto json = [](const Sometimes& s) {
    std::string out;
    JsonWriter w(&out, JsonWriter::Style::kCompact);
    WriteRecordJson(s, &w);
    return out;
  };
  EXPECT_EQ(json({}), "{\"or_null\":null}");
  EXPECT_EQ(json({1.5, 2}), "{\"only_with_x\":1.5,\"or_null\":2}");
}

// A vector of records written as an object keyed by a member, in the vector's order.
struct Allocator {
  std::string id;
  int64_t peak = 0;
};
constexpr auto DescribeRecord(std::type_identity<Allocator>) {
  return Record("Allocator", Field("peak", &Allocator::peak));
}
struct Allocators {
  std::vector<Allocator> list;
};
constexpr auto DescribeRecord(std::type_identity<Allocators>) {
  return Record("Allocators", KeyedBy("by_id", &Allocators::list, &Allocator::id));
}

TEST(SchemaTest, KeyedByWritesAVectorAsAnObjectByKey) {
  std::string json;
  JsonWriter w(&json, JsonWriter::Style::kCompact);
  WriteRecordJson(Allocators{{{"gpu_1", 5}, {"cpu", 7}}}, &w);
  EXPECT_EQ(json, "{\"by_id\":{\"gpu_1\":{\"peak\":5},\"cpu\":{\"peak\":7}}}");
  const TypeDesc& d = DescribeType<Allocators>();
  EXPECT_EQ(d.fields[0].type->kind, ValueKind::kMap);
  EXPECT_EQ(d.fields[0].type->element, &DescribeType<Allocator>());
}

}  // namespace
}  // namespace stepscope::analysis::output
