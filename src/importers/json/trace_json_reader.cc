#include "src/importers/json/trace_json_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "src/base/cores.h"
#include "src/base/gzip.h"
#include "src/importers/json/json_stream_buffer.h"
#include "src/importers/json/json_text.h"
#include "src/importers/json/structural_index.h"
#include "src/importers/json/structural_walk.h"

namespace stepscope::importers {
namespace {

// What a window is closed with: ']' normally; when the cut fell inside a string, a quote
// (or two, after a trailing backslash) closes the string first. The element that contains
// the cut is incomplete either way and is parsed again from the next window.
constexpr std::string_view kWindowSuffixes[] = {"]", "\"]", "\"\"]"};
constexpr size_t kMaxSuffixBytes = 3;
static_assert(JsonStreamBuffer::kTailBytes >= kMaxSuffixBytes + 1,
              "the stream buffer's tail must hold the suffix and the byte StructuralWalk reads past it");

// Top-level members other than the event array are small in every format we know
// (deviceProperties, distributedInfo, metadata); anything larger is skipped, not kept.
constexpr size_t kMaxTopLevelValueBytes = 16 << 20;
constexpr size_t kMaxTopLevelKeyBytes = 4096;

bool IsWhitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

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

// Where the tokenizer's elements go: straight to the sink, or into batches for a sink on
// another thread.
class ElementOutput {
 public:
  virtual ~ElementOutput() = default;
  // The window about to be read lives in `storage`: views into it must stay valid until
  // the events that hold them are used.
  virtual void HoldStorage(const std::shared_ptr<const char>& storage) {}
  // A cleared event to fill; delivered by EndEvent(), dropped by the next StartEvent().
  virtual RawTraceEvent* StartEvent() = 0;
  virtual void EndEvent() = 0;
  virtual void NonObject(uint64_t byte_offset) = 0;
  virtual void TopLevelField(std::string_view key, std::string_view raw_json) = 0;
};

class SinkOutput : public ElementOutput {
 public:
  explicit SinkOutput(TraceJsonSink& sink) : sink_(sink) {}
  RawTraceEvent* StartEvent() override {
    event_.Clear();
    return &event_;
  }
  void EndEvent() override { sink_.OnEvent(event_); }
  void NonObject(uint64_t byte_offset) override { sink_.OnNonObjectEvent(byte_offset); }
  void TopLevelField(std::string_view key, std::string_view raw_json) override { sink_.OnTopLevelField(key, raw_json); }

 private:
  TraceJsonSink& sink_;
  RawTraceEvent event_;
};

// Elements in file order, with the storages their views point into.
struct ElementBatch {
  enum class Kind : uint8_t { kEvent, kNonObject, kTopLevelField };
  struct Item {
    Kind kind;
    uint64_t value;  // index into events / byte offset / index into top_level_fields
  };
  std::vector<RawTraceEvent> events;  // [0, event_count) in use; the rest keep capacity
  size_t event_count = 0;
  std::vector<Item> items;
  std::vector<std::pair<std::string, std::string>> top_level_fields;
  std::vector<std::shared_ptr<const char>> storages;

  void Reset() {
    event_count = 0;
    items.clear();
    top_level_fields.clear();
    storages.clear();
  }
};

// Batches from the tokenizer's thread to the sink's, bounded (the tokenizer waits when
// the sink falls behind), recycled (their events keep their args' capacity).
class BatchQueue {
 public:
  static constexpr size_t kMaxBatches = 8;

  // A batch to fill; waits while kMaxBatches are in use.
  std::unique_ptr<ElementBatch> Acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    recycled_.wait(lock, [this] { return !free_.empty() || allocated_ < kMaxBatches; });
    if (free_.empty()) {
      ++allocated_;
      return std::make_unique<ElementBatch>();
    }
    std::unique_ptr<ElementBatch> batch = std::move(free_.back());
    free_.pop_back();
    return batch;
  }
  void Push(std::unique_ptr<ElementBatch> batch) {
    std::lock_guard<std::mutex> lock(mutex_);
    full_.push_back(std::move(batch));
    filled_.notify_one();
  }
  // The next batch, or null once Close() was called and all were taken.
  std::unique_ptr<ElementBatch> Take() {
    std::unique_lock<std::mutex> lock(mutex_);
    filled_.wait(lock, [this] { return !full_.empty() || closed_; });
    if (full_.empty()) return nullptr;
    std::unique_ptr<ElementBatch> batch = std::move(full_.front());
    full_.pop_front();
    return batch;
  }
  void Recycle(std::unique_ptr<ElementBatch> batch) {
    batch->Reset();
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(batch));
    recycled_.notify_one();
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    filled_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable filled_;
  std::condition_variable recycled_;
  std::deque<std::unique_ptr<ElementBatch>> full_;
  std::vector<std::unique_ptr<ElementBatch>> free_;
  size_t allocated_ = 0;
  bool closed_ = false;
};

class BatchOutput : public ElementOutput {
 public:
  // Events per batch: enough that handing over costs nothing, few enough that a batch
  // is still in cache when the sink reads it.
  static constexpr size_t kEventsPerBatch = 512;

  explicit BatchOutput(BatchQueue* queue) : queue_(queue) {}

  void HoldStorage(const std::shared_ptr<const char>& storage) override {
    Batch();
    if (batch_->storages.empty() || batch_->storages.back() != storage) batch_->storages.push_back(storage);
  }
  RawTraceEvent* StartEvent() override {
    Batch();
    if (batch_->event_count == batch_->events.size()) batch_->events.emplace_back();
    RawTraceEvent* event = &batch_->events[batch_->event_count];
    event->Clear();
    return event;
  }
  void EndEvent() override {
    batch_->items.push_back({ElementBatch::Kind::kEvent, batch_->event_count++});
    if (batch_->event_count == kEventsPerBatch) Flush(/*keep_storage=*/true);
  }
  void NonObject(uint64_t byte_offset) override {
    Batch();
    batch_->items.push_back({ElementBatch::Kind::kNonObject, byte_offset});
  }
  void TopLevelField(std::string_view key, std::string_view raw_json) override {
    Batch();
    batch_->items.push_back({ElementBatch::Kind::kTopLevelField, batch_->top_level_fields.size()});
    batch_->top_level_fields.emplace_back(key, raw_json);
  }
  // Hands the current batch over. With `keep_storage`, the next batch holds the same
  // storage (the window being read goes on).
  void Flush(bool keep_storage = false) {
    if (batch_ == nullptr) return;
    std::shared_ptr<const char> storage = keep_storage && !batch_->storages.empty() ? batch_->storages.back() : nullptr;
    queue_->Push(std::move(batch_));
    if (storage != nullptr) HoldStorage(storage);
  }

 private:
  void Batch() {
    if (batch_ == nullptr) batch_ = queue_->Acquire();
  }

  BatchQueue* queue_;
  std::unique_ptr<ElementBatch> batch_;
};

class Tokenizer {
 public:
  Tokenizer(ByteSource& source, const TraceJsonReadOptions& options, ElementOutput& output,
            TraceJsonReadResult* result)
      : source_(source),
        options_(options),
        output_(output),
        result_(result),
        read_times_(!source.inflates()),
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
  simdjson::error_code RunStage1(const char* document, size_t length);
  simdjson::error_code WalkWindow(char* base, size_t window, WindowResult* out);
  Status Truncated(std::string what);
  Status CheckEndOfData();
  std::string Where() const { return "at byte " + std::to_string(buffer_.offset()); }

  ByteSource& source_;
  const TraceJsonReadOptions& options_;
  ElementOutput& output_;
  TraceJsonReadResult* result_;
  // Whether the tokenizer reads "ts" and "dur" (RawTraceEvent::ReadPlainTimes) or leaves
  // them to the parser: it does unless it also inflates the source, which makes it the
  // busier of the two threads (15 MB Kineto .gz on 2 cores: tokenizer 11.4 ms CPU, parser
  // 10.0 ms; the times are ~0.7 ms).
  const bool read_times_;
  JsonStreamBuffer buffer_;
  // Stage 1: the structural index of a window, with UTF-8 and string validation
  // (structural_index.h); the walk over it is structural_walk.h.
  StructuralIndex index_;
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
      output_.TopLevelField(key, value);
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
  simdjson::error_code error = simdjson::SUCCESS;
  bool sanitized = false;
  size_t attempt = 0;
  while (attempt < std::size(kWindowSuffixes)) {
    std::string_view suffix = kWindowSuffixes[attempt];
    std::memcpy(base + window, suffix.data(), suffix.size());
    error = RunStage1(base - 1, 1 + window + suffix.size());
    if (error == simdjson::UNCLOSED_STRING) {
      ++attempt;
    } else if (error == simdjson::UTF8_ERROR && !sanitized) {
      result_->invalid_utf8_bytes += SanitizeUtf8InPlace(base, window);
      sanitized = true;
    } else {
      break;
    }
  }
  if (!error) error = WalkWindow(base, window, out);
  std::memcpy(base + window, saved, kMaxSuffixBytes);
  out->error = error;
  return OkStatus();
}

simdjson::error_code Tokenizer::RunStage1(const char* document, size_t length) {
  // Sized for the largest document the buffer can frame now ('[', its data, a suffix),
  // not for this one: windows differ by a few bytes, and each reallocation of the index
  // (4 bytes per input byte) is fresh memory the kernel must zero again.
  index_.Reserve(std::max(length, buffer_.capacity() + 1 + kMaxSuffixBytes));
  return index_.Build(document, length);
}

simdjson::error_code Tokenizer::WalkWindow(char* base, size_t window, WindowResult* out) {
  output_.HoldStorage(buffer_.storage());
  StructuralWalk walk(base - 1, index_.indexes(), index_.count());
  // Structural 0 is the '[' put before the window.
  for (uint32_t i = 1;;) {
    if (i >= walk.count()) return simdjson::TAPE_ERROR;
    const size_t position = walk.position(i) - 1;  // in the window
    const char first = walk.at(i);
    if (first == ']') {
      if (position >= window) return simdjson::SUCCESS;  // our suffix: the window simply ended
      // "[..., {}, ]": a trailing comma. The ']' closes the array.
      ++result_->trailing_commas;
      out->resume = position + 1;
      out->array_closed = true;
      return simdjson::SUCCESS;
    }
    const uint64_t offset = buffer_.offset() + position;
    const bool is_object = first == '{';
    RawTraceEvent* event = nullptr;
    uint32_t next = 0;  // the structural after the element
    simdjson::error_code error;
    const char* element_end = nullptr;  // just past the element's last byte
    if (is_object) {
      event = output_.StartEvent();
      event->byte_offset = offset;
      error = walk.ReadEvent(i, event, &next);
      if (!error) {
        element_end = base - 1 + walk.position(next - 1) + 1;
        if (read_times_) event->ReadPlainTimes();
      }
    } else {
      JsonToken token;
      error = walk.ReadValue(i, &token, &next);
      if (!error) {
        element_end = token.kind == JsonKind::kString ? token.text().data() + token.text().size() + 1
                      : token.kind == JsonKind::kArray || token.kind == JsonKind::kObject
                          ? base - 1 + walk.position(next - 1) + 1
                          : token.text().data() + token.text().size();
      }
    }
    if (error) return error;
    // An element closed by our suffix (a string or bracket the cut left open) is cut.
    if (element_end > base + window) return simdjson::TAPE_ERROR;
    // The element is complete; what follows it decides how far the window is handled.
    const size_t follow = walk.position(next) - 1;
    const char separator = walk.at(next);
    if (next >= walk.count() || follow >= window) {
      out->resume = window;
      out->ended_at_element = true;
    } else if (separator == ',') {
      out->resume = follow + 1;
    } else if (separator == ']') {
      out->resume = follow + 1;
      out->array_closed = true;
    } else {
      return simdjson::TAPE_ERROR;  // two elements without a comma
    }
    ++out->elements;
    ++result_->elements;
    if (is_object) {
      output_.EndEvent();
    } else {
      output_.NonObject(offset);
    }
    if (out->array_closed || out->ended_at_element) return simdjson::SUCCESS;
    i = next + 1;
  }
}

}  // namespace

Status ReadTraceJson(ByteSource& source, const TraceJsonReadOptions& options, TraceJsonSink& sink,
                     TraceJsonReadResult* result) {
  *result = TraceJsonReadResult{};
  if (options.max_element_bytes >= (size_t{1} << 31) || options.window_bytes >= (size_t{1} << 31)) {
    return InvalidArgumentError("trace JSON reader: windows and elements must be under 2 GiB");
  }
  if (!options.tokenize_on_own_thread) {
    SinkOutput output(sink);
    Tokenizer tokenizer(source, options, output, result);
    return tokenizer.Run();
  }
  // The tokenizer reads ahead on its own thread; the sink gets the elements here, in
  // order, batch by batch. The two keep to different cores (base::CoreHalves): each
  // waits on the other at every batch, and taking turns on one core doubles the time.
  // The tokenizer keeps the core it starts on and moves the sink, which is waiting for
  // the first batch: moving the tokenizer instead made it wait up to 0.8 ms for the other
  // core, busy at that moment backing the heap's first pages (base/batch_heap.h).
  BatchQueue queue;
  Status status;
  const pthread_t sink_thread = pthread_self();
  base::CoreHalves halves;  // set by the tokenizer's thread
  std::thread tokenizer_thread([&] {
    halves = base::CoreHalves::OfCallingThread();
    halves.Enter(1);
    halves.Place(sink_thread, 0);
    BatchOutput output(&queue);
    Tokenizer tokenizer(source, options, output, result);
    status = tokenizer.Run();
    output.Flush();
    queue.Close();
  });
  while (std::unique_ptr<ElementBatch> batch = queue.Take()) {
    for (const ElementBatch::Item& item : batch->items) {
      switch (item.kind) {
        case ElementBatch::Kind::kEvent:
          sink.OnEvent(batch->events[item.value]);
          break;
        case ElementBatch::Kind::kNonObject:
          sink.OnNonObjectEvent(item.value);
          break;
        case ElementBatch::Kind::kTopLevelField: {
          const auto& [key, raw_json] = batch->top_level_fields[item.value];
          sink.OnTopLevelField(key, raw_json);
          break;
        }
      }
    }
    queue.Recycle(std::move(batch));
  }
  tokenizer_thread.join();
  halves.Leave();
  return status;
}

}  // namespace stepscope::importers
