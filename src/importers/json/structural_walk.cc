#include "src/importers/json/structural_walk.h"

namespace stepscope::importers {
namespace {

bool IsWhitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

__attribute__((always_inline)) inline std::string_view StructuralWalk::TokenText(uint32_t i) const {
  const char* begin = document_ + indexes_[i];
  const char* end = document_ + indexes_[i + 1];
  while (end > begin && IsWhitespace(end[-1])) --end;
  return std::string_view(begin, static_cast<size_t>(end - begin));
}

__attribute__((always_inline)) inline simdjson::error_code StructuralWalk::StringContent(
    uint32_t i, std::string_view* content) const {
  std::string_view raw = TokenText(i);
  if (raw.size() < 2 || raw.back() != '"') return simdjson::UNCLOSED_STRING;
  *content = std::string_view(raw.data() + 1, raw.size() - 2);
  return simdjson::SUCCESS;
}

simdjson::error_code StructuralWalk::FindClose(uint32_t i, uint32_t* close) const {
  // A value nested in an event (an args array, an object) is checked as a JSON parser
  // would: its text becomes a stat value, and a broken one means the window's structure
  // is not what it seems. `open` holds the brackets of the enclosing levels.
  enum class Expect : uint8_t { kValueOrClose, kKeyOrClose, kValue, kKey, kColon, kCommaOrClose };
  char open[kMaxNesting];
  uint32_t depth = 0;
  Expect expect = Expect::kValue;
  for (uint32_t k = i; k < count_; ++k) {
    const char c = at(k);
    switch (expect) {
      case Expect::kValueOrClose:
      case Expect::kKeyOrClose:
        if (c == (open[depth - 1] == '[' ? ']' : '}')) {
          if (--depth == 0) {
            *close = k;
            return simdjson::SUCCESS;
          }
          expect = Expect::kCommaOrClose;
          continue;
        }
        if (expect == Expect::kKeyOrClose) {
          if (c != '"') return simdjson::TAPE_ERROR;
          expect = Expect::kColon;
          continue;
        }
        break;  // a value
      case Expect::kKey:
        if (c != '"') return simdjson::TAPE_ERROR;
        expect = Expect::kColon;
        continue;
      case Expect::kColon:
        if (c != ':') return simdjson::TAPE_ERROR;
        expect = Expect::kValue;
        continue;
      case Expect::kCommaOrClose:
        if (c == ',') {
          expect = open[depth - 1] == '[' ? Expect::kValue : Expect::kKey;
        } else if (c == (open[depth - 1] == '[' ? ']' : '}')) {
          if (--depth == 0) {
            *close = k;
            return simdjson::SUCCESS;
          }
        } else {
          return simdjson::TAPE_ERROR;
        }
        continue;
      case Expect::kValue:
        break;
    }
    // A value: a nested array or object, or a string or scalar.
    if (c == '[' || c == '{') {
      if (depth == kMaxNesting) return simdjson::DEPTH_ERROR;
      open[depth++] = c;
      expect = c == '[' ? Expect::kValueOrClose : Expect::kKeyOrClose;
    } else if (c == ']' || c == '}' || c == ',' || c == ':') {
      return simdjson::TAPE_ERROR;
    } else {
      expect = Expect::kCommaOrClose;
    }
  }
  return simdjson::TAPE_ERROR;
}

simdjson::error_code StructuralWalk::ReadNested(uint32_t i, JsonToken* token, uint32_t* next) const {
  uint32_t close = 0;
  simdjson::error_code error = FindClose(i, &close);
  if (error) return error;
  token->kind = at(i) == '[' ? JsonKind::kArray : JsonKind::kObject;
  const char* begin = document_ + indexes_[i];
  token->set_text(std::string_view(begin, static_cast<size_t>(document_ + indexes_[close + 1] - begin)));
  *next = close + 1;
  return simdjson::SUCCESS;
}

// Inlined into the event walk: nearly every value there is a string or a scalar.
__attribute__((always_inline)) inline simdjson::error_code StructuralWalk::ReadValueInline(uint32_t i, JsonToken* token,
                                                                                          uint32_t* next) const {
  if (i >= count_) return simdjson::TAPE_ERROR;
  const char first = at(i);
  switch (first) {
    case '"': {
      token->kind = JsonKind::kString;
      *next = i + 1;
      std::string_view content;
      const simdjson::error_code error = StringContent(i, &content);
      token->set_text(content);
      return error;
    }
    case '[':
    case '{':
      return ReadNested(i, token, next);
    case ']':
    case '}':
    case ',':
    case ':':
      return simdjson::TAPE_ERROR;  // broken (or cut) JSON
    default:
      break;
  }
  // Numbers, true/false/null, and bare words such as NaN and Infinity that Python's json
  // writes: the parsers decide what they mean.
  std::string_view text = TokenText(i);
  token->set_text(text);
  *next = i + 1;
  if (first == 't' || first == 'f') {
    token->kind = text == "true" || text == "false" ? JsonKind::kBool : JsonKind::kOther;
  } else if (first == 'n') {
    token->kind = text == "null" ? JsonKind::kNull : JsonKind::kOther;
  } else {
    token->kind = first == '-' || (first >= '0' && first <= '9') ? JsonKind::kNumber : JsonKind::kOther;
  }
  return simdjson::SUCCESS;
}

simdjson::error_code StructuralWalk::ReadValue(uint32_t i, JsonToken* token, uint32_t* next) const {
  return ReadValueInline(i, token, next);
}

template <typename OnField>
__attribute__((always_inline)) inline simdjson::error_code StructuralWalk::ReadObject(uint32_t i, uint32_t* next, OnField on_field) const {
  uint32_t j = i + 1;
  if (j >= count_) return simdjson::TAPE_ERROR;
  if (at(j) == '}') {
    *next = j + 1;
    return simdjson::SUCCESS;
  }
  while (true) {
    if (j + 2 >= count_) return simdjson::TAPE_ERROR;  // a key, ':' and a value
    if (at(j) != '"') return simdjson::TAPE_ERROR;                       // the key is not a string
    if (at(j + 1) != ':') return simdjson::TAPE_ERROR;
    std::string_view key;
    simdjson::error_code error = StringContent(j, &key);
    if (error) return error;
    uint32_t after = 0;
    error = on_field(key, j + 2, &after);
    if (error) return error;
    if (after >= count_) return simdjson::TAPE_ERROR;
    const char c = at(after);
    if (c == ',') {
      j = after + 1;
    } else if (c == '}') {
      *next = after + 1;
      return simdjson::SUCCESS;
    } else {
      return simdjson::TAPE_ERROR;
    }
  }
}

simdjson::error_code StructuralWalk::ReadEvent(uint32_t i, RawTraceEvent* event, uint32_t* next) const {
  return ReadObject(i, next, [this, event](std::string_view key, uint32_t value, uint32_t* after)
                                 __attribute__((always_inline)) {
    JsonToken* target = nullptr;
    switch (key.size()) {
      case 1:
        if (key == "s") target = event->set_rare_field(&event->scope);
        break;
      case 2:
        if (key == "ph") target = &event->ph;
        else if (key == "ts") target = &event->ts;
        else if (key == "id") target = event->set_rare_field(&event->id);
        else if (key == "bp") target = event->set_rare_field(&event->bp);
        break;
      case 3:
        if (key == "pid") target = &event->pid;
        else if (key == "tid") target = &event->tid;
        else if (key == "dur") target = &event->dur;
        else if (key == "cat") target = &event->cat;
        else if (key == "id2") target = event->set_rare_field(&event->id2);
        break;
      case 4:
        if (key == "name") {
          target = &event->name;
        } else if (key == "args") {
          event->has_args = true;
          if (at(value) != '{') break;  // not an object: ignored
          return ReadObject(value, after, [this, event](std::string_view arg_key, uint32_t arg_value,
                                                        uint32_t* arg_after) __attribute__((always_inline)) {
            JsonArg& arg = event->args.emplace_back();
            arg.key = arg_key;
            return ReadValueInline(arg_value, &arg.value, arg_after);
          });
        }
        break;
      case 7:
        if (key == "bind_id") target = event->set_rare_field(&event->bind_id);
        else if (key == "flow_in") target = event->set_rare_field(&event->flow_in);
        break;
      case 8:
        if (key == "flow_out") target = event->set_rare_field(&event->flow_out);
        break;
      default:
        break;
    }
    JsonToken ignored;
    return ReadValueInline(value, target != nullptr ? target : &ignored, after);
  });
}

}  // namespace stepscope::importers
