// A refillable window over a ByteSource, shaped for simdjson: one writable byte before
// the data (the tokenizer puts a '[' there to make a window of array elements a document
// of its own) and padding after it (simdjson reads up to SIMDJSON_PADDING bytes past the
// end). Also the small scalar scanners the tokenizer needs outside the event array:
// whitespace, string tokens and the extent of a whole value.
//
// Memory: the buffer holds at most `max_capacity` bytes plus padding, whatever the size of
// the input, so a 10 GB trace is read through a window of a few megabytes.
//
// Views into the data stay valid until the next Fill() or Grow(), which move the
// unconsumed bytes. A reader that hands views to another thread holds storage() as long
// as it uses them: the buffer then moves on to another storage (recycled through a pool
// once the last holder lets go) instead of overwriting the held one.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "src/importers/byte_source.h"
#include "stepscope/status.h"

namespace stepscope::importers {

class JsonStreamBuffer {
 public:
  // Bytes reserved after the data: simdjson's padding plus room for a 3-byte suffix.
  static constexpr size_t kTailBytes = 64 + 16;

  JsonStreamBuffer(ByteSource* source, size_t initial_capacity, size_t max_capacity);

  // The storage data() points into, for holders of views (see above).
  std::shared_ptr<const char> storage() const { return storage_; }

  // The unconsumed data. data()[-1] is writable (the prefix slot) and data()[size()...]
  // has kTailBytes of writable padding.
  char* data() { return storage_.get() + begin_; }
  size_t size() const { return end_ - begin_; }
  bool empty() const { return begin_ == end_; }
  size_t capacity() const { return capacity_; }
  // True once the source has no more bytes: everything left is in the buffer.
  bool at_eof() const { return eof_; }
  // Offset in the stream of data()[0].
  uint64_t offset() const { return consumed_; }
  // The error that ended reading early (a truncated .gz), or ok.
  const Status& source_error() const { return source_error_; }

  void Consume(size_t n) {
    begin_ += n;
    consumed_ += n;
  }

  // The first Fill reads at most this much: the tokenizer's first window is then ready
  // (inflated, indexed, walked) a few hundred microseconds sooner, while the parser waits
  // for it; later windows are whole.
  static constexpr size_t kFirstFillBytes = 64 << 10;

  // Moves the data to the front and reads until the buffer is full (the first time:
  // kFirstFillBytes) or the source ends.
  // A source error ends the data (at_eof) and is kept in source_error(); it is returned
  // only if it is not DataLoss (which the caller reports as truncation).
  Status Fill();
  // Doubles the capacity (up to max_capacity), then fills. kResourceExhausted at the max.
  Status Grow();
  // Fills until at least `n` bytes are available or the source ends.
  Status EnsureAvailable(size_t n);

  // Skips JSON whitespace (and a UTF-8 byte order mark at offset 0), refilling as needed.
  // Returns the next byte, or -1 at the end of the data.
  StatusOr<int> SkipWhitespaceAndPeek();

  // Reads a string token starting at the opening quote and consumes it. The unescaped
  // content goes to `*out`. kDataLoss if the data ends inside it.
  Status ReadString(std::string* out, size_t max_bytes);

  // Consumes one JSON value of any kind (scalar, string, array, object) by scanning for
  // its end, with strings and nesting respected but nothing validated. When `out` is not
  // null and the value is at most `max_keep_bytes`, its text is stored there and `*kept`
  // is set. kDataLoss if the data ends inside the value.
  Status SkipValue(std::string* out, size_t max_keep_bytes, bool* kept);

 private:
  // Reads once into the room up to `limit` bytes of data.
  Status ReadMore(size_t limit);

    // Storages of one capacity, handed out again once their last holder lets go.
  class StoragePool : public std::enable_shared_from_this<StoragePool> {
   public:
    explicit StoragePool(size_t bytes) : bytes_(bytes) {}
    std::shared_ptr<char> Get();
    size_t bytes() const { return bytes_; }

   private:
    size_t bytes_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<char[]>> free_;
  };

  // A storage for `capacity` bytes of data (from the pool when it has that size).
  std::shared_ptr<char> NewStorage(size_t capacity);

  ByteSource* source_;
  std::shared_ptr<StoragePool> pool_;
  std::shared_ptr<char> storage_;
  size_t capacity_;
  size_t max_capacity_;
  size_t begin_ = 1;  // storage_[0] is the prefix slot
  size_t end_ = 1;
  uint64_t consumed_ = 0;
  bool eof_ = false;
  bool first_fill_done_ = false;
  Status source_error_;
};

}  // namespace stepscope::importers
