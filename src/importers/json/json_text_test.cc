#include "src/importers/json/json_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>

namespace stepscope::importers {
namespace {

TEST(ParseMicrosToPicosTest, IntegersAndFractionsAreExact) {
  EXPECT_EQ(ParseMicrosToPicos("0"), 0);
  EXPECT_EQ(ParseMicrosToPicos("12"), 12'000'000);
  EXPECT_EQ(ParseMicrosToPicos("-3"), -3'000'000);
  EXPECT_EQ(ParseMicrosToPicos("1.5"), 1'500'000);
  EXPECT_EQ(ParseMicrosToPicos("68.0"), 68'000'000);
  EXPECT_EQ(ParseMicrosToPicos("41.768"), 41'768'000);
  // 16 significant digits before a ns fraction: beyond double precision, and beyond int64
  // picoseconds unless taken relative to a base.
  EXPECT_FALSE(ParseMicrosToPicos("1712195495501688.523"));
  EXPECT_EQ(ParseMicrosToPicos("1712195495501688.523", 1712195495501000), 688'523'000);
  EXPECT_EQ(ParseMicrosToPicos("1712195495501688.5", 1712195495501688), 500'000);
  EXPECT_EQ(ParseMicrosToPicos("1712195495501687.25", 1712195495501688), -750'000);
  EXPECT_EQ(ParseMicrosToPicos("-1.25", -2), 750'000);
  EXPECT_EQ(ParseMicrosFloor("1712195495501688.523"), 1712195495501688);
  EXPECT_EQ(ParseMicrosFloor("-1.5"), -2);
  EXPECT_EQ(ParseMicrosFloor("-1"), -1);
  // Sub-picosecond digits round half up.
  EXPECT_EQ(ParseMicrosToPicos("0.0000015"), 2);
  EXPECT_EQ(ParseMicrosToPicos("0.0000014"), 1);
  EXPECT_EQ(ParseMicrosToPicos("0.9999996"), 1'000'000);
  EXPECT_EQ(ParseMicrosToPicos(".5"), 500'000);
}

// The tokenizer reads the digits and the parser applies its base later: together they
// must be ParseMicrosToPicos exactly, and leave every other form to it.
TEST(ParseMicrosToPicosTest, PlainHalvesAgreeWithTheWhole) {
  const std::string plain[] = {"0", "12", "-3", "1.5", "68.0", "41.768", "1712195495501688.523", "-1.25",
                               "0.0000015", "0.9999996", "-0.9999996", ".5", "999999999999999999",
                               "999999999999999999.9999999", "-999999999999999999"};
  const int64_t bases[] = {0, -2, 1712195495501000, 1712195495501688, INT64_MIN, INT64_MAX};
  for (const std::string& text : plain) {
    std::optional<PlainMicros> read = ReadPlainMicros(text);
    ASSERT_TRUE(read.has_value()) << text;
    for (int64_t base : bases) {
      EXPECT_EQ(PlainMicrosToPicos(*read, base), ParseMicrosToPicos(text, base)) << text << " - " << base;
    }
  }
  for (const char* other : {"1.5e3", "+1", "1e", "", "-", ".", "1.2.3", "NaN", "0x10", "1234567890123456789"}) {
    EXPECT_FALSE(ReadPlainMicros(other).has_value()) << other;
  }
}

TEST(ParseMicrosToPicosTest, ExponentsAndRejects) {
  EXPECT_EQ(ParseMicrosToPicos("1.5e3"), 1'500'000'000);
  EXPECT_EQ(ParseMicrosToPicos("2E-6"), 2);
  EXPECT_FALSE(ParseMicrosToPicos(""));
  EXPECT_FALSE(ParseMicrosToPicos("-"));
  EXPECT_FALSE(ParseMicrosToPicos("abc"));
  EXPECT_FALSE(ParseMicrosToPicos("12x"));
  EXPECT_FALSE(ParseMicrosToPicos("99999999999999999999"));  // overflows int64 ps
  EXPECT_FALSE(ParseMicrosToPicos("NaN"));
}

// Every digit count the fast paths treat differently (8 at a time, up to 18 unchecked,
// then checked; 0-9 fraction digits with rounding past the sixth) against exact 128-bit
// arithmetic, and against the general parser for the integers.
TEST(ParseMicrosToPicosTest, AgreesWithExactArithmeticForEveryDigitCount) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 20000; ++round) {
    size_t integer_digits = random() % 21;
    size_t fraction_digits = random() % 10;
    bool negative = random() % 3 == 0;
    bool dot = fraction_digits > 0 || random() % 2 == 0;
    std::string text = negative ? "-" : "";
    __int128 micros = 0;
    for (size_t i = 0; i < integer_digits; ++i) {
      int digit = static_cast<int>(random() % 10);
      text += static_cast<char>('0' + digit);
      micros = micros * 10 + digit;
    }
    if (dot) text += '.';
    for (size_t i = 0; i < fraction_digits; ++i) {
      int digit = static_cast<int>(random() % 10);
      text += static_cast<char>('0' + digit);
    }
    // The first six fraction digits are picoseconds; the seventh rounds half up.
    __int128 kept = 0;
    for (size_t i = 0; i < std::min<size_t>(fraction_digits, 6); ++i) kept = kept * 10 + (text[text.size() - fraction_digits + i] - '0');
    for (size_t i = std::min<size_t>(fraction_digits, 6); i < 6; ++i) kept *= 10;
    bool round_up = fraction_digits > 6 && text[text.size() - fraction_digits + 6] >= '5';
    __int128 magnitude = micros * 1'000'000 + kept + (round_up ? 1 : 0);
    __int128 expected = negative ? -magnitude : magnitude;
    std::optional<int64_t> got = ParseMicrosToPicos(text);
    if (integer_digits + fraction_digits == 0) {
      EXPECT_FALSE(got) << text;
      continue;
    }
    bool fits = micros <= INT64_MAX && expected <= INT64_MAX && expected >= INT64_MIN;
    if (!fits) {
      EXPECT_FALSE(got) << text;
      continue;
    }
    ASSERT_TRUE(got) << text;
    EXPECT_EQ(*got, static_cast<int64_t>(expected)) << text;
    if (!dot && integer_digits > 0 && integer_digits < 19) {
      EXPECT_EQ(ParseJsonInteger(text), static_cast<int64_t>(negative ? -micros : micros)) << text;
    }
  }
}

TEST(ParseJsonNumberTest, Kinds) {
  EXPECT_EQ(ParseJsonNumber("42").kind, JsonNumberKind::kInt64);
  EXPECT_EQ(ParseJsonNumber("-42").int_value, -42);
  JsonNumber big = ParseJsonNumber("18446744073709551615");
  EXPECT_EQ(big.kind, JsonNumberKind::kUint64);
  EXPECT_EQ(big.uint_value, UINT64_MAX);
  JsonNumber d = ParseJsonNumber("0.25");
  EXPECT_EQ(d.kind, JsonNumberKind::kDouble);
  EXPECT_DOUBLE_EQ(d.double_value, 0.25);
  EXPECT_TRUE(std::isnan(ParseJsonNumber("NaN").double_value));
  EXPECT_EQ(ParseJsonNumber("Infinity").kind, JsonNumberKind::kDouble);
  EXPECT_EQ(ParseJsonNumber("abc").kind, JsonNumberKind::kNotANumber);
  EXPECT_EQ(ParseJsonNumber("").kind, JsonNumberKind::kNotANumber);
  EXPECT_EQ(ParseJsonInteger("7.0"), 7);
  EXPECT_FALSE(ParseJsonInteger("7.5"));
}

TEST(UnescapeTest, ValidEscapes) {
  std::string scratch;
  EXPECT_EQ(UnescapeJsonStringLenient("plain", &scratch), "plain");
  EXPECT_EQ(UnescapeJsonStringLenient(R"(a\"b\\c\/d\n)", &scratch), "a\"b\\c/d\n");
  EXPECT_EQ(UnescapeJsonStringLenient(R"(\u00e9)", &scratch), "\xc3\xa9");
  EXPECT_EQ(UnescapeJsonStringLenient(R"(\ud83d\ude00)", &scratch), "\xf0\x9f\x98\x80");
}

TEST(UnescapeTest, OddEscapesAreKeptVerbatim) {
  std::string scratch;
  EXPECT_EQ(UnescapeJsonStringLenient(R"(\x1b[0m)", &scratch), R"(\x1b[0m)");
  EXPECT_EQ(UnescapeJsonStringLenient(R"(it\'s)", &scratch), R"(it\'s)");
  EXPECT_EQ(UnescapeJsonStringLenient(R"(\ud800x)", &scratch), R"(\ud800x)");  // lone surrogate
  EXPECT_EQ(UnescapeJsonStringLenient(R"(\u12)", &scratch), R"(\u12)");        // short
  EXPECT_EQ(UnescapeJsonStringLenient("end\\", &scratch), "end\\");
}

TEST(FindJsonStringEndTest, EscapedQuotes) {
  bool escaped = false;
  EXPECT_EQ(FindJsonStringEnd(R"(abc" rest)", &escaped), 3u);
  EXPECT_FALSE(escaped);
  EXPECT_EQ(FindJsonStringEnd(R"(a\"b" rest)", &escaped), 4u);
  EXPECT_TRUE(escaped);
  EXPECT_EQ(FindJsonStringEnd(R"(a\\" rest)", &escaped), 3u);
  EXPECT_EQ(FindJsonStringEnd(R"(unclosed\")", &escaped), std::string_view::npos);
}

TEST(SanitizeUtf8Test, ReplacesOnlyInvalidBytes) {
  std::string text = "ok \xc3\xa9 \xff\xfe \xe2\x82 end";
  uint64_t replaced = SanitizeUtf8InPlace(text.data(), text.size());
  EXPECT_EQ(replaced, 4u);
  EXPECT_EQ(text, "ok \xc3\xa9 ?? ?? end");
}

TEST(TrailingIntegerTest, Forms) {
  EXPECT_EQ(TrailingInteger("stream 7 "), 7);
  EXPECT_EQ(TrailingInteger("GPU 12"), 12);
  EXPECT_EQ(TrailingInteger("-247463936"), -247463936);
  EXPECT_FALSE(TrailingInteger("PyTorch Profiler"));
}

}  // namespace
}  // namespace stepscope::importers
