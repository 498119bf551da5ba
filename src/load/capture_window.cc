#include "src/load/capture_window.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <ctime>
#include <string>

#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/schema.h"

namespace stepscope::load {
namespace {

// A Task Environment plane holds a handful of stats; a larger one is not what we look for.
constexpr uint64_t kMaxTaskPlaneBytes = 1 << 20;
// XSpace field 1 (planes) and XPlane field 2 (name), both length-delimited.
constexpr uint64_t kPlanesField = 1;
constexpr uint64_t kPlaneNameField = 2;
constexpr int kLengthDelimited = 2;

class FileReader {
 public:
  explicit FileReader(const std::string& path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~FileReader() {
    if (fd_ >= 0) close(fd_);
  }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  bool ok() const { return fd_ >= 0; }
  // Up to `size` bytes at `offset`; fewer at the end of the file.
  std::string Read(uint64_t offset, size_t size) const {
    std::string bytes(size, '\0');
    ssize_t got = pread(fd_, bytes.data(), size, static_cast<off_t>(offset));
    bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
    return bytes;
  }

 private:
  int fd_;
};

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

// Walks the XSpace's top-level fields without reading the planes; the Task Environment
// plane's start and stop, when it has both.
std::optional<CaptureWindow> TaskEnvironmentWindow(const HostProfileFile& file) {
  FileReader reader(file.path);
  if (!reader.ok()) return std::nullopt;
  const uint64_t size = static_cast<uint64_t>(std::max<int64_t>(0, file.size_bytes));
  uint64_t offset = 0;
  while (offset < size) {
    const std::string header = reader.Read(offset, 20);
    std::string_view rest = header;
    uint64_t tag = 0, length = 0;
    if (!ReadVarint(&rest, &tag) || (tag & 7) != kLengthDelimited || !ReadVarint(&rest, &length)) return std::nullopt;
    const uint64_t body = offset + (header.size() - rest.size());
    if (length > size - body) return std::nullopt;  // cut or not an XSpace
    if ((tag >> 3) == kPlanesField && length <= kMaxTaskPlaneBytes &&
        PlaneNameFromHead(reader.Read(body, std::min<uint64_t>(length, 256))) == xspace::kTaskEnvPlaneName) {
      // The plane alone, as an XSpace of one plane, through the reader every command uses.
      std::string space = header.substr(0, header.size() - rest.size()) + reader.Read(body, length);
      StatusOr<xspace::ColumnarXSpace> parsed = xspace::ParseColumnarXSpace(space, file.path);
      const xspace::ColumnarPlane* task = parsed.ok() ? parsed->FindPlane(xspace::kTaskEnvPlaneName) : nullptr;
      xspace::ColumnarStat start, stop;
      if (task == nullptr || !task->FindPlaneStat(xspace::StatType::kProfileStartTime, &start) ||
          !task->FindPlaneStat(xspace::StatType::kProfileStopTime, &stop)) {
        return std::nullopt;
      }
      CaptureWindow window{.start_ns = xspace::ColumnarPlane::AsInt64(start),
                           .stop_ns = xspace::ColumnarPlane::AsInt64(stop),
                           .source = WindowSource::kTaskEnvironment};
      if (window.start_ns <= 0 || window.stop_ns < window.start_ns) return std::nullopt;
      return window;
    }
    offset = body + length;
  }
  return std::nullopt;
}

bool ParseDigits(std::string_view text, int* value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<int64_t> RunNameStartNs(std::string_view name) {
  // YYYY_MM_DD_HH_MM_SS: 19 characters, '_' at 4, 7, 10, 13 and 16.
  if (name.size() < 19) return std::nullopt;
  int parts[6];
  const int starts[6] = {0, 5, 8, 11, 14, 17};
  const int widths[6] = {4, 2, 2, 2, 2, 2};
  for (int i = 0; i < 6; ++i) {
    if (i > 0 && name[starts[i] - 1] != '_') return std::nullopt;
    if (!ParseDigits(name.substr(starts[i], widths[i]), &parts[i])) return std::nullopt;
  }
  std::tm local{};
  local.tm_year = parts[0] - 1900;
  local.tm_mon = parts[1] - 1;
  local.tm_mday = parts[2];
  local.tm_hour = parts[3];
  local.tm_min = parts[4];
  local.tm_sec = parts[5];
  local.tm_isdst = -1;
  const time_t seconds = std::mktime(&local);
  if (seconds == static_cast<time_t>(-1)) return std::nullopt;
  return static_cast<int64_t>(seconds) * 1000000000;
}

CaptureWindow ReadCaptureWindow(const HostProfileFile& file, std::string_view run_dir_name) {
  if (file.format == ProfileFormat::kXSpace && !file.path.ends_with(".gz")) {
    if (std::optional<CaptureWindow> exact = TaskEnvironmentWindow(file)) return *exact;
  }
  std::optional<int64_t> start = RunNameStartNs(run_dir_name);
  if (start.has_value() && *start <= file.mtime_ns) {
    return {.start_ns = *start, .stop_ns = file.mtime_ns, .source = WindowSource::kRunNameAndMtime};
  }
  return {.start_ns = file.mtime_ns, .stop_ns = file.mtime_ns, .source = WindowSource::kMtime};
}

}  // namespace stepscope::load
