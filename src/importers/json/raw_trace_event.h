// One element of a trace's event array, as the tokenizer hands it to a parser: the fields
// every trace-event dialect uses, as views of their JSON text. Parsers decide what a field
// means (Perfetto's tokenizer/parser split); the one conversion made here is reading the
// digits of "ts" and "dur" (ReadPlainTimes), which every dialect needs and which is
// stateless, so it runs on the tokenizer's thread when that is the less busy one (when
// it does not also inflate the input); otherwise the parser reads the text itself.
//
// Lifetime: every view points into the tokenizer's window and is valid only during the
// TraceJsonSink::OnEvent call that receives it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/importers/json/json_text.h"

namespace stepscope::importers {

enum class JsonKind : uint8_t { kAbsent, kString, kNumber, kBool, kNull, kArray, kObject, kOther };

// 16 bytes, not a kind beside a string_view's 24: the tokenizer's thread writes every
// field of every event and the parser's reads them, so each byte saved is a byte that
// does not move between the two cores' caches.
struct JsonToken {
  JsonToken() = default;
  JsonToken(JsonKind kind, std::string_view text) : kind(kind) { set_text(text); }

  // kString: the content between the quotes, still escaped: pass it through
  // UnescapeJsonStringLenient (which returns it unchanged when it has no backslash).
  // kNumber/kBool/kNull/kOther: the token text ("12.5", "true", "NaN").
  // kArray/kObject: the whole value as JSON text.
  std::string_view text() const { return {data_, size_}; }
  // A token lies within one window, which TraceJsonReadOptions bounds far below 4 GiB.
  void set_text(std::string_view text) {
    data_ = text.data();
    size_ = static_cast<uint32_t>(text.size());
  }

  bool present() const { return kind != JsonKind::kAbsent; }
  bool is_string() const { return kind == JsonKind::kString; }
  bool is_number() const { return kind == JsonKind::kNumber; }

 private:
  const char* data_ = nullptr;
  uint32_t size_ = 0;

 public:
  JsonKind kind = JsonKind::kAbsent;
};
static_assert(sizeof(JsonToken) == 16);

struct JsonArg {
  std::string_view key;  // key text, still escaped
  JsonToken value;
};

struct RawTraceEvent {
  JsonToken ph;
  JsonToken name;
  JsonToken cat;
  JsonToken pid;
  JsonToken tid;
  JsonToken ts;
  JsonToken dur;
  bool has_args = false;
  std::vector<JsonArg> args;  // in file order
  uint64_t byte_offset = 0;  // of the element in the (inflated) JSON text
  // ts and dur when their text is a plain decimal number (json_text.h ReadPlainMicros)
  // and the tokenizer read them; nullopt otherwise, and the parser reads the text.
  std::optional<PlainMicros> ts_plain;
  std::optional<PlainMicros> dur_plain;
  // The fields only flow, async and instant events have come last, in cache lines of
  // their own, and Clear() resets them only when one was set: the tokenizer recycles
  // events that the parser's thread has read, and each line it writes again is a line
  // that thread must fetch again, while lines left alone stay shared by both.
  JsonToken id;     // flow / async id: number or string ("0x402")
  JsonToken id2;    // {"local": ...} / {"global": ...}
  JsonToken bp;     // flow binding point ("e" = enclosing slice)
  JsonToken scope;  // "s": instant-event scope (t, p, g)
  JsonToken bind_id;   // flow v2
  JsonToken flow_in;   // flow v2
  JsonToken flow_out;  // flow v2

  // One of the fields id ... flow_out, to write: marks them for Clear() to reset. Write
  // them only through this.
  JsonToken* set_rare_field(JsonToken* field) {
    rare_fields_set_ = true;
    return field;
  }

  // Resets every field, keeping the args vector's capacity. Each token on its own: a
  // chain of assignments (a = b = JsonToken{}) copies each from the one just stored, an
  // odd-sized load that waits for those stores (6 % of a single-thread import).
  void Clear() {
    for (JsonToken* token : {&ph, &name, &cat, &pid, &tid, &ts, &dur}) *token = JsonToken();
    has_args = false;
    args.clear();
    byte_offset = 0;
    ts_plain.reset();
    dur_plain.reset();
    if (rare_fields_set_) {
      for (JsonToken* token : {&id, &id2, &bp, &scope, &bind_id, &flow_in, &flow_out}) *token = JsonToken();
      rare_fields_set_ = false;
    }
  }
  void ReadPlainTimes() {
    if (ts.is_number()) ts_plain = ReadPlainMicros(ts.text());
    if (dur.is_number()) dur_plain = ReadPlainMicros(dur.text());
  }

 private:
  bool rare_fields_set_ = false;
};

// Receives the tokenizer's output, in file order, on the thread that called ReadTraceJson.
class TraceJsonSink {
 public:
  virtual ~TraceJsonSink() = default;
  // One element of the event array that is a JSON object (possibly empty: `{}`).
  virtual void OnEvent(const RawTraceEvent& event) = 0;
  // An element of the event array that is not an object (a number, string, array, ...).
  virtual void OnNonObjectEvent(uint64_t byte_offset) {}
  // A member of the top-level object other than the event array ("deviceProperties",
  // "displayTimeUnit", ...), with its value as JSON text. Values larger than the reader's
  // limit are skipped and not reported.
  virtual void OnTopLevelField(std::string_view key, std::string_view raw_json) {}
};

}  // namespace stepscope::importers
