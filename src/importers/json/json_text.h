// Small, exact helpers over JSON token text, shared by the trace-JSON tokenizer and the
// importers. They work on the raw bytes of a token, never through `double` where that
// would lose information:
//
//  - Trace timestamps are microseconds. Kineto writes ns-resolution floats such as
//    1712195495501688.523 (16 significant digits before the ns fraction), which a double
//    cannot hold (its spacing at 1.7e15 is 0.25 us). ParseMicrosToPicos reads the digits.
//  - Strings may carry escapes that strict parsers reject ("\x1b", "\'", a lone "\ud800");
//    UnescapeJsonStringLenient keeps what it does not understand verbatim.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::importers {

// Parses a JSON number given in microseconds ("12", "-3", "1.25", "1712195495501688.5",
// "1.5e3") into picoseconds after `base_micros`: (text - base_micros) * 1e6. The base
// exists because epoch microseconds (1.7e15) are 1.7e21 ps, past int64; relative to a
// base taken from the trace itself, int64 ps cover +-106 days. Integers and plain
// decimals are converted digit by digit (exact; fraction digits past the 6th, i.e. below
// 1 ps, are rounded half up). Exponent forms go through long double. nullopt for text
// that is not a number or whose result overflows int64.
std::optional<int64_t> ParseMicrosToPicos(std::string_view text, int64_t base_micros = 0);
// The integer microseconds of a timestamp's text, rounded toward minus infinity (the
// base to use for ParseMicrosToPicos), or nullopt if it is not a number.
std::optional<int64_t> ParseMicrosFloor(std::string_view text);

// ParseMicrosToPicos in two halves, for the form nearly every trace writes
// ([-]digits[.digits], at most 18 integer digits): the digits are read where the token is
// (the tokenizer's thread), the time base applied where it is known (the parser's).
// Wherever ReadPlainMicros gives a value, PlainMicrosToPicos(value, base) equals
// ParseMicrosToPicos(text, base); for other forms it gives nullopt and the text decides.
struct PlainMicros {
  int64_t micros = 0;       // signed integer part
  int64_t fraction_ps = 0;  // signed fraction, in ps (rounded half up below 1 ps)
};
std::optional<PlainMicros> ReadPlainMicros(std::string_view text);
std::optional<int64_t> PlainMicrosToPicos(const PlainMicros& value, int64_t base_micros);

// Classification of a JSON number's text for stat values.
enum class JsonNumberKind { kNotANumber, kInt64, kUint64, kDouble };
struct JsonNumber {
  JsonNumberKind kind = JsonNumberKind::kNotANumber;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
};
// Integers that fit int64 become kInt64, larger non-negative ones kUint64, anything else
// numeric kDouble (NaN and Infinity, which Python's json writes, included).
JsonNumber ParseJsonNumber(std::string_view text);

// Integer value of a number token ("12", "12.0", "-3"); nullopt if not an exact integer.
std::optional<int64_t> ParseJsonInteger(std::string_view text);

// The content of a JSON string token given without its quotes. Escapes are decoded
// (\" \\ \/ \b \f \n \r \t \uXXXX with surrogate pairs to UTF-8); an escape that is not
// valid JSON is kept as written. Returns `escaped` itself when there is no backslash,
// otherwise writes into `*scratch` and returns a view of it.
std::string_view UnescapeJsonStringLenient(std::string_view escaped, std::string* scratch);

// Finds the end of a string token. `text` starts just after the opening quote; returns the
// length of the content (the index of the closing quote), or npos if it is not closed
// within `text`. `*has_escape` tells whether a backslash occurred.
size_t FindJsonStringEnd(std::string_view text, bool* has_escape);

// Replaces each byte that is not part of a valid UTF-8 sequence with '?'. Returns how many
// bytes were replaced. Used only after a parser rejected the bytes, so it can be simple.
uint64_t SanitizeUtf8InPlace(char* data, size_t size);

// The integer that ends a text like "stream 7", "7" or "GPU 3" (its last run of digits),
// or nullopt when the text does not end in a digit.
std::optional<int64_t> TrailingInteger(std::string_view text);

}  // namespace stepscope::importers
