#include "src/importers/json/structural_index.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace stepscope::importers {
namespace {

// The structural index by its definition, one byte at a time: a backslash that is not
// itself escaped escapes the next byte (inside strings or not, as the block method has
// it); unescaped quotes toggle the string state; structurals are { } [ ] : , outside
// strings and the first byte of each string and scalar.
struct Reference {
  std::vector<uint32_t> positions;
  simdjson::error_code error = simdjson::SUCCESS;
};

Reference Expected(const std::string& doc) {
  Reference r;
  bool escape_next = false;
  bool in_string = false;
  bool previous_nonquote_scalar = false;
  bool unescaped = false;
  for (size_t i = 0; i < doc.size(); ++i) {
    const char c = doc[i];
    const bool escaped = escape_next;
    escape_next = c == '\\' && !escaped;
    const bool quote = c == '"' && !escaped;
    const bool was_in_string = in_string;
    if (quote) in_string = !in_string;
    // in_string here is the prefix-XOR bit: 1 from the opening quote to before the closing.
    const bool string_tail = in_string != quote;
    const bool op = c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',';
    const bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    const bool scalar = !op && !ws;
    if (static_cast<unsigned char>(c) < 0x20 && in_string) unescaped = true;
    if ((op || (scalar && !previous_nonquote_scalar)) && !string_tail) r.positions.push_back(static_cast<uint32_t>(i));
    previous_nonquote_scalar = scalar && !quote;
    (void)was_in_string;
  }
  if (in_string) {
    r.error = simdjson::UNCLOSED_STRING;
  } else if (unescaped) {
    r.error = simdjson::UNESCAPED_CHARS;
  } else if (r.positions.empty()) {
    r.error = simdjson::EMPTY;
  } else if (!simdjson::validate_utf8(doc)) {
    r.error = simdjson::UTF8_ERROR;
  }
  return r;
}

void ExpectSameIndex(StructuralIndex& index, const std::string& doc) {
  Reference expected = Expected(doc);
  simdjson::error_code error = index.Build(doc.data(), doc.size());
  ASSERT_EQ(error, expected.error) << doc;
  if (error) return;
  std::vector<uint32_t> got(index.indexes(), index.indexes() + index.count());
  ASSERT_EQ(got, expected.positions) << doc;
  EXPECT_EQ(index.indexes()[index.count()], doc.size());
  EXPECT_EQ(index.indexes()[index.count() + 1], doc.size());
  EXPECT_EQ(index.indexes()[index.count() + 2], 0u);
}

// Runs a test body with each code this CPU can run (AVX-512, AVX2, SSE2 on x86-64).
class StructuralIndexCodesTest : public ::testing::TestWithParam<StructuralIndex::Code> {
 protected:
  void SetUp() override { StructuralIndex::UseCodeForTesting(GetParam()); }
  void TearDown() override { StructuralIndex::UseCodeForTesting(StructuralIndex::Code::kBest); }
};
INSTANTIATE_TEST_SUITE_P(Codes, StructuralIndexCodesTest,
                         ::testing::Values(StructuralIndex::Code::kBest, StructuralIndex::Code::kAvx2,
                                           StructuralIndex::Code::kBaseline));

TEST(StructuralIndexTest, TraceEvents) {
  StructuralIndex index;
  const std::string doc =
      R"([{"name": "MatMul", "ph": "X", "ts": 1.5, "dur": 2, "args": {"a": [1, true, null]}},)"
      "\n" R"( {"name": "a\"b\\", "cat": "x,y:{}"}])";
  ExpectSameIndex(index, doc);
  ASSERT_EQ(index.Build(doc.data(), doc.size()), simdjson::SUCCESS);
  std::string starts;
  for (uint32_t i = 0; i < index.count(); ++i) starts += doc[index.indexes()[i]];
  EXPECT_EQ(starts, R"([{":",":",":1,":2,":{":[1,t,n]}},{":",":"}])");
}

TEST(StructuralIndexTest, Errors) {
  StructuralIndex index;
  EXPECT_EQ(index.Build("[\"abc]", 6), simdjson::UNCLOSED_STRING);
  EXPECT_EQ(index.Build("[\"a\\\"]", 6), simdjson::UNCLOSED_STRING);  // the quote is escaped
  EXPECT_EQ(index.Build("[\"a\tb\"]", 7), simdjson::UNESCAPED_CHARS);
  EXPECT_EQ(index.Build("[\"a\xff\"]", 5), simdjson::UTF8_ERROR);
  EXPECT_EQ(index.Build("[\"a\xc3\xa9\"]", 6), simdjson::SUCCESS);
  EXPECT_EQ(index.Build("[\xed\xa0\x80]", 5), simdjson::UTF8_ERROR);  // a surrogate
  EXPECT_EQ(index.Build("  \n ", 4), simdjson::EMPTY);
  // An unclosed string wins over bad UTF-8, as in simdjson's stage 1 (the reader closes
  // the string and tries again before it sanitizes).
  EXPECT_EQ(index.Build("[\"\xff", 3), simdjson::UNCLOSED_STRING);
  // Control bytes outside strings are scalars, not errors.
  EXPECT_EQ(index.Build("[\x01]", 3), simdjson::SUCCESS);
}

// Every byte value in every position of a block, in and out of strings (the classifiers
// work on 16- or 32-byte lanes and nibble tables).
TEST_P(StructuralIndexCodesTest, EveryByteEverywhere) {
  StructuralIndex index;
  for (int byte = 0; byte < 256; ++byte) {
    for (size_t at = 0; at < 70; at += 3) {
      const std::string b(1, static_cast<char>(byte));
      ExpectSameIndex(index, std::string(at, ' ') + "[" + b + ", a" + b + "1]");
      ExpectSameIndex(index, std::string(at, ' ') + "[\"" + b + "\"]");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(StructuralIndexTest, BackslashRunsAcrossBlockBoundaries) {
  StructuralIndex index;
  for (size_t prefix = 50; prefix < 140; ++prefix) {
    for (size_t run = 0; run < 6; ++run) {
      std::string doc = "[\"" + std::string(prefix, 'x') + std::string(run, '\\') + "\", 1, \"y\"]";
      ExpectSameIndex(index, doc);
    }
  }
}

TEST_P(StructuralIndexCodesTest, RandomDocumentsMatchTheDefinition) {
  const char alphabet[] = {'"', '"', '\\', '\\', '{', '}', '[', ']', ':', ',', ' ', 'a', '1', '\n', '\t', '\x01', 'x'};
  std::mt19937 rng(1234);
  StructuralIndex index;
  for (int n = 0; n < 20000; ++n) {
    size_t length = rng() % 300;
    std::string doc;
    for (size_t i = 0; i < length; ++i) doc += alphabet[rng() % sizeof(alphabet)];
    ExpectSameIndex(index, doc);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(StructuralIndexTest, LongDocumentsReuseTheIndex) {
  StructuralIndex index;
  std::string doc = "[";
  for (int i = 0; i < 5000; ++i) doc += R"({"name": "op\\\")" + std::to_string(i) + R"(", "ts": )" + std::to_string(i) + "},";
  doc += "{}]";
  ExpectSameIndex(index, doc);
  ExpectSameIndex(index, doc.substr(0, 100) + "\"]");
}

}  // namespace
}  // namespace stepscope::importers
