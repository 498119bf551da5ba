#include "src/importers/json/trace_json_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "src/base/gzip.h"
#include "src/importers/json/json_stream_buffer.h"
#include "src/importers/json/json_text.h"

namespace stepscope::importers {
namespace {

namespace od = simdjson::ondemand;

// What a window is closed with: ']' normally; when the cut fell inside a string, a quote
// (or two, after a trailing backslash) closes the string first. The element that contains
// the cut is incomplete either way and is parsed again from the next window.
constexpr std::string_view kWindowSuffixes[] = {"]", "\"]", "\"\"]"};
constexpr size_t kMaxSuffixBytes = 3;
static_assert(JsonStreamBuffer::kTailBytes >= simdjson::SIMDJSON_PADDING + kMaxSuffixBytes + 1,
              "the stream buffer's tail must hold the suffix plus simdjson's padding");

// Top-level members other than the event array are small in every format we know
// (deviceProperties, distributedInfo, metadata); anything larger is skipped, not kept.
constexpr size_t kMaxTopLevelValueBytes = 16 << 20;
constexpr size_t kMaxTopLevelKeyBytes = 4096;

bool IsWhitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::string_view TrimTrailingWhitespace(std::string_view text) {
  while (!text.empty() && IsWhitespace(text.back())) text.remove_suffix(1);
  return text;
}

// The index just past the last element boundary in data[0, size): a '}' followed by
// optional whitespace and then ",{" (another element follows) or ']' (the array ends, in
// which case the index is just past the ']'). npos when there is none.
size_t FindLastElementBoundary(const char* data, size_t size) {
  size_t limit = size;
  while (limit > 0) {
    const void* hit = memrchr(data, '}', limit);
    if (hit == nullptr) return std::string_view::npos;
    size_t brace = static_cast<const char*>(hit) - data;
    size_t j = brace + 1;
    while (j < size && IsWhitespace(data[j])) ++j;
    if (j < size && data[j] == ']') return j + 1;
    if (j < size && data[j] == ',') {
      ++j;
      while (j < size && IsWhitespace(data[j])) ++j;
      if (j < size && data[j] == '{') return brace + 1;
    }
    limit = brace;
  }
  return std::string_view::npos;
}

// Length of the JSON value at data[0] if it ends within `size` (strings and nesting
// respected, nothing validated), npos otherwise. Used only to tell a cut element from a
// malformed one.
size_t ScanValueExtent(const char* data, size_t size) {
  size_t i = 0;
  while (i < size && IsWhitespace(data[i])) ++i;
  if (i == size) return std::string_view::npos;
  int depth = 0;
  bool in_string = false;
  bool escape = false;
  for (; i < size; ++i) {
    char c = data[i];
    if (in_string) {
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        escape = true;
      } else if (c == '"') {
        in_string = false;
        if (depth == 0) return i + 1;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth <= 0) return i + 1;
    } else if (depth == 0 && (c == ',' || IsWhitespace(c))) {
      return i;
    }
  }
  return std::string_view::npos;
}

class Tokenizer {
 public:
  Tokenizer(ByteSource& source, const TraceJsonReadOptions& options, TraceJsonSink& sink,
            TraceJsonReadResult* result)
      : source_(source),
        options_(options),
        sink_(sink),
        result_(result),
        buffer_(&source, std::max<size_t>(options.window_bytes, 64),
                std::max(options.window_bytes, options.max_element_bytes) + options.window_bytes) {}

  Status Run();

 private:
  struct WindowResult {
    size_t resume = 0;          // bytes of the window fully handled
    bool array_closed = false;  // the event array's ']' is at window[resume - 1]
    uint64_t elements = 0;      // elements delivered
    bool ended_at_element = false;  // resume == window and no ',' followed the last element
    simdjson::error_code error = simdjson::SUCCESS;  // why the window stopped early
  };

  Status ParseTopLevelObject();
  Status ParseEventArray();
  Status ParseWindow(size_t window, WindowResult* out);
  simdjson::error_code ParseObject(od::value& value);
  simdjson::error_code ConsumeNonObject(od::value& value, const char** next_token);
  static simdjson::error_code ReadToken(od::value& value, JsonToken* token);
  Status Truncated(std::string what);
  Status CheckEndOfData();
  std::string Where() const { return "at byte " + std::to_string(buffer_.offset()); }

  ByteSource& source_;
  const TraceJsonReadOptions& options_;
  TraceJsonSink& sink_;
  TraceJsonReadResult* result_;
  JsonStreamBuffer buffer_;
  od::parser parser_;
  RawTraceEvent event_;
};

Status Tokenizer::Run() {
  StatusOr<int> first = buffer_.SkipWhitespaceAndPeek();
  if (!first.ok()) return first.status();
  Status status;
  if (*first < 0) {
    status = InvalidArgumentError("the file is empty, not a JSON trace");
  } else if (*first == '[') {
    buffer_.Consume(1);
    result_->found_event_array = true;
    status = ParseEventArray();
  } else if (*first == '{') {
    buffer_.Consume(1);
    status = ParseTopLevelObject();
  } else {
    status = InvalidArgumentError("not a JSON trace: it starts with byte 0x" +
                                  std::string(1, "0123456789abcdef"[(*first >> 4) & 15]) +
                                  std::string(1, "0123456789abcdef"[*first & 15]) +
                                  " instead of '{' or '['");
  }
  if (status.ok() && !result_->truncated) status = CheckEndOfData();
  result_->json_bytes = source_.bytes_read();
  if (!status.ok()) return status;
  if (!result_->found_event_array) {
    return InvalidArgumentError("no \"traceEvents\" array: not a Chrome/Kineto trace JSON");
  }
  return OkStatus();
}

// After the trace's JSON value: reads to the end of the data, so that a problem the
// source reports only there (garbage after the gzip stream, a stream cut after the last
// JSON byte) is named rather than ignored.
Status Tokenizer::CheckEndOfData() {
  while (true) {
    StatusOr<int> next = buffer_.SkipWhitespaceAndPeek();
    if (!next.ok()) return next.status();
    if (*next < 0) break;
    buffer_.Consume(buffer_.size());  // text after the JSON value: tolerated, as browsers do
  }
  const Status& source_error = buffer_.source_error();
  if (source_error.ok()) return OkStatus();
  if (base::IsTruncatedGzipError(source_error)) {
    return Truncated("the compressed stream ends after the JSON " + Where());
  }
  return source_error;
}

Status Tokenizer::Truncated(std::string what) {
  std::string message = "the trace is truncated: " + what + " after " + std::to_string(result_->elements) + " events";
  if (!buffer_.source_error().ok()) message += " (" + buffer_.source_error().message() + ")";
  if (!options_.allow_truncated) return DataLossError(message);
  result_->truncated = true;
  result_->truncation = message;
  return OkStatus();
}

Status Tokenizer::ParseTopLevelObject() {
  std::string key;
  std::string value;
  while (true) {
    StatusOr<int> next = buffer_.SkipWhitespaceAndPeek();
    if (!next.ok()) return next.status();
    if (*next < 0) {
      if (result_->found_event_array) {
        result_->unclosed_top_level = true;
        return OkStatus();
      }
      return Truncated("the top-level object ends " + Where());
    }
    if (*next == '}') {
      buffer_.Consume(1);
      return OkStatus();
    }
    if (*next == ',') {
      buffer_.Consume(1);
      continue;
    }
    if (*next != '"') {
      return DataLossError("malformed JSON " + Where() + ": expected a key in the top-level object");
    }
    Status status = buffer_.ReadString(&key, kMaxTopLevelKeyBytes);
    if (!status.ok()) {
      if (status.code() != StatusCode::kDataLoss || !result_->found_event_array) return status;
      result_->unclosed_top_level = true;
      return OkStatus();
    }
    next = buffer_.SkipWhitespaceAndPeek();
    if (!next.ok()) return next.status();
    if (*next != ':') {
      if (*next < 0 && result_->found_event_array) {
        result_->unclosed_top_level = true;
        return OkStatus();
      }
      return DataLossError("malformed JSON " + Where() + ": expected ':' after \"" + key + "\"");
    }
    buffer_.Consume(1);
    next = buffer_.SkipWhitespaceAndPeek();
    if (!next.ok()) return next.status();
    if (key == "traceEvents" && *next == '[' && !result_->found_event_array) {
      buffer_.Consume(1);
      result_->found_event_array = true;
      status = ParseEventArray();
      if (!status.ok() || result_->truncated) return status;
      continue;
    }
    bool kept = false;
    status = buffer_.SkipValue(&value, kMaxTopLevelValueBytes, &kept);
    if (!status.ok()) {
      if (status.code() == StatusCode::kDataLoss && result_->found_event_array) {
        result_->unclosed_top_level = true;
        return OkStatus();
      }
      return status;
    }
    if (kept) {
      sink_.OnTopLevelField(key, value);
    } else {
      ++result_->skipped_top_level_values;
    }
  }
}

Status Tokenizer::ParseEventArray() {
  // True when the last window ended right after an element: the next byte must be the
  // ',' (or ']') that follows it.
  bool expect_separator = false;
  while (true) {
    StatusOr<int> next = buffer_.SkipWhitespaceAndPeek();
    if (!next.ok()) return next.status();
    if (*next < 0) return Truncated("the event array is not closed");
    if (*next == ']') {
      buffer_.Consume(1);
      return OkStatus();
    }
    if (expect_separator) {
      if (*next != ',') return DataLossError("malformed JSON in the event array " + Where() + ": expected ','");
      buffer_.Consume(1);
      expect_separator = false;
      continue;
    }
    if (!buffer_.at_eof() && buffer_.size() < buffer_.capacity()) {
      Status status = buffer_.Fill();
      if (!status.ok()) return status;
    }
    bool final_window = buffer_.at_eof();
    size_t window = final_window ? buffer_.size() : FindLastElementBoundary(buffer_.data(), buffer_.size());
    if (window == std::string_view::npos) {
      Status status = buffer_.Grow();  // a full buffer without a boundary: one huge element
      if (!status.ok()) return status;
      continue;
    }
    WindowResult parsed;
    Status status = ParseWindow(window, &parsed);
    if (!status.ok()) return status;
    buffer_.Consume(parsed.resume);
    if (parsed.array_closed) return OkStatus();
    if (parsed.resume > 0) {
      expect_separator = parsed.resume == window && parsed.ended_at_element;
      continue;
    }
    // No progress: the first element is either cut off by the end of the window (read
    // more) or malformed (give up: JSON cannot be resynchronised reliably).
    size_t extent = ScanValueExtent(buffer_.data(), buffer_.size());
    if (extent != std::string_view::npos && extent != window) {
      // The window's boundary was a look-alike inside a string ("a},{b"): parse exactly
      // the first element instead.
      status = ParseWindow(extent, &parsed);
      if (!status.ok()) return status;
      buffer_.Consume(parsed.resume);
      if (parsed.array_closed) return OkStatus();
      if (parsed.resume > 0) {
        expect_separator = parsed.resume == extent && parsed.ended_at_element;
        continue;
      }
    }
    if (extent != std::string_view::npos) {
      return DataLossError("malformed JSON in the event array " + Where() + " (" +
                           simdjson::error_message(parsed.error) + ")");
    }
    if (final_window) return Truncated("the file ends inside the event at byte " + std::to_string(buffer_.offset()));
    status = buffer_.size() >= buffer_.capacity() ? buffer_.Grow() : buffer_.Fill();
    if (!status.ok()) return status;
  }
}

Status Tokenizer::ParseWindow(size_t window, WindowResult* out) {
  char* base = buffer_.data();
  char saved[kMaxSuffixBytes];
  std::memcpy(saved, base + window, kMaxSuffixBytes);
  base[-1] = '[';
  od::document doc;
  simdjson::error_code error = simdjson::SUCCESS;
  bool sanitized = false;
  size_t attempt = 0;
  while (attempt < std::size(kWindowSuffixes)) {
    std::string_view suffix = kWindowSuffixes[attempt];
    std::memcpy(base + window, suffix.data(), suffix.size());
    size_t length = 1 + window + suffix.size();
    error = parser_.iterate(base - 1, length, length + simdjson::SIMDJSON_PADDING).get(doc);
    if (error == simdjson::UNCLOSED_STRING) {
      ++attempt;
    } else if (error == simdjson::UTF8_ERROR && !sanitized) {
      result_->invalid_utf8_bytes += SanitizeUtf8InPlace(base, window);
      sanitized = true;
    } else {
      break;
    }
  }
  od::array array;
  if (!error) error = doc.get_array().get(array);
  if (!error) {
    for (auto item : array) {
      od::value value;
      error = std::move(item).get(value);
      if (error) break;
      std::string_view token = value.raw_json_token();
      if (token.empty()) {
        error = simdjson::TAPE_ERROR;
        break;
      }
      uint64_t offset = buffer_.offset() + static_cast<uint64_t>(token.data() - base);
      if (token[0] == ']') {
        // "[..., {}, ]": a trailing comma. The ']' closes the array.
        size_t close = static_cast<size_t>(token.data() - base);
        if (close >= window) break;  // our own suffix: the window simply ended
        ++result_->trailing_commas;
        out->resume = close + 1;
        out->array_closed = true;
        break;
      }
      bool is_object = token[0] == '{';
      const char* location = nullptr;
      if (is_object) {
        event_.Clear();
        event_.byte_offset = offset;
        error = ParseObject(value);
      } else {
        error = ConsumeNonObject(value, &location);
      }
      if (error) break;
      // The element is complete; what follows it decides how far the window is handled.
      if (location == nullptr) error = doc.current_location().get(location);
      if (error) break;
      // simdjson may report the document's own '[' (base - 1) on malformed input; nothing
      // before the window is ours to read.
      if (location < base) {
        error = simdjson::TAPE_ERROR;
        break;
      }
      size_t position = static_cast<size_t>(location - base);
      if (is_object) {
        // Belt and braces: an object is complete only if its '}' precedes `location`.
        size_t last = position;
        while (last > 0 && IsWhitespace(base[last - 1])) --last;
        if (last == 0 || last > window || base[last - 1] != '}') {
          error = simdjson::INCOMPLETE_ARRAY_OR_OBJECT;
          break;
        }
      }
      if (position >= window) {
        out->resume = window;
        out->ended_at_element = true;
      } else if (base[position] == ',') {
        out->resume = position + 1;
      } else if (base[position] == ']') {
        out->resume = position + 1;
        out->array_closed = true;
      } else {
        error = simdjson::TAPE_ERROR;  // two elements without a comma
        break;
      }
      ++out->elements;
      ++result_->elements;
      if (is_object) {
        sink_.OnEvent(event_);
      } else {
        sink_.OnNonObjectEvent(offset);
      }
      if (out->array_closed) break;
    }
  }
  std::memcpy(base + window, saved, kMaxSuffixBytes);
  out->error = error;
  return OkStatus();
}

simdjson::error_code Tokenizer::ReadToken(od::value& value, JsonToken* token) {
  // Scalars are read from their raw token, which spans up to the next structural
  // character: no scanning, and no unescaping until a parser asks for it.
  std::string_view raw = TrimTrailingWhitespace(value.raw_json_token());
  if (raw.empty()) return simdjson::TAPE_ERROR;
  switch (raw[0]) {
    case '"':
      if (raw.size() < 2 || raw.back() != '"') return simdjson::UNCLOSED_STRING;
      token->kind = JsonKind::kString;
      token->text = raw.substr(1, raw.size() - 2);
      return simdjson::SUCCESS;
    case '[': {
      od::array array;
      simdjson::error_code error = value.get_array().get(array);
      if (!error) error = array.raw_json().get(token->text);
      token->kind = JsonKind::kArray;
      return error;
    }
    case '{': {
      od::object object;
      simdjson::error_code error = value.get_object().get(object);
      if (!error) error = object.raw_json().get(token->text);
      token->kind = JsonKind::kObject;
      return error;
    }
    case 't':
    case 'f':
      token->kind = raw == "true" || raw == "false" ? JsonKind::kBool : JsonKind::kOther;
      token->text = raw;
      return simdjson::SUCCESS;
    case 'n':
      token->kind = raw == "null" ? JsonKind::kNull : JsonKind::kOther;
      token->text = raw;
      return simdjson::SUCCESS;
    case ']':
    case '}':
    case ',':
    case ':':
      return simdjson::TAPE_ERROR;  // broken (or cut) JSON
    default:
      // Numbers, and bare words such as NaN and Infinity that Python's json writes: the
      // parser decides what they mean.
      token->kind = (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) ? JsonKind::kNumber : JsonKind::kOther;
      token->text = raw;
      return simdjson::SUCCESS;
  }
}

// The text of a field's key, from where it starts (just after its opening quote) to the
// ':' that precedes the value token.
std::string_view KeyText(const char* key_begin, const char* value_begin) {
  const char* end = value_begin;
  while (end > key_begin && end[-1] != ':') --end;
  if (end > key_begin) --end;  // the ':'
  while (end > key_begin && IsWhitespace(end[-1])) --end;
  if (end > key_begin && end[-1] == '"') --end;
  return std::string_view(key_begin, static_cast<size_t>(end - key_begin));
}

simdjson::error_code Tokenizer::ConsumeNonObject(od::value& value, const char** next_token) {
  // Arrays and objects are consumed by ReadToken (the iterator moves past them). A scalar
  // is one token: the next token starts where its raw text (which includes trailing
  // whitespace) ends; the iterator skips it when it advances.
  JsonToken token;
  std::string_view raw = value.raw_json_token();
  simdjson::error_code error = ReadToken(value, &token);
  if (error) return error;
  if (token.kind == JsonKind::kArray || token.kind == JsonKind::kObject) {
    *next_token = nullptr;
  } else {
    *next_token = raw.data() + raw.size();
  }
  return simdjson::SUCCESS;
}

simdjson::error_code Tokenizer::ParseObject(od::value& value) {
  od::object object;
  simdjson::error_code error = value.get_object().get(object);
  if (error) return error;
  for (auto field_result : object) {
    od::field field;
    error = std::move(field_result).get(field);
    if (error) return error;
    od::value& field_value = field.value();
    std::string_view key = KeyText(field.key().raw(), field_value.raw_json_token().data());
    JsonToken* target = nullptr;
    switch (key.size()) {
      case 1:
        if (key == "s") target = &event_.scope;
        break;
      case 2:
        if (key == "ph") target = &event_.ph;
        else if (key == "ts") target = &event_.ts;
        else if (key == "id") target = &event_.id;
        else if (key == "bp") target = &event_.bp;
        break;
      case 3:
        if (key == "pid") target = &event_.pid;
        else if (key == "tid") target = &event_.tid;
        else if (key == "dur") target = &event_.dur;
        else if (key == "cat") target = &event_.cat;
        else if (key == "id2") target = &event_.id2;
        break;
      case 4:
        if (key == "name") {
          target = &event_.name;
        } else if (key == "args") {
          event_.has_args = true;
          od::object args;
          if (field_value.get_object().get(args) != simdjson::SUCCESS) break;  // not an object: ignored
          for (auto arg_result : args) {
            od::field arg;
            error = std::move(arg_result).get(arg);
            if (error) return error;
            JsonArg& out = event_.args.emplace_back();
            od::value& arg_value = arg.value();
            out.key = KeyText(arg.key().raw(), arg_value.raw_json_token().data());
            error = ReadToken(arg_value, &out.value);
            if (error) return error;
          }
        }
        break;
      case 7:
        if (key == "bind_id") target = &event_.bind_id;
        else if (key == "flow_in") target = &event_.flow_in;
        break;
      case 8:
        if (key == "flow_out") target = &event_.flow_out;
        break;
      default:
        break;
    }
    if (target != nullptr) {
      error = ReadToken(field_value, target);
      if (error) return error;
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace

Status ReadTraceJson(ByteSource& source, const TraceJsonReadOptions& options, TraceJsonSink& sink,
                     TraceJsonReadResult* result) {
  *result = TraceJsonReadResult{};
  Tokenizer tokenizer(source, options, sink, result);
  return tokenizer.Run();
}

}  // namespace stepscope::importers
