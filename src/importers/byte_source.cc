#include "src/importers/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
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
  GunzipByteSource(std::unique_ptr<ByteSource> compressed, uint64_t max_inflated_bytes)
      : compressed_(std::move(compressed)), max_inflated_bytes_(max_inflated_bytes),
        input_(kCompressedChunkBytes) {
    // 15 + 32: accept gzip and zlib headers.
    init_ok_ = inflateInit2(&stream_, 15 + 32) == Z_OK;
  }
  ~GunzipByteSource() override {
    if (init_ok_) inflateEnd(&stream_);
  }

  StatusOr<size_t> Read(char* dst, size_t max_bytes) override {
    if (!init_ok_) return InternalError("zlib inflateInit2 failed");
    if (!error_.ok()) return error_;
    size_t produced = 0;
    while (produced < max_bytes && !finished_) {
      if (stream_.avail_in == 0 && !input_eof_) {
        StatusOr<size_t> n = compressed_->Read(input_.data(), input_.size());
        if (!n.ok()) return error_ = n.status();
        if (*n == 0) {
          input_eof_ = true;
        } else {
          stream_.next_in = reinterpret_cast<Bytef*>(input_.data());
          stream_.avail_in = static_cast<uInt>(*n);
        }
      }
      size_t room = std::min<size_t>(max_bytes - produced, 1u << 30);
      stream_.next_out = reinterpret_cast<Bytef*>(dst + produced);
      stream_.avail_out = static_cast<uInt>(room);
      int rc = inflate(&stream_, Z_NO_FLUSH);
      size_t got = room - stream_.avail_out;
      produced += got;
      inflated_ += got;
      if (inflated_ > max_inflated_bytes_) {
        return error_ = ResourceExhaustedError("gzip data expands past the limit of " +
                                               std::to_string(max_inflated_bytes_) + " bytes");
      }
      if (rc == Z_STREAM_END) {
        // Concatenated members are legal gzip; trailing zero padding is tolerated.
        if (stream_.avail_in == 0 && !RefillAfterMember()) {
          finished_ = true;
          break;
        }
        if (!error_.ok()) return error_;
        if (inflateReset(&stream_) != Z_OK) return error_ = DataLossError("gzip data is corrupt");
        continue;
      }
      if (rc == Z_BUF_ERROR || rc == Z_OK) {
        if (got == 0 && stream_.avail_in == 0 && input_eof_) {
          if (produced > 0) break;  // report the bytes first, the error on the next call
          return error_ = DataLossError("gzip data is truncated (the compressed stream ends early)");
        }
        continue;
      }
      return error_ = DataLossError("gzip data is corrupt (zlib error " + std::to_string(rc) + ")");
    }
    return produced;
  }
  uint64_t bytes_read() const override { return inflated_; }
  uint64_t raw_bytes_read() const override { return compressed_->raw_bytes_read(); }

 private:
  // After a member ends with no buffered input: reads more. Returns false at the end of
  // the data (or when only zero padding follows).
  bool RefillAfterMember() {
    while (true) {
      StatusOr<size_t> n = compressed_->Read(input_.data(), input_.size());
      if (!n.ok()) {
        error_ = n.status();
        return true;
      }
      if (*n == 0) {
        input_eof_ = true;
        return false;
      }
      size_t first = 0;
      while (first < *n && input_[first] == 0) ++first;
      if (first == *n) continue;
      stream_.next_in = reinterpret_cast<Bytef*>(input_.data() + first);
      stream_.avail_in = static_cast<uInt>(*n - first);
      return true;
    }
  }

  std::unique_ptr<ByteSource> compressed_;
  uint64_t max_inflated_bytes_;
  std::vector<char> input_;
  z_stream stream_{};
  bool init_ok_ = false;
  bool input_eof_ = false;
  bool finished_ = false;
  uint64_t inflated_ = 0;
  Status error_;
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
  uint64_t bytes_read() const override { return std::min<uint64_t>(position_, prefix_.size()) + rest_->bytes_read(); }
  uint64_t raw_bytes_read() const override { return rest_->raw_bytes_read(); }

 private:
  std::string prefix_;
  size_t position_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

}  // namespace

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
  return std::make_unique<GunzipByteSource>(std::move(compressed), max_inflated_bytes);
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
  auto prefixed = std::make_unique<PrefixedByteSource>(head, std::move(raw));
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
