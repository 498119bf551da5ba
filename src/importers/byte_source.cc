#include "src/importers/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "src/base/gzip.h"

namespace stepscope::importers {
namespace {

// Compressed bytes read per zlib refill: big enough that syscalls do not matter, small
// enough to stay in cache.
constexpr size_t kCompressedChunkBytes = 256 << 10;

class MemoryByteSource : public ByteSource {
 public:
  explicit MemoryByteSource(std::string_view bytes) : bytes_(bytes) {}

  StatusOr<size_t> Read(char* dst, size_t max_bytes) override {
    size_t n = std::min(max_bytes, bytes_.size() - position_);
    std::memcpy(dst, bytes_.data() + position_, n);
    position_ += n;
    return n;
  }
  uint64_t bytes_read() const override { return position_; }
  uint64_t raw_bytes_read() const override { return position_; }

 private:
  std::string_view bytes_;
  size_t position_ = 0;
};

class FileByteSource : public ByteSource {
 public:
  FileByteSource(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~FileByteSource() override { ::close(fd_); }

  StatusOr<size_t> Read(char* dst, size_t max_bytes) override {
    while (true) {
      ssize_t n = ::read(fd_, dst, max_bytes);
      if (n >= 0) {
        position_ += static_cast<uint64_t>(n);
        return static_cast<size_t>(n);
      }
      if (errno == EINTR) continue;
      return InvalidArgumentError(path_ + ": read failed: " + std::strerror(errno));
    }
  }
  uint64_t bytes_read() const override { return position_; }
  uint64_t raw_bytes_read() const override { return position_; }

 private:
  int fd_;
  std::string path_;
  uint64_t position_ = 0;
};

class GunzipByteSource : public ByteSource {
 public:
  GunzipByteSource(std::unique_ptr<ByteSource> compressed, const base::InflateLimits& limits)
      : compressed_(std::move(compressed)), inflater_(limits), input_(kCompressedChunkBytes) {}

  StatusOr<size_t> Read(char* dst, size_t max_bytes) override {
    size_t produced = 0;
    while (produced < max_bytes && !inflater_.finished()) {
      std::string_view pending(input_.data() + pending_begin_, pending_end_ - pending_begin_);
      StatusOr<size_t> got = inflater_.Inflate(&pending, input_eof_, dst + produced, max_bytes - produced);
      if (!got.ok()) {
        if (produced > 0) break;  // hand out the bytes first, the error on the next call
        return got.status();
      }
      produced += *got;
      pending_begin_ = static_cast<size_t>(pending.data() - input_.data());
      if (produced == max_bytes || inflater_.finished()) break;
      if (*got == 0 || pending_begin_ == pending_end_) {
        Status refilled = Refill();
        if (!refilled.ok()) return refilled;
      }
    }
    return produced;
  }
  uint64_t bytes_read() const override { return inflater_.total_out(); }
  uint64_t raw_bytes_read() const override { return compressed_->raw_bytes_read(); }
  bool inflates() const override { return true; }

 private:
  // Moves what the inflater left (at most a byte) to the front and reads more behind it.
  Status Refill() {
    if (input_eof_) return OkStatus();
    size_t left = pending_end_ - pending_begin_;
    std::memmove(input_.data(), input_.data() + pending_begin_, left);
    pending_begin_ = 0;
    pending_end_ = left;
    StatusOr<size_t> n = compressed_->Read(input_.data() + left, input_.size() - left);
    if (!n.ok()) return n.status();
    if (*n == 0) input_eof_ = true;
    pending_end_ += *n;
    return OkStatus();
  }

  std::unique_ptr<ByteSource> compressed_;
  base::GzipInflater inflater_;
  std::vector<char> input_;
  size_t pending_begin_ = 0;  // unconsumed compressed bytes: input_[pending_begin_, pending_end_)
  size_t pending_end_ = 0;
  bool input_eof_ = false;
};

// Puts already-read head bytes back in front of a source.
class PrefixedByteSource : public ByteSource {
 public:
  PrefixedByteSource(std::string prefix, std::unique_ptr<ByteSource> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}

  StatusOr<size_t> Read(char* dst, size_t max_bytes) override {
    if (position_ < prefix_.size()) {
      size_t n = std::min(max_bytes, prefix_.size() - position_);
      std::memcpy(dst, prefix_.data() + position_, n);
      position_ += n;
      return n;
    }
    return rest_->Read(dst, max_bytes);
  }
  // The prefix was read from `rest` before: its bytes are counted there already, less
  // those not handed out again yet.
  uint64_t bytes_read() const override { return rest_->bytes_read() - (prefix_.size() - position_); }
  uint64_t raw_bytes_read() const override { return rest_->raw_bytes_read(); }
  bool inflates() const override { return rest_->inflates(); }

 private:
  std::string prefix_;
  size_t position_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

class ReadAheadByteSource : public ByteSource {
 public:
  explicit ReadAheadByteSource(std::unique_ptr<ByteSource> source) : source_(std::move(source)) {
    reader_ = std::thread([this] { ReadAhead(); });
  }
  ~ReadAheadByteSource() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    reader_.join();
  }

  StatusOr<size_t> Read(char* dst, size_t max_bytes) override {
    size_t copied = 0;
    while (copied < max_bytes) {
      if (current_ == nullptr || current_position_ == current_->bytes.size()) {
        if (current_ != nullptr && !current_->status.ok()) {
          if (copied > 0) break;  // the bytes first, the error on the next call
          return current_->status;
        }
        if (current_ != nullptr && current_->end) break;
        if (copied > 0 && !ChunkReady()) break;  // hand out what is there rather than wait
        NextChunk();
        continue;
      }
      size_t n = std::min(max_bytes - copied, current_->bytes.size() - current_position_);
      std::memcpy(dst + copied, current_->bytes.data() + current_position_, n);
      current_position_ += n;
      copied += n;
    }
    bytes_read_ += copied;
    return copied;
  }
  uint64_t bytes_read() const override { return bytes_read_; }
  uint64_t raw_bytes_read() const override { return current_ != nullptr ? current_->raw_bytes_read : 0; }
  bool inflates() const override { return false; }  // already read ahead

 private:
  static constexpr size_t kChunkBytes = 1 << 20;
  // The first chunks are small and then double: the importer's first read is the 64 KiB
  // head it sniffs, which must not wait for a whole 1 MiB to be inflated (a millisecond
  // at the start of every import).
  static constexpr size_t kFirstChunkBytes = 64 << 10;
  static constexpr size_t kMaxChunks = 4;

  struct Chunk {
    std::vector<char> bytes;
    Status status;            // ends the data when not ok
    bool end = false;         // the source has no more bytes
    uint64_t raw_bytes_read = 0;
  };

  bool ChunkReady() {
    std::lock_guard<std::mutex> lock(mutex_);
    return !ready_.empty();
  }

  // Replaces the current chunk (recycled) with the next one, waiting for it.
  void NextChunk() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (current_ != nullptr) spare_.push_back(std::move(current_));
    changed_.notify_all();
    changed_.wait(lock, [this] { return !ready_.empty(); });
    current_ = std::move(ready_.front());
    ready_.pop_front();
    current_position_ = 0;
  }

  void ReadAhead() {
    size_t chunk_bytes = kFirstChunkBytes;
    while (true) {
      std::unique_ptr<Chunk> chunk;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return stop_ || ready_.size() < kMaxChunks; });
        if (stop_) return;
        if (!spare_.empty()) {
          chunk = std::move(spare_.back());
          spare_.pop_back();
        }
      }
      if (chunk == nullptr) chunk = std::make_unique<Chunk>();
      chunk->bytes.resize(chunk_bytes);
      size_t filled = 0;
      while (filled < chunk_bytes) {
        StatusOr<size_t> n = source_->Read(chunk->bytes.data() + filled, chunk_bytes - filled);
        if (!n.ok()) {
          chunk->status = n.status();
          break;
        }
        if (*n == 0) {
          chunk->end = true;
          break;
        }
        filled += *n;
      }
      chunk->bytes.resize(filled);
      chunk_bytes = std::min(chunk_bytes * 2, kChunkBytes);
      chunk->raw_bytes_read = source_->raw_bytes_read();
      const bool last = chunk->end || !chunk->status.ok();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ready_.push_back(std::move(chunk));
      }
      changed_.notify_all();
      if (last) return;
    }
  }

  std::unique_ptr<ByteSource> source_;  // the reader thread's only
  std::thread reader_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Chunk>> ready_;
  std::vector<std::unique_ptr<Chunk>> spare_;
  bool stop_ = false;
  // The reading side's.
  std::unique_ptr<Chunk> current_;
  size_t current_position_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> MakeReadAheadByteSource(std::unique_ptr<ByteSource> source) {
  return std::make_unique<ReadAheadByteSource>(std::move(source));
}

std::unique_ptr<ByteSource> MakePrefixedByteSource(std::string prefix, std::unique_ptr<ByteSource> rest) {
  return std::make_unique<PrefixedByteSource>(std::move(prefix), std::move(rest));
}

std::unique_ptr<ByteSource> MakeMemoryByteSource(std::string_view bytes) {
  return std::make_unique<MemoryByteSource>(bytes);
}

StatusOr<std::unique_ptr<ByteSource>> OpenFileByteSource(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    if (error == ENOENT) return NotFoundError(path + ": no such file");
    return InvalidArgumentError(path + ": cannot open: " + std::strerror(error));
  }
  struct stat info{};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    return InvalidArgumentError(path + ": is a directory, not a trace file");
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return std::unique_ptr<ByteSource>(std::make_unique<FileByteSource>(fd, path));
}

std::unique_ptr<ByteSource> MakeGunzipByteSource(std::unique_ptr<ByteSource> compressed,
                                                 uint64_t max_inflated_bytes) {
  base::InflateLimits limits;
  limits.max_output_bytes = max_inflated_bytes;
  return std::make_unique<GunzipByteSource>(std::move(compressed), limits);
}

namespace {
// Wraps `raw` in an inflater when its first bytes are the gzip magic.
StatusOr<std::unique_ptr<ByteSource>> MaybeGunzip(std::unique_ptr<ByteSource> raw,
                                                  uint64_t max_inflated_bytes) {
  char magic[2];
  size_t have = 0;
  while (have < sizeof(magic)) {
    StatusOr<size_t> n = raw->Read(magic + have, sizeof(magic) - have);
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    have += *n;
  }
  std::string head(magic, have);
  auto prefixed = MakePrefixedByteSource(head, std::move(raw));
  if (base::IsGzip(head)) return MakeGunzipByteSource(std::move(prefixed), max_inflated_bytes);
  return std::unique_ptr<ByteSource>(std::move(prefixed));
}
}  // namespace

StatusOr<std::unique_ptr<ByteSource>> OpenTraceByteSource(const std::string& path,
                                                          uint64_t max_inflated_bytes) {
  StatusOr<std::unique_ptr<ByteSource>> raw = OpenFileByteSource(path);
  if (!raw.ok()) return raw.status();
  return MaybeGunzip(std::move(raw).value(), max_inflated_bytes);
}

std::unique_ptr<ByteSource> MakeTraceByteSource(std::string_view bytes, uint64_t max_inflated_bytes) {
  if (base::IsGzip(bytes)) return MakeGunzipByteSource(MakeMemoryByteSource(bytes), max_inflated_bytes);
  return MakeMemoryByteSource(bytes);
}

StatusOr<std::string> ReadHead(ByteSource& source, size_t max_bytes) {
  std::string head(max_bytes, '\0');
  size_t have = 0;
  while (have < max_bytes) {
    StatusOr<size_t> n = source.Read(head.data() + have, max_bytes - have);
    if (!n.ok()) {
      // A truncated .gz still has a readable head; sniffing only needs what came out.
      if (n.status().code() == StatusCode::kDataLoss && have > 0) break;
      return n.status();
    }
    if (*n == 0) break;
    have += *n;
  }
  head.resize(have);
  return head;
}

}  // namespace stepscope::importers
