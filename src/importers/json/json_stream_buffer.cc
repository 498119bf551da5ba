#include "src/importers/json/json_stream_buffer.h"

#include <algorithm>
#include <cstring>

#include "src/importers/json/json_text.h"

namespace stepscope::importers {
namespace {

bool IsJsonWhitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

std::shared_ptr<char> JsonStreamBuffer::StoragePool::Get() {
  std::unique_ptr<char[]> bytes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      bytes = std::move(free_.back());
      free_.pop_back();
    }
  }
  if (bytes == nullptr) bytes = std::make_unique<char[]>(bytes_);  // zeroed
  return std::shared_ptr<char>(bytes.release(), [pool = shared_from_this()](char* released) {
    std::lock_guard<std::mutex> lock(pool->mutex_);
    pool->free_.emplace_back(released);
  });
}

std::shared_ptr<char> JsonStreamBuffer::NewStorage(size_t capacity) {
  const size_t bytes = 1 + capacity + kTailBytes;
  if (pool_ == nullptr || pool_->bytes() != bytes) pool_ = std::make_shared<StoragePool>(bytes);
  return pool_->Get();
}

JsonStreamBuffer::JsonStreamBuffer(ByteSource* source, size_t initial_capacity, size_t max_capacity)
    : source_(source),
      capacity_(std::max<size_t>(initial_capacity, 16)),
      max_capacity_(std::max(max_capacity, std::max<size_t>(initial_capacity, 16))) {
  storage_ = NewStorage(capacity_);
}

Status JsonStreamBuffer::ReadMore(size_t limit) {
  size_t room = 1 + limit - end_;
  if (room == 0 || eof_) return OkStatus();
  StatusOr<size_t> n = source_->Read(storage_.get() + end_, room);
  if (!n.ok()) {
    eof_ = true;
    source_error_ = n.status();
    if (n.status().code() == StatusCode::kDataLoss) return OkStatus();
    return n.status();
  }
  if (*n == 0) eof_ = true;
  end_ += *n;
  return OkStatus();
}

Status JsonStreamBuffer::Fill() {
  if (begin_ > 1) {
    size_t n = size();
    if (storage_.use_count() > 1) {
      // Someone holds views into this storage: continue in another one.
      std::shared_ptr<char> next = NewStorage(capacity_);
      std::memcpy(next.get() + 1, storage_.get() + begin_, n);
      storage_ = std::move(next);
    } else {
      std::memmove(storage_.get() + 1, storage_.get() + begin_, n);
    }
    begin_ = 1;
    end_ = 1 + n;
  }
  const size_t limit = std::min(capacity_, first_fill_done_ ? capacity_ : kFirstFillBytes);
  first_fill_done_ = true;
  while (!eof_ && end_ < 1 + limit) {
    Status status = ReadMore(limit);
    if (!status.ok()) return status;
  }
  return OkStatus();
}

Status JsonStreamBuffer::Grow() {
  if (capacity_ >= max_capacity_) {
    return ResourceExhaustedError("a JSON value at byte " + std::to_string(offset()) + " is larger than " +
                                  std::to_string(max_capacity_) + " bytes");
  }
  size_t new_capacity = std::min(max_capacity_, capacity_ * 2);
  std::shared_ptr<char> storage = NewStorage(new_capacity);
  size_t n = size();
  std::memcpy(storage.get() + 1, storage_.get() + begin_, n);
  std::memset(storage.get() + 1 + n, 0, new_capacity - n + kTailBytes);
  storage_ = std::move(storage);
  capacity_ = new_capacity;
  begin_ = 1;
  end_ = 1 + n;
  return Fill();
}

Status JsonStreamBuffer::EnsureAvailable(size_t n) {
  while (size() < n && !eof_) {
    if (size() == capacity_ || (begin_ == 1 && end_ == 1 + capacity_)) {
      Status status = Grow();
      if (!status.ok()) return status;
    } else {
      Status status = Fill();
      if (!status.ok()) return status;
    }
  }
  return OkStatus();
}

StatusOr<int> JsonStreamBuffer::SkipWhitespaceAndPeek() {
  while (true) {
    if (empty()) {
      if (eof_) return -1;
      Status status = Fill();
      if (!status.ok()) return status;
      continue;
    }
    char* p = data();
    size_t n = size();
    size_t i = 0;
    if (consumed_ == 0 && n >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) i = 3;
    while (i < n && IsJsonWhitespace(p[i])) ++i;
    Consume(i);
    if (i < n) return static_cast<unsigned char>(p[i]);
  }
}

Status JsonStreamBuffer::ReadString(std::string* out, size_t max_bytes) {
  // The opening quote is at data()[0].
  while (true) {
    bool has_escape = false;
    std::string_view rest(data() + 1, size() - 1);
    size_t end = FindJsonStringEnd(rest, &has_escape);
    if (end != std::string_view::npos) {
      std::string scratch;
      std::string_view content = UnescapeJsonStringLenient(rest.substr(0, end), &scratch);
      out->assign(content.substr(0, std::min(content.size(), max_bytes)));
      Consume(end + 2);
      return OkStatus();
    }
    if (eof_) return DataLossError("the JSON text ends inside a string at byte " + std::to_string(offset()));
    Status status = size() >= capacity_ ? Grow() : Fill();
    if (!status.ok()) return status;
  }
}

Status JsonStreamBuffer::SkipValue(std::string* out, size_t max_keep_bytes, bool* kept) {
  *kept = false;
  bool keep = out != nullptr;
  if (keep) out->clear();
  StatusOr<int> first = SkipWhitespaceAndPeek();
  if (!first.ok()) return first.status();
  if (*first < 0) return DataLossError("the JSON text ends where a value was expected");
  uint64_t start_offset = offset();
  int depth = 0;
  bool in_string = false;
  bool escape = false;
  bool scalar = *first != '"' && *first != '{' && *first != '[';
  while (true) {
    char* p = data();
    size_t n = size();
    size_t i = 0;
    bool done = false;
    for (; i < n; ++i) {
      char c = p[i];
      if (scalar) {
        if (c == ',' || c == '}' || c == ']' || IsJsonWhitespace(c)) {
          done = true;
          break;
        }
        continue;
      }
      if (in_string) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          in_string = false;
          if (depth == 0) {
            ++i;
            done = true;
            break;
          }
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth <= 0) {
          ++i;
          done = true;
          break;
        }
      }
    }
    if (keep) {
      if (out->size() + i <= max_keep_bytes) {
        out->append(p, i);
      } else {
        keep = false;
        out->clear();
      }
    }
    Consume(i);
    if (done) break;
    if (eof_) {
      if (scalar) break;  // a scalar that ends the data
      return DataLossError("the JSON text ends inside a value that starts at byte " + std::to_string(start_offset));
    }
    Status status = Fill();
    if (!status.ok()) return status;
  }
  *kept = keep;
  return OkStatus();
}

}  // namespace stepscope::importers
