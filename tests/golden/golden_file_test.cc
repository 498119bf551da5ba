#include "tests/golden/golden_file.h"

#include <gtest/gtest.h>

namespace stepscope::golden {
namespace {

TEST(GoldenFileTest, EqualDocumentsAgreeRegardlessOfKeyOrderAndWhitespace) {
  EXPECT_EQ(CompareJson(R"({"a":1,"b":[1.5,"x",null,true]})", "{ \"b\": [1.5, \"x\", null, true],\n \"a\": 1.0 }"), "");
}

TEST(GoldenFileTest, ToleratesLastBitDifferencesOnly) {
  EXPECT_EQ(CompareJson("0.30000000000000004", "0.3"), "");
  EXPECT_EQ(CompareJson(R"({"x":1.5})", R"({"x":1.25})"), "$.x: expected 1.5, got 1.25");
}

TEST(GoldenFileTest, ReportsPathOfFirstDifference) {
  EXPECT_EQ(CompareJson(R"({"ops":[{"n":"a"},{"n":"b"}]})", R"({"ops":[{"n":"a"},{"n":"c"}]})"),
            R"($.ops[1].n: expected "b", got "c")");
  EXPECT_EQ(CompareJson("[1,2]", "[1]"), "$: expected 2 elements, got 1");
  EXPECT_EQ(CompareJson(R"({"a":1})", R"({"a":1,"b":2})"), "$.b: not in the golden file (new field 2)");
  EXPECT_EQ(CompareJson(R"({"a":1,"b":2})", R"({"a":1})"), "$.b: missing in the actual output");
  EXPECT_EQ(CompareJson("null", "0"), "$: expected null, got 0");
  EXPECT_NE(CompareJson("{", "{}"), "");
}

}  // namespace
}  // namespace stepscope::golden
