#include "src/importers/json/json_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace stepscope::importers {
namespace {

// Picoseconds per microsecond: the six fraction digits a microsecond timestamp can carry
// without going below the XSpace resolution.
constexpr int kPicosFractionDigits = 6;
constexpr int64_t kPicosPerMicro = 1'000'000;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Multiplies-and-adds with overflow detection.
bool AccumulateDigit(int64_t* value, int digit) {
  if (*value > (std::numeric_limits<int64_t>::max() - digit) / 10) return false;
  *value = *value * 10 + digit;
  return true;
}

void AppendUtf8(uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

std::optional<uint32_t> ParseHex4(std::string_view text) {
  if (text.size() < 4) return std::nullopt;
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    char c = text[i];
    uint32_t digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return std::nullopt;
    }
    value = value * 16 + digit;
  }
  return value;
}

// Length of the valid UTF-8 sequence starting at data[0], or 0 if invalid.
size_t ValidUtf8SequenceLength(const unsigned char* data, size_t size) {
  unsigned char c = data[0];
  if (c < 0x80) return 1;
  size_t length;
  uint32_t min_code_point;
  if ((c & 0xE0) == 0xC0) {
    length = 2, min_code_point = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    length = 3, min_code_point = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    length = 4, min_code_point = 0x10000;
  } else {
    return 0;
  }
  if (size < length) return 0;
  uint32_t code_point = c & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((data[i] & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (data[i] & 0x3F);
  }
  if (code_point < min_code_point || code_point > 0x10FFFF) return 0;
  if (code_point >= 0xD800 && code_point <= 0xDFFF) return 0;
  return length;
}

// Eight bytes at a time: in a byte x ^ '0' is 0..9 for a digit; adding 0x76 sets the high
// bit of anything from 10 to 0x7f, and or-ing x itself catches 0x80 and above. A carry
// out of a non-digit byte can only disturb the bytes after it, so the lowest flagged byte
// is the first non-digit.
uint64_t NonDigitBytes(uint64_t word) {
  constexpr uint64_t kZeros = 0x3030303030303030ull;
  constexpr uint64_t kAdd = 0x7676767676767676ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const uint64_t x = word ^ kZeros;
  return ((x + kAdd) | x) & kHigh;
}

// The value of eight ASCII digits (SWAR: pairs, then quads, then the two halves).
uint64_t EightDigits(uint64_t word) {
  word -= 0x3030303030303030ull;
  word = (word * 10) + (word >> 8);
  word = (((word & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
          (((word >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
         32;
  return word;
}

// 10^0 .. 10^7: scaling a run of up to 7 digits (ScanDigits) or fraction digits (ps).
constexpr int64_t kPowersOf10[] = {1, 10, 100, 1'000, 10'000, 100'000, 1'000'000, 10'000'000};

// Reads the run of ASCII digits at [p, end) in one pass, eight at a time where eight
// bytes are left. Returns its length; `*value` is its value when the run has at most 19
// digits (it wraps beyond).
__attribute__((always_inline)) inline size_t ScanDigits(const char* p, const char* end, uint64_t* value) {
  uint64_t v = 0;
  size_t n = 0;
  while (end - (p + n) >= 8) {
    uint64_t word;
    std::memcpy(&word, p + n, 8);
    const uint64_t non_digits = NonDigitBytes(word);
    if (non_digits != 0) {
      const size_t digits = static_cast<size_t>(__builtin_ctzll(non_digits) >> 3);
      if (digits > 0) {
        // The digits moved to the word's low-order end, '0's shifted in before them.
        const unsigned shift = static_cast<unsigned>(8 * (8 - digits));
        const uint64_t padded = (word << shift) | (0x3030303030303030ull >> (64 - shift));
        v = v * static_cast<uint64_t>(kPowersOf10[digits]) + EightDigits(padded);
      }
      *value = v;
      return n + digits;
    }
    v = v * 100000000 + EightDigits(word);
    n += 8;
  }
  while (p + n < end && IsDigit(p[n])) {
    v = v * 10 + static_cast<uint64_t>(p[n] - '0');
    ++n;
  }
  *value = v;
  return n;
}

struct ParsedMicros {
  bool negative = false;
  int64_t micros = 0;          // magnitude of the integer part
  int64_t fraction_picos = 0;  // magnitude of the fraction, in ps (0..999999, rounded)
  bool exponent = false;       // exponent form: use `value` instead
  long double value = 0;
};

std::optional<ParsedMicros> ParseMicrosText(std::string_view text) {
  ParsedMicros parsed;
  const char* p = text.data();
  const char* const end = p + text.size();
  if (p < end && (*p == '-' || *p == '+')) {
    parsed.negative = *p == '-';
    ++p;
  }
  // Up to 18 integer digits (which always fit int64) are read without overflow checks.
  constexpr size_t kUncheckedDigits = 18;
  const char* const integer_begin = p;
  uint64_t unchecked = 0;
  const size_t run = ScanDigits(p, end, &unchecked);
  if (run <= kUncheckedDigits) {
    parsed.micros = static_cast<int64_t>(unchecked);
    p += run;
  } else {
    while (p < end && IsDigit(*p)) {
      if (!AccumulateDigit(&parsed.micros, *p - '0')) return std::nullopt;
      ++p;
    }
  }
  const size_t integer_digits = static_cast<size_t>(p - integer_begin);
  size_t fraction_digits = 0;
  bool round_up = false;
  if (p < end && *p == '.') {
    ++p;
    uint64_t ignored = 0;
    const size_t fraction_run = ScanDigits(p, end, &ignored);
    fraction_digits = std::min<size_t>(fraction_run, kPicosFractionDigits);
    int64_t fraction = 0;
    for (size_t i = 0; i < fraction_digits; ++i) fraction = fraction * 10 + (p[i] - '0');
    p += fraction_digits;
    for (size_t d = fraction_digits; d < kPicosFractionDigits; ++d) fraction *= 10;
    parsed.fraction_picos = fraction;
    if (fraction_run > kPicosFractionDigits) {
      round_up = *p >= '5';
      p += fraction_run - kPicosFractionDigits;
      fraction_digits = fraction_run;
    }
  }
  if (integer_digits + fraction_digits == 0) return std::nullopt;
  if (p < end && (*p == 'e' || *p == 'E')) {
    // Rare; exactness is not promised for exponent forms.
    std::string copy(text);
    char* copy_end = nullptr;
    parsed.value = std::strtold(copy.c_str(), &copy_end);
    if (copy_end != copy.c_str() + copy.size() || !std::isfinite(parsed.value)) return std::nullopt;
    parsed.exponent = true;
    return parsed;
  }
  if (p != end) return std::nullopt;
  if (round_up) ++parsed.fraction_picos;
  if (parsed.fraction_picos == kPicosPerMicro) {  // .9999995 rounds up to the next us
    parsed.fraction_picos = 0;
    if (parsed.micros == std::numeric_limits<int64_t>::max()) return std::nullopt;
    ++parsed.micros;
  }
  return parsed;
}

}  // namespace

// The digits of the form nearly every trace writes: [-]digits[.digits] with at most 18
// integer digits. nullopt for anything else (the general path decides).
std::optional<PlainMicros> ReadPlainMicros(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p < end && *p == '-';
  p += negative ? 1 : 0;
  uint64_t micros = 0;
  const size_t integer_digits = ScanDigits(p, end, &micros);
  if (integer_digits > 18) return std::nullopt;
  p += integer_digits;
  int64_t fraction = 0;
  if (p < end && *p == '.') {
    ++p;
    uint64_t value = 0;
    const size_t fraction_digits = ScanDigits(p, end, &value);
    if (fraction_digits <= kPicosFractionDigits) {
      fraction = static_cast<int64_t>(value) * kPowersOf10[kPicosFractionDigits - fraction_digits];
    } else {
      fraction = 0;
      for (int i = 0; i < kPicosFractionDigits; ++i) fraction = fraction * 10 + (p[i] - '0');
      if (p[kPicosFractionDigits] >= '5') ++fraction;  // rounded half up; 1000000 carries below
    }
    if (integer_digits + fraction_digits == 0) return std::nullopt;
    p += fraction_digits;
  } else if (integer_digits == 0) {
    return std::nullopt;
  }
  if (p != end) return std::nullopt;
  return PlainMicros{negative ? -static_cast<int64_t>(micros) : static_cast<int64_t>(micros),
                     negative ? -fraction : fraction};
}

std::optional<int64_t> PlainMicrosToPicos(const PlainMicros& value, int64_t base_micros) {
  int64_t relative = 0;
  int64_t picos = 0;
  if (__builtin_sub_overflow(value.micros, base_micros, &relative) ||
      __builtin_mul_overflow(relative, kPicosPerMicro, &picos) ||
      __builtin_add_overflow(picos, value.fraction_ps, &picos)) {
    return std::nullopt;
  }
  return picos;
}

std::optional<int64_t> ParseMicrosToPicos(std::string_view text, int64_t base_micros) {
  // Plain text that overflows is nullopt here too: the general path would say the same.
  if (std::optional<PlainMicros> plain = ReadPlainMicros(text)) return PlainMicrosToPicos(*plain, base_micros);
  std::optional<ParsedMicros> parsed = ParseMicrosText(text);
  if (!parsed) return std::nullopt;
  if (parsed->exponent) {
    long double picos = std::nearbyint((parsed->value - static_cast<long double>(base_micros)) * 1e6L);
    if (picos > static_cast<long double>(std::numeric_limits<int64_t>::max()) ||
        picos < static_cast<long double>(std::numeric_limits<int64_t>::min())) {
      return std::nullopt;
    }
    return static_cast<int64_t>(picos);
  }
  int64_t signed_micros = parsed->negative ? -parsed->micros : parsed->micros;
  int64_t signed_fraction = parsed->negative ? -parsed->fraction_picos : parsed->fraction_picos;
  int64_t micros = 0;
  int64_t picos = 0;
  if (__builtin_sub_overflow(signed_micros, base_micros, &micros) ||
      __builtin_mul_overflow(micros, kPicosPerMicro, &picos) ||
      __builtin_add_overflow(picos, signed_fraction, &picos)) {
    return std::nullopt;
  }
  return picos;
}

std::optional<int64_t> ParseMicrosFloor(std::string_view text) {
  std::optional<ParsedMicros> parsed = ParseMicrosText(text);
  if (!parsed) return std::nullopt;
  if (parsed->exponent) {
    long double floor = std::floor(parsed->value);
    if (floor > 9.2e18L || floor < -9.2e18L) return std::nullopt;
    return static_cast<int64_t>(floor);
  }
  if (!parsed->negative) return parsed->micros;
  return -parsed->micros - (parsed->fraction_picos > 0 ? 1 : 0);
}

namespace {

// Short decimal integers ("-12", "1102"), by far the most common number in traces, parsed
// without the general machinery. False when `text` is anything else.
bool ParseShortInteger(std::string_view text, int64_t* value) {
  // 18 digits always fit int64.
  constexpr size_t kMaxDigits = 18;
  size_t i = 0;
  bool negative = false;
  if (!text.empty() && text[0] == '-') {
    negative = true;
    i = 1;
  }
  size_t digits = text.size() - i;
  if (digits == 0 || digits > kMaxDigits) return false;
  uint64_t result = 0;
  if (ScanDigits(text.data() + i, text.data() + text.size(), &result) != digits) return false;
  *value = negative ? -static_cast<int64_t>(result) : static_cast<int64_t>(result);
  return true;
}

}  // namespace

JsonNumber ParseJsonNumber(std::string_view text) {
  JsonNumber number;
  if (text.empty()) return number;
  if (ParseShortInteger(text, &number.int_value)) {
    number.kind = JsonNumberKind::kInt64;
    return number;
  }
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  bool integer_syntax = true;
  for (char c : text) {
    if (!(IsDigit(c) || c == '-')) {
      integer_syntax = false;
      break;
    }
  }
  if (integer_syntax) {
    auto [ptr, ec] = std::from_chars(begin, end, number.int_value);
    if (ec == std::errc() && ptr == end) {
      number.kind = JsonNumberKind::kInt64;
      return number;
    }
    auto [uptr, uec] = std::from_chars(begin, end, number.uint_value);
    if (uec == std::errc() && uptr == end) {
      number.kind = JsonNumberKind::kUint64;
      return number;
    }
  }
  if (text == "NaN" || text == "-NaN") {
    number.kind = JsonNumberKind::kDouble;
    number.double_value = std::numeric_limits<double>::quiet_NaN();
    return number;
  }
  if (text == "Infinity" || text == "-Infinity") {
    number.kind = JsonNumberKind::kDouble;
    number.double_value = text[0] == '-' ? -std::numeric_limits<double>::infinity()
                                         : std::numeric_limits<double>::infinity();
    return number;
  }
  // Only JSON number syntax from here on: [-]digits[.digits][e[+-]digits].
  if (!(IsDigit(text[0]) || (text[0] == '-' && text.size() > 1 && IsDigit(text[1])))) return number;
  auto [ptr, ec] = std::from_chars(begin, end, number.double_value);
  if (ptr == end && (ec == std::errc() || ec == std::errc::result_out_of_range)) {
    number.kind = JsonNumberKind::kDouble;
  }
  return number;
}

std::optional<int64_t> ParseJsonInteger(std::string_view text) {
  int64_t value;
  if (ParseShortInteger(text, &value)) return value;
  JsonNumber number = ParseJsonNumber(text);
  switch (number.kind) {
    case JsonNumberKind::kInt64:
      return number.int_value;
    case JsonNumberKind::kDouble:
      if (std::isfinite(number.double_value) && number.double_value == std::trunc(number.double_value) &&
          std::fabs(number.double_value) < 9.2e18) {
        return static_cast<int64_t>(number.double_value);
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

size_t FindJsonStringEnd(std::string_view text, bool* has_escape) {
  *has_escape = false;
  size_t i = 0;
  while (i < text.size()) {
    const void* hit = std::memchr(text.data() + i, '"', text.size() - i);
    if (hit == nullptr) return std::string_view::npos;
    size_t quote = static_cast<const char*>(hit) - text.data();
    // The quote is escaped iff an odd number of backslashes precede it.
    size_t backslashes = 0;
    while (quote > backslashes && text[quote - 1 - backslashes] == '\\') ++backslashes;
    if (backslashes > 0 || std::memchr(text.data() + i, '\\', quote - i) != nullptr) *has_escape = true;
    if (backslashes % 2 == 0) return quote;
    i = quote + 1;
  }
  return std::string_view::npos;
}

std::string_view UnescapeJsonStringLenient(std::string_view escaped, std::string* scratch) {
  size_t first = escaped.find('\\');
  if (first == std::string_view::npos) return escaped;
  scratch->clear();
  scratch->reserve(escaped.size());
  scratch->append(escaped.substr(0, first));
  size_t i = first;
  while (i < escaped.size()) {
    char c = escaped[i];
    if (c != '\\' || i + 1 >= escaped.size()) {
      scratch->push_back(c);
      ++i;
      continue;
    }
    char e = escaped[i + 1];
    switch (e) {
      case '"': scratch->push_back('"'); i += 2; continue;
      case '\\': scratch->push_back('\\'); i += 2; continue;
      case '/': scratch->push_back('/'); i += 2; continue;
      case 'b': scratch->push_back('\b'); i += 2; continue;
      case 'f': scratch->push_back('\f'); i += 2; continue;
      case 'n': scratch->push_back('\n'); i += 2; continue;
      case 'r': scratch->push_back('\r'); i += 2; continue;
      case 't': scratch->push_back('\t'); i += 2; continue;
      case 'u': {
        std::optional<uint32_t> unit = ParseHex4(escaped.substr(i + 2));
        if (!unit) break;
        uint32_t code_point = *unit;
        size_t consumed = 6;
        if (code_point >= 0xD800 && code_point <= 0xDBFF) {
          // A high surrogate must be followed by \uDC00..\uDFFF.
          std::optional<uint32_t> low;
          if (escaped.substr(i + 6, 2) == "\\u") low = ParseHex4(escaped.substr(i + 8));
          if (!low || *low < 0xDC00 || *low > 0xDFFF) break;
          code_point = 0x10000 + ((code_point - 0xD800) << 10) + (*low - 0xDC00);
          consumed = 12;
        } else if (code_point >= 0xDC00 && code_point <= 0xDFFF) {
          break;  // a lone low surrogate
        }
        AppendUtf8(code_point, scratch);
        i += consumed;
        continue;
      }
      default:
        break;
    }
    // Not a valid escape: keep the backslash and go on with the next character.
    scratch->push_back('\\');
    ++i;
  }
  return *scratch;
}

uint64_t SanitizeUtf8InPlace(char* data, size_t size) {
  uint64_t replaced = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(data);
  size_t i = 0;
  while (i < size) {
    size_t length = ValidUtf8SequenceLength(bytes + i, size - i);
    if (length == 0) {
      bytes[i] = '?';
      ++replaced;
      length = 1;
    }
    i += length;
  }
  return replaced;
}

std::optional<int64_t> TrailingInteger(std::string_view text) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  size_t end = text.size();
  size_t begin = end;
  while (begin > 0 && IsDigit(text[begin - 1])) --begin;
  if (begin == end) return std::nullopt;
  if (begin > 0 && text[begin - 1] == '-') --begin;
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + end, value);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

}  // namespace stepscope::importers
