#include "examples/mnist_mlp/idx_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mnist_mlp {
namespace {

using stepscope::Status;
using stepscope::StatusOr;

std::string ErrnoMessage(std::string_view what, std::string_view path) {
  return std::string(path) + ": " + std::string(what) + ": " + std::strerror(errno);
}

uint32_t ReadBigEndian32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// Writes all of `data`, retrying short writes and EINTR.
Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return stepscope::UnavailableError(ErrnoMessage("write failed", path));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return stepscope::OkStatus();
}

}  // namespace

uint64_t IdxHeader::record_bytes() const {
  uint64_t bytes = 1;
  for (size_t i = 1; i < dims.size(); ++i) bytes *= dims[i];
  return bytes;
}

std::string EncodeIdxHeader(const std::vector<uint32_t>& dims) {
  std::string header = {0, 0, static_cast<char>(kIdxTypeUnsignedByte), static_cast<char>(dims.size())};
  for (uint32_t dim : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) header.push_back(static_cast<char>((dim >> shift) & 0xff));
  }
  return header;
}

StatusOr<IdxHeader> ParseIdxHeader(std::string_view bytes, std::string_view what) {
  const std::string where(what);
  if (bytes.size() < 4) {
    return stepscope::DataLossError(where + ": " + std::to_string(bytes.size()) +
                                    " bytes, too short for an IDX header (4 bytes + 4 per dimension)");
  }
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (p[0] != 0 || p[1] != 0) {
    return stepscope::InvalidArgumentError(where + ": not an IDX file (the first two bytes must be zero)");
  }
  if (p[2] != kIdxTypeUnsignedByte) {
    char type[8];
    std::snprintf(type, sizeof(type), "0x%02x", p[2]);
    return stepscope::InvalidArgumentError(where + ": IDX type " + type +
                                           " is not supported (only 0x08, unsigned byte)");
  }
  const int num_dims = p[3];
  if (num_dims < 1 || num_dims > kIdxMaxDims) {
    return stepscope::InvalidArgumentError(where + ": IDX file with " + std::to_string(num_dims) +
                                           " dimensions (expected 1 to " + std::to_string(kIdxMaxDims) + ")");
  }
  IdxHeader header;
  header.header_bytes = 4 + 4 * static_cast<uint64_t>(num_dims);
  if (bytes.size() < header.header_bytes) {
    return stepscope::DataLossError(where + ": truncated IDX header (" + std::to_string(bytes.size()) +
                                    " of " + std::to_string(header.header_bytes) + " bytes)");
  }
  for (int i = 0; i < num_dims; ++i) {
    const uint32_t dim = ReadBigEndian32(p + 4 + 4 * i);
    if (dim == 0 && i > 0) {
      return stepscope::InvalidArgumentError(where + ": IDX dimension " + std::to_string(i) + " is zero");
    }
    header.dims.push_back(dim);
  }
  // Each dimension is < 2^32 and there are at most 3 record dimensions; cap the record
  // size so the products below cannot overflow and a hostile header cannot ask for
  // terabytes per record.
  constexpr uint64_t kMaxRecordBytes = uint64_t{1} << 30;
  uint64_t record_bytes = 1;
  for (size_t i = 1; i < header.dims.size(); ++i) {
    record_bytes *= header.dims[i];
    if (record_bytes > kMaxRecordBytes) {
      return stepscope::InvalidArgumentError(where + ": IDX records larger than 1 GiB");
    }
  }
  return header;
}

Status WriteIdxFile(const std::string& path, const std::vector<uint32_t>& dims, std::string_view data) {
  if (dims.empty() || dims.size() > static_cast<size_t>(kIdxMaxDims)) {
    return stepscope::InvalidArgumentError(path + ": IDX files need 1 to 4 dimensions");
  }
  IdxHeader header;
  header.dims = dims;
  if (data.size() != header.num_records() * header.record_bytes()) {
    return stepscope::InvalidArgumentError(path + ": " + std::to_string(data.size()) +
                                           " data bytes do not match the dimensions (" +
                                           std::to_string(header.num_records() * header.record_bytes()) + ")");
  }
  // Unique per process and call, so concurrent writers never share a temporary file.
  static std::atomic<uint64_t> counter{0};
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return stepscope::UnavailableError(ErrnoMessage("cannot create", tmp));
  Status status = WriteAll(fd, EncodeIdxHeader(dims), tmp);
  if (status.ok()) status = WriteAll(fd, data, tmp);
  if (::close(fd) != 0 && status.ok()) status = stepscope::UnavailableError(ErrnoMessage("close failed", tmp));
  if (status.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) {
    status = stepscope::UnavailableError(ErrnoMessage("rename failed", path));
  }
  if (!status.ok()) ::unlink(tmp.c_str());
  return status;
}

StatusOr<std::unique_ptr<IdxFile>> IdxFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return errno == ENOENT ? stepscope::NotFoundError(ErrnoMessage("cannot open", path))
                           : stepscope::UnavailableError(ErrnoMessage("cannot open", path));
  }
  auto fail = [fd](Status status) {
    ::close(fd);
    return status;
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(stepscope::UnavailableError(ErrnoMessage("fstat failed", path)));
  if (!S_ISREG(st.st_mode)) return fail(stepscope::InvalidArgumentError(path + ": not a regular file"));
  char prefix[4 + 4 * kIdxMaxDims];
  const ssize_t n = ::pread(fd, prefix, sizeof(prefix), 0);
  if (n < 0) return fail(stepscope::UnavailableError(ErrnoMessage("read failed", path)));
  StatusOr<IdxHeader> header = ParseIdxHeader(std::string_view(prefix, static_cast<size_t>(n)), path);
  if (!header.ok()) return fail(header.status());
  const uint64_t file_bytes = static_cast<uint64_t>(st.st_size);
  if (file_bytes != header->file_bytes()) {
    return fail(stepscope::DataLossError(path + ": " + std::to_string(file_bytes) + " bytes, but the IDX header " +
                                         "describes " + std::to_string(header->file_bytes()) +
                                         " (truncated or not written completely)"));
  }
  return std::unique_ptr<IdxFile>(new IdxFile(path, fd, std::move(header).value()));
}

IdxFile::~IdxFile() { ::close(fd_); }

Status IdxFile::ReadRecords(uint64_t first, uint64_t count, uint8_t* out) const {
  if (first > header_.num_records() || count > header_.num_records() - first) {
    return stepscope::InvalidArgumentError(path_ + ": records [" + std::to_string(first) + ", " +
                                           std::to_string(first + count) + ") out of range (" +
                                           std::to_string(header_.num_records()) + " records)");
  }
  uint64_t remaining = count * header_.record_bytes();
  uint64_t offset = header_.header_bytes + first * header_.record_bytes();
  while (remaining > 0) {
    const ssize_t n = ::pread(fd_, out, remaining, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return stepscope::UnavailableError(ErrnoMessage("read failed", path_));
    }
    if (n == 0) return stepscope::DataLossError(path_ + ": unexpected end of file at byte " + std::to_string(offset));
    out += n;
    offset += static_cast<uint64_t>(n);
    remaining -= static_cast<uint64_t>(n);
  }
  return stepscope::OkStatus();
}

}  // namespace mnist_mlp
