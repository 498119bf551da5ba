// The IDX file format of the MNIST distribution, and record-wise reads from it.
//
// Layout: two zero bytes, a type byte (0x08 = unsigned byte, the only type MNIST uses and
// the only one supported here), the number of dimensions, then one big-endian uint32 per
// dimension, then the data in row-major order. Dimension 0 counts records: an
// "idx3-ubyte" image file is N x 28 x 28, an "idx1-ubyte" label file is N.
//
// IdxFile reads records with pread(2) straight from the file, so the input pipeline does
// real file I/O per batch (what tf.data's FixedLengthRecordDataset does).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "stepscope/status.h"

namespace mnist_mlp {

inline constexpr uint8_t kIdxTypeUnsignedByte = 0x08;
// MNIST needs 1 (labels) and 3 (images); more would only be a sign of a foreign file.
inline constexpr int kIdxMaxDims = 4;

struct IdxHeader {
  std::vector<uint32_t> dims;  // dims[0] = number of records
  uint64_t header_bytes = 0;   // offset of the first record

  uint64_t num_records() const { return dims.empty() ? 0 : dims[0]; }
  // Bytes per record: the product of dims[1..] (1 for a label file).
  uint64_t record_bytes() const;
  uint64_t file_bytes() const { return header_bytes + num_records() * record_bytes(); }
};

// The header bytes for an unsigned-byte IDX file with these dimensions.
std::string EncodeIdxHeader(const std::vector<uint32_t>& dims);

// Parses the header at the start of `bytes` (which may hold more than the header).
// `what` names the source in error messages.
stepscope::StatusOr<IdxHeader> ParseIdxHeader(std::string_view bytes, std::string_view what);

// Writes header + data to `path` through a temporary file and rename(2), so concurrent
// readers and writers (tests generating the same dataset) never see a partial file.
// `data` must hold exactly dims[0] * record_bytes bytes.
stepscope::Status WriteIdxFile(const std::string& path, const std::vector<uint32_t>& dims,
                               std::string_view data);

// A read-only IDX file. Thread-safe: reads use pread and never move a shared offset.
class IdxFile {
 public:
  // Opens and validates the header against the file size (a truncated or padded file is
  // rejected with kDataLoss).
  static stepscope::StatusOr<std::unique_ptr<IdxFile>> Open(const std::string& path);
  ~IdxFile();
  IdxFile(const IdxFile&) = delete;
  IdxFile& operator=(const IdxFile&) = delete;

  const IdxHeader& header() const { return header_; }
  const std::string& path() const { return path_; }

  // Reads records [first, first + count) into `out` (count * record_bytes bytes).
  stepscope::Status ReadRecords(uint64_t first, uint64_t count, uint8_t* out) const;

 private:
  IdxFile(std::string path, int fd, IdxHeader header)
      : path_(std::move(path)), fd_(fd), header_(std::move(header)) {}

  std::string path_;
  int fd_;
  IdxHeader header_;
};

}  // namespace mnist_mlp
