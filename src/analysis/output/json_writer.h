// A small streaming JSON writer: the only place stepscope turns analysis results into
// JSON text (tools produce structs; presentation lives in analysis/output).
//
// Guarantees the UI and scripts rely on:
//  - strings are always valid JSON and valid UTF-8: `"` `\` and control characters are
//    escaped, invalid UTF-8 bytes become U+FFFD (profiles carry arbitrary bytes in names);
//  - doubles are printed in the shortest form that reads back to the same double, so a
//    value survives JSON -> double -> JSON unchanged; NaN and infinities become null
//    (JSON has no spelling for them);
//  - integers are printed exactly (int64/uint64, no conversion through double).
//
//   std::string out;
//   JsonWriter w(&out, JsonWriter::Style::kPretty);
//   w.BeginObject();
//   w.Key("steps"); w.Int(10);
//   w.Key("ops"); w.BeginArray(); w.String("MatMul"); w.EndArray();
//   w.EndObject();
//
// Not thread-safe. Misuse (a value where a key is due, unbalanced End*) is a bug in the
// caller and is caught by DCHECK.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::analysis::output {

class JsonWriter {
 public:
  enum class Style {
    kCompact,  // no whitespace at all
    kPretty,   // two-space indent, one element per line: diffable (golden files)
  };

  // Appends to `*out`, which must outlive the writer.
  explicit JsonWriter(std::string* out, Style style = Style::kCompact) : out_(out), style_(style) {}

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // Inside an object: the key of the next value.
  void Key(std::string_view key);

  void String(std::string_view value);
  void Int(int64_t value);
  void Uint(uint64_t value);
  // Shortest round-trip form; NaN / +-Inf are written as null.
  void Double(double value);
  void Bool(bool value);
  void Null();

  // Key + value in one call, for the common object-member case.
  void Field(std::string_view key, std::string_view value) { Key(key); String(value); }
  void Field(std::string_view key, const char* value) { Key(key); String(value); }
  void Field(std::string_view key, int64_t value) { Key(key); Int(value); }
  void Field(std::string_view key, int value) { Key(key); Int(value); }
  void Field(std::string_view key, uint64_t value) { Key(key); Uint(value); }
  void Field(std::string_view key, double value) { Key(key); Double(value); }
  void Field(std::string_view key, bool value) { Key(key); Bool(value); }
  // A value that may be absent: null when it is.
  void Field(std::string_view key, const std::optional<double>& value) {
    Key(key);
    if (value) {
      Double(*value);
    } else {
      Null();
    }
  }
  void Field(std::string_view key, const std::optional<int64_t>& value) {
    Key(key);
    if (value) {
      Int(*value);
    } else {
      Null();
    }
  }

  // True once exactly one complete top-level value has been written.
  bool complete() const { return stack_.empty() && wrote_root_; }

 private:
  enum class Scope : uint8_t { kObject, kArray };
  struct Frame {
    Scope scope;
    bool empty = true;       // no member/element written yet
    bool key_pending = false;  // object: Key() written, value due
  };

  // Writes the separator/indent that must precede a value in the current scope.
  void BeforeValue();
  void Newline(size_t depth);

  std::string* out_;
  Style style_;
  std::vector<Frame> stack_;
  bool wrote_root_ = false;
};

// Appends `value` as a quoted, escaped JSON string (the escaping JsonWriter uses).
void AppendJsonString(std::string_view value, std::string* out);
// Appends the shortest round-trip text of `value`, or "null" when it is not finite.
void AppendJsonDouble(double value, std::string* out);
// The shortest text that parses back to `value` ("0.1", "1e+20", "-0"); "nan"/"inf"
// spelled as such. Shared by the CSV and text writers so all formats agree.
std::string FormatDoubleRoundTrip(double value);

}  // namespace stepscope::analysis::output
