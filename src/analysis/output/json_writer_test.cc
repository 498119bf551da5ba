#include "src/analysis/output/json_writer.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

#include <gtest/gtest.h>
#include <simdjson.h>

namespace stepscope::analysis::output {
namespace {

std::string Quote(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

// Parses with an independent parser; fails the test when the text is not JSON.
simdjson::dom::element MustParse(simdjson::dom::parser& parser, const std::string& text) {
  auto result = parser.parse(text);
  EXPECT_FALSE(result.error()) << simdjson::error_message(result.error()) << " in " << text;
  return result.value_unsafe();
}

TEST(JsonWriterTest, EscapesQuotesBackslashAndControlCharacters) {
  EXPECT_EQ(Quote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(Quote("\n\r\t\b\f"), R"("\n\r\t\b\f")");
  EXPECT_EQ(Quote(std::string("\x01\x1f\x7f", 3)), R"("\u0001\u001f\u007f")");
  EXPECT_EQ(Quote(std::string("a\0b", 3)), R"("a\u0000b")");
}

TEST(JsonWriterTest, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(Quote("µs → 日本 😀"), "\"µs → 日本 😀\"");
  // Lone continuation byte, truncated 3-byte sequence, overlong '/', surrogate, > U+10FFFF.
  EXPECT_EQ(Quote("a\x80z"), R"("a\ufffdz")");
  EXPECT_EQ(Quote("\xe6\x97z"), R"("\ufffd\ufffdz")");
  EXPECT_EQ(Quote("\xc0\xaf"), R"("\ufffd\ufffd")");
  EXPECT_EQ(Quote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");
  EXPECT_EQ(Quote("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");
  EXPECT_EQ(Quote("\xff"), R"("\ufffd")");
}

TEST(JsonWriterTest, ArbitraryBytesAlwaysGiveParseableJson) {
  std::mt19937 rng(42);
  simdjson::dom::parser parser;
  for (int i = 0; i < 2000; ++i) {
    std::string s(rng() % 16, '\0');
    for (char& c : s) c = static_cast<char>(rng() & 0xFF);
    std::string text = Quote(s);
    auto result = parser.parse(text);
    ASSERT_FALSE(result.error()) << "bytes #" << i << " gave " << text;
  }
}

TEST(JsonWriterTest, DoublesRoundTripAndNonFiniteBecomesNull) {
  const double values[] = {0.1, 0.1 + 0.2, 1e-300, 5e-324, 1.7976931348623157e308, -2.5, 123456789.125, 1e21};
  simdjson::dom::parser parser;
  for (double v : values) {
    std::string text;
    AppendJsonDouble(v, &text);
    double back = MustParse(parser, text).get_double().value_unsafe();
    EXPECT_EQ(back, v) << text;
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
  }
  std::string text;
  AppendJsonDouble(std::nan(""), &text);
  EXPECT_EQ(text, "null");
  text.clear();
  AppendJsonDouble(-std::numeric_limits<double>::infinity(), &text);
  EXPECT_EQ(text, "null");
  EXPECT_EQ(FormatDoubleRoundTrip(0.1), "0.1");
  EXPECT_EQ(FormatDoubleRoundTrip(3.0), "3");
}

TEST(JsonWriterTest, IntegersAreExact) {
  std::string out;
  JsonWriter w(&out);
  w.BeginArray();
  w.Int(std::numeric_limits<int64_t>::min());
  w.Uint(std::numeric_limits<uint64_t>::max());
  w.Int(0);
  w.EndArray();
  EXPECT_EQ(out, "[-9223372036854775808,18446744073709551615,0]");
}

TEST(JsonWriterTest, CompactNesting) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Field("a", int64_t{1});
  w.Key("b");
  w.BeginArray();
  w.BeginObject();
  w.EndObject();
  w.BeginArray();
  w.EndArray();
  w.Null();
  w.Bool(true);
  w.EndArray();
  w.Field("c", "x");
  w.EndObject();
  EXPECT_TRUE(w.complete());
  EXPECT_EQ(out, R"({"a":1,"b":[{},[],null,true],"c":"x"})");
}

TEST(JsonWriterTest, PrettyIsIndentedAndParses) {
  std::string out;
  JsonWriter w(&out, JsonWriter::Style::kPretty);
  w.BeginObject();
  w.Field("steps", 3);
  w.Key("list");
  w.BeginArray();
  w.Double(1.5);
  w.String("x");
  w.EndArray();
  w.Key("empty");
  w.BeginObject();
  w.EndObject();
  w.EndObject();
  EXPECT_EQ(out, "{\n  \"steps\": 3,\n  \"list\": [\n    1.5,\n    \"x\"\n  ],\n  \"empty\": {}\n}");
  simdjson::dom::parser parser;
  auto doc = MustParse(parser, out);
  EXPECT_EQ(doc["steps"].get_int64().value_unsafe(), 3);
}

TEST(JsonWriterTest, CompleteOnlyAfterTopLevelValueCloses) {
  std::string out;
  JsonWriter w(&out);
  EXPECT_FALSE(w.complete());
  w.BeginArray();
  EXPECT_FALSE(w.complete());
  w.EndArray();
  EXPECT_TRUE(w.complete());
}

}  // namespace
}  // namespace stepscope::analysis::output
