// Where importers read bytes from: a file, memory, or a gzip stream inflated on the fly.
//
// Importers pull bytes in chunks, so a multi-gigabyte trace (or its .gz) is never held in
// memory whole. Inflation is bounded: a small hostile .gz cannot expand past the limit.
//
// Threading: a source is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "stepscope/status.h"

namespace stepscope::importers {

class ByteSource {
 public:
  virtual ~ByteSource() = default;

  // Copies up to `max_bytes` into `dst`. Returns the number copied; 0 means the end of the
  // data. Errors: kDataLoss for truncated or corrupt compressed data, kResourceExhausted
  // when inflation passes the limit, kInvalidArgument/kNotFound for I/O problems.
  virtual StatusOr<size_t> Read(char* dst, size_t max_bytes) = 0;

  // Bytes handed out so far (after inflation).
  virtual uint64_t bytes_read() const = 0;
  // Bytes of the underlying file or buffer consumed so far (before inflation).
  virtual uint64_t raw_bytes_read() const = 0;
  // True when reading costs real work (inflating compressed bytes), so that reading ahead
  // on another thread pays off.
  virtual bool inflates() const { return false; }
};

// Reads from memory; `bytes` must outlive the source.
std::unique_ptr<ByteSource> MakeMemoryByteSource(std::string_view bytes);

// Reads a file as is. kNotFound / kInvalidArgument when it cannot be opened.
StatusOr<std::unique_ptr<ByteSource>> OpenFileByteSource(const std::string& path);

// Inflates gzip (or zlib) data read from `compressed`, including concatenated members.
// Fails with kResourceExhausted once more than `max_inflated_bytes` come out or the data
// expands like a gzip bomb, kDataLoss when it is truncated, corrupt or followed by
// garbage (base::GzipInflater's rules).
std::unique_ptr<ByteSource> MakeGunzipByteSource(std::unique_ptr<ByteSource> compressed,
                                                 uint64_t max_inflated_bytes);

// Opens `path`, inflating it when it starts with the gzip magic bytes (whatever its name).
StatusOr<std::unique_ptr<ByteSource>> OpenTraceByteSource(const std::string& path,
                                                          uint64_t max_inflated_bytes);
// The same over bytes in memory (which must outlive the source).
std::unique_ptr<ByteSource> MakeTraceByteSource(std::string_view bytes, uint64_t max_inflated_bytes);

// `prefix`, then the rest of `rest`: puts bytes already read from `rest` (a sniffed head)
// back in front, so a stream is read once.
std::unique_ptr<ByteSource> MakePrefixedByteSource(std::string prefix, std::unique_ptr<ByteSource> rest);

// Reads `source` ahead on a thread of its own, a few chunks at most, so that inflating a
// .gz overlaps with whatever the reader does with the bytes. Errors reach the reader after
// the bytes that came before them, as they would without the thread. `source` is used by
// that thread only from here on.
std::unique_ptr<ByteSource> MakeReadAheadByteSource(std::unique_ptr<ByteSource> source);

// Reads up to `max_bytes` from the start of `source` (for sniffing).
StatusOr<std::string> ReadHead(ByteSource& source, size_t max_bytes);

}  // namespace stepscope::importers
