#include "src/cli/mcp_stdio.h"

#include <unistd.h>

#include <cerrno>

namespace stepscope::cli::mcp {
namespace {

// Bytes asked of one read(): a typical message at once, without a large fixed buffer.
constexpr size_t kReadChunkBytes = 64 << 10;

}  // namespace

LineReader::LineReader(int fd, size_t max_line_bytes) : fd_(fd), max_line_bytes_(max_line_bytes) {}

bool LineReader::Fill() {
  if (eof_) return false;
  if (start_ > 0) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
  const size_t old_size = buffer_.size();
  buffer_.resize(old_size + kReadChunkBytes);
  ssize_t n = 0;
  do {
    n = ::read(fd_, buffer_.data() + old_size, kReadChunkBytes);
  } while (n < 0 && errno == EINTR);
  buffer_.resize(old_size + (n > 0 ? static_cast<size_t>(n) : 0));
  if (n <= 0) eof_ = true;
  return n > 0;
}

LineReader::Next LineReader::Read(std::string* line) {
  size_t scanned = 0;  // bytes of the current line known to hold no '\n'
  bool too_long = false;
  while (true) {
    const size_t newline = buffer_.find('\n', start_ + scanned);
    if (newline != std::string::npos) {
      const size_t length = newline - start_;
      if (!too_long && length <= max_line_bytes_) line->assign(buffer_, start_, length);
      start_ = newline + 1;
      return too_long || length > max_line_bytes_ ? Next::kTooLong : Next::kLine;
    }
    scanned = buffer_.size() - start_;
    if (scanned > max_line_bytes_) {
      // Drop what was read of the oversized line; keep looking for its end.
      too_long = true;
      buffer_.clear();
      start_ = 0;
      scanned = 0;
    }
    if (!Fill()) {
      if (too_long) return Next::kTooLong;
      if (buffer_.size() > start_) {
        line->assign(buffer_, start_, std::string::npos);
        start_ = buffer_.size();
        return Next::kLine;
      }
      return Next::kEnd;
    }
  }
}

void ServeLines(int in_fd, JsonRpcEndpoint& endpoint, const std::function<bool(std::string_view)>& write,
                size_t max_line_bytes) {
  LineReader reader(in_fd, max_line_bytes);
  std::string line;
  while (true) {
    const LineReader::Next next = reader.Read(&line);
    if (next == LineReader::Next::kEnd) return;
    const std::string response =
        next == LineReader::Next::kTooLong
            ? ErrorResponse("null", kInvalidRequest,
                            "message longer than " + std::to_string(max_line_bytes) + " bytes; skipped") +
                  "\n"
            : endpoint.HandleLine(line);
    if (!response.empty() && !write(response)) return;
  }
}

}  // namespace stepscope::cli::mcp
