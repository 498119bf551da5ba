#include "src/load/plane_scan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace stepscope::load {
namespace {

// XSpace field 1 (planes) and XPlane field 2 (name), both length-delimited.
constexpr uint64_t kPlanesField = 1;
constexpr uint64_t kPlaneNameField = 2;
constexpr int kLengthDelimited = 2;
// A plane's id (a varint) and name come first: this much of it holds its name.
constexpr size_t kPlaneHeadBytes = 512;

// Decodes a varint at the front of `*bytes`, consuming it; false when it is cut or too long.
bool ReadVarint(std::string_view* bytes, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && !bytes->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(bytes->front());
    bytes->remove_prefix(1);
    *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// Skips one field of wire type `wire` at the front of `*bytes`; false when it cannot.
bool SkipField(std::string_view* bytes, int wire) {
  uint64_t value = 0;
  switch (wire) {
    case 0: return ReadVarint(bytes, &value);
    case 1: if (bytes->size() < 8) return false; bytes->remove_prefix(8); return true;
    case 5: if (bytes->size() < 4) return false; bytes->remove_prefix(4); return true;
    case 2:
      if (!ReadVarint(bytes, &value) || value > bytes->size()) return false;
      bytes->remove_prefix(value);
      return true;
    default: return false;
  }
}

// The plane's name from the first bytes of its message (writers put id and name first).
std::string_view PlaneNameFromHead(std::string_view head) {
  while (!head.empty()) {
    uint64_t tag = 0;
    if (!ReadVarint(&head, &tag)) return {};
    const uint64_t field = tag >> 3;
    const int wire = static_cast<int>(tag & 7);
    if (field == kPlaneNameField && wire == kLengthDelimited) {
      uint64_t length = 0;
      if (!ReadVarint(&head, &length) || length > head.size()) return {};
      return head.substr(0, length);
    }
    if (field > kPlaneNameField || !SkipField(&head, wire)) return {};
  }
  return {};
}

}  // namespace

std::optional<std::string> FindPlaneAsXSpace(const ReadAt& read, uint64_t total_bytes, std::string_view name,
                                             uint64_t max_plane_bytes) {
  uint64_t offset = 0;
  while (offset < total_bytes) {
    const std::string header = read(offset, 20);
    std::string_view rest = header;
    uint64_t tag = 0, length = 0;
    if (!ReadVarint(&rest, &tag) || (tag & 7) != kLengthDelimited || !ReadVarint(&rest, &length)) return std::nullopt;
    const size_t header_bytes = header.size() - rest.size();
    const uint64_t body = offset + header_bytes;
    if (length > total_bytes - body) return std::nullopt;  // cut, or not an XSpace
    if ((tag >> 3) == kPlanesField && length <= max_plane_bytes &&
        PlaneNameFromHead(read(body, static_cast<size_t>(std::min<uint64_t>(length, kPlaneHeadBytes)))) == name) {
      std::string plane = read(body, static_cast<size_t>(length));
      if (plane.size() != length) return std::nullopt;
      return header.substr(0, header_bytes) + plane;
    }
    offset = body + length;
  }
  return std::nullopt;
}

std::optional<std::string> FindPlaneInFile(const std::string& path, std::string_view name, uint64_t max_plane_bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::optional<std::string> plane;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const ReadAt read = [fd](uint64_t offset, size_t size) {
      std::string bytes(size, '\0');
      const ssize_t got = pread(fd, bytes.data(), size, static_cast<off_t>(offset));
      bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
      return bytes;
    };
    plane = FindPlaneAsXSpace(read, static_cast<uint64_t>(st.st_size), name, max_plane_bytes);
  }
  close(fd);
  return plane;
}

std::optional<std::string> FindPlaneInBytes(std::string_view bytes, std::string_view name, uint64_t max_plane_bytes) {
  const ReadAt read = [bytes](uint64_t offset, size_t size) {
    return offset >= bytes.size() ? std::string() : std::string(bytes.substr(static_cast<size_t>(offset), size));
  };
  return FindPlaneAsXSpace(read, bytes.size(), name, max_plane_bytes);
}

}  // namespace stepscope::load
