#include "src/analysis/output/json_writer.h"

#include <charconv>
#include <cmath>

#include "src/base/logging.h"

namespace stepscope::analysis::output {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
// U+FFFD REPLACEMENT CHARACTER, written escaped so the output stays 7-bit clean.
constexpr std::string_view kReplacementEscape = "\\ufffd";

// Length of the valid UTF-8 sequence starting at s[i] (2..4), or 0 if the bytes there
// are not one. Follows the well-formed byte sequences of Unicode Table 3-7: no overlong
// forms, no surrogates, nothing above U+10FFFF.
size_t ValidMultiByteLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  auto cont = [&](size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return k < s.size() && byte(k) >= lo && byte(k) <= hi;
  };
  const unsigned char b0 = byte(i);
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b0 == 0xE0) return cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;
  if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (b0 == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;  // no surrogates
  if (b0 == 0xF0) return cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b0 == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

}  // namespace

void AppendJsonString(std::string_view value, std::string* out) {
  out->push_back('"');
  size_t i = 0;
  while (i < value.size()) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out->append("\\\""); break;
        case '\\': out->append("\\\\"); break;
        case '\n': out->append("\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\t': out->append("\\t"); break;
        case '\b': out->append("\\b"); break;
        case '\f': out->append("\\f"); break;
        default:
          if (c < 0x20 || c == 0x7F) {
            out->append("\\u00");
            out->push_back(kHexDigits[c >> 4]);
            out->push_back(kHexDigits[c & 0xF]);
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    const size_t len = ValidMultiByteLength(value, i);
    if (len == 0) {
      // One replacement per invalid byte: simple, and never swallows a valid
      // character that follows a truncated sequence.
      out->append(kReplacementEscape);
      ++i;
    } else {
      out->append(value.substr(i, len));
      i += len;
    }
  }
  out->push_back('"');
}

std::string FormatDoubleRoundTrip(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  // Without a format argument to_chars gives the shortest representation that
  // round-trips (C++17 [charconv.to.chars]).
  auto result = std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, result.ptr);
}

void AppendJsonDouble(double value, std::string* out) {
  if (!std::isfinite(value)) {
    out->append("null");
    return;
  }
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof(buf), value);
  out->append(buf, result.ptr);
}

void JsonWriter::Newline(size_t depth) {
  if (style_ != Style::kPretty) return;
  out_->push_back('\n');
  out_->append(depth * 2, ' ');
}

void JsonWriter::BeforeValue() {
  if (stack_.empty()) {
    STEPSCOPE_DCHECK(!wrote_root_);  // one top-level value per writer
    wrote_root_ = true;
    return;
  }
  Frame& top = stack_.back();
  if (top.scope == Scope::kObject) {
    STEPSCOPE_DCHECK(top.key_pending);  // a value inside an object needs a Key() first
    top.key_pending = false;
    return;
  }
  if (!top.empty) out_->push_back(',');
  top.empty = false;
  Newline(stack_.size());
}

void JsonWriter::Key(std::string_view key) {
  STEPSCOPE_DCHECK(!stack_.empty() && stack_.back().scope == Scope::kObject);
  Frame& top = stack_.back();
  STEPSCOPE_DCHECK(!top.key_pending);
  if (!top.empty) out_->push_back(',');
  top.empty = false;
  top.key_pending = true;
  Newline(stack_.size());
  AppendJsonString(key, out_);
  out_->push_back(':');
  if (style_ == Style::kPretty) out_->push_back(' ');
}

void JsonWriter::BeginObject() {
  BeforeValue();
  out_->push_back('{');
  stack_.push_back(Frame{Scope::kObject});
}

void JsonWriter::EndObject() {
  STEPSCOPE_DCHECK(!stack_.empty() && stack_.back().scope == Scope::kObject);
  STEPSCOPE_DCHECK(!stack_.back().key_pending);
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) Newline(stack_.size());
  out_->push_back('}');
}

void JsonWriter::BeginArray() {
  BeforeValue();
  out_->push_back('[');
  stack_.push_back(Frame{Scope::kArray});
}

void JsonWriter::EndArray() {
  STEPSCOPE_DCHECK(!stack_.empty() && stack_.back().scope == Scope::kArray);
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) Newline(stack_.size());
  out_->push_back(']');
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendJsonString(value, out_);
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  out_->append(std::to_string(value));
}

void JsonWriter::Uint(uint64_t value) {
  BeforeValue();
  out_->append(std::to_string(value));
}

void JsonWriter::Double(double value) {
  BeforeValue();
  AppendJsonDouble(value, out_);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_->append(value ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_->append("null");
}

}  // namespace stepscope::analysis::output
