#include "src/server/request_framing.h"

#include <cstring>

#include "src/base/ascii.h"

namespace stepscope::server {
namespace {

// RFC 9110 token characters (method and header names).
bool IsTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

std::string_view TrimSpaceAndTab(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Quoted in refusal reasons: at most 64 bytes, control and 8-bit bytes as '?'.
std::string Printable(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 64)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > 64) out += "...";
  return out;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = base::AsciiLower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

constexpr size_t kMaxMethodBytes = 32;
// A chunk size line: hex digits and an optional extension. Real clients send a few bytes.
constexpr size_t kMaxChunkSizeLineBytes = 1024;
constexpr std::string_view kVersionPrefix = "HTTP/1.";

}  // namespace

bool RequestFraming::Refuse(int http_status, std::string reason) {
  state_ = State::kRefused;
  refused_.kind = FramingVerdict::Kind::kRefused;
  refused_.http_status = http_status;
  refused_.reason = std::move(reason);
  return false;
}

FramingVerdict RequestFraming::Scan(std::string_view buffer) {
  bool progressing = true;
  while (progressing) {
    switch (state_) {
      case State::kRequestLine: progressing = ScanRequestLine(buffer); break;
      case State::kHeaderLine: progressing = ScanHeaderLine(buffer); break;
      case State::kBodyWithLength: progressing = ScanBodyWithLength(buffer); break;
      case State::kChunkSize: progressing = ScanChunkSize(buffer); break;
      case State::kChunkData: progressing = ScanChunkData(buffer); break;
      case State::kChunkDataEnd: progressing = ScanChunkDataEnd(buffer); break;
      case State::kTrailer: progressing = ScanTrailer(buffer); break;
      case State::kDone: {
        FramingVerdict verdict;
        verdict.kind = FramingVerdict::Kind::kComplete;
        verdict.request_bytes = pos_;
        return verdict;
      }
      case State::kRefused: return refused_;
    }
  }
  return state_ == State::kRefused ? refused_ : FramingVerdict{};
}

bool RequestFraming::CheckRequestLineByte(char c) {
  size_t at = request_line_field_bytes_++;
  switch (request_line_field_) {
    case 0:  // method
      if (c == ' ' && at > 0) break;
      if (!IsTokenChar(c)) return Refuse(400, "not an HTTP request (bad byte in the method)");
      if (at >= kMaxMethodBytes) return Refuse(400, "not an HTTP request (method over 32 bytes)");
      return true;
    case 1:  // request target: visible ASCII, percent-encoded otherwise
      if (c == ' ' && at > 0) break;
      if (c < 0x21 || c > 0x7e) return Refuse(400, "bad byte in the request target (not visible ASCII)");
      return true;
    case 2:  // "HTTP/1.0" or "HTTP/1.1", then CR
      if (at < kVersionPrefix.size()) {
        if (c != kVersionPrefix[at]) return Refuse(400, "not an HTTP/1.x request line");
        return true;
      }
      if (at == kVersionPrefix.size()) {
        if (c == '0' || c == '1') return true;
        return Refuse(505, "HTTP version not supported (HTTP/1.0 and HTTP/1.1 only)");
      }
      if (c != '\r') return Refuse(400, "request line does not end after the HTTP version");
      break;
    default:  // after CR
      if (c != '\n') return Refuse(400, "request line ends with a bare CR");
      break;
  }
  ++request_line_field_;
  request_line_field_bytes_ = 0;
  return true;
}

bool RequestFraming::ScanRequestLine(std::string_view buffer) {
  while (pos_ < buffer.size()) {
    if (!CheckRequestLineByte(buffer[pos_])) return false;
    ++pos_;
    if (pos_ > limits_.max_request_line_bytes) {
      return Refuse(414, "request line over " + std::to_string(limits_.max_request_line_bytes) + " bytes");
    }
    if (request_line_field_ == 4) {  // the LF after CR
      head_bytes_ = pos_;
      state_ = State::kHeaderLine;
      return true;
    }
  }
  return false;
}

bool RequestFraming::TakeLine(std::string_view buffer, size_t max_bytes, int too_long_status,
                              const std::string& too_long_reason, const char* what, std::string_view* line) {
  size_t newline = buffer.find('\n', pos_ + line_searched_);
  if (newline == std::string_view::npos) {
    line_searched_ = buffer.size() - pos_;
    if (line_searched_ > max_bytes) return Refuse(too_long_status, too_long_reason);
    return false;
  }
  size_t length = newline + 1 - pos_;
  if (length > max_bytes) return Refuse(too_long_status, too_long_reason);
  if (length < 2 || buffer[newline - 1] != '\r') return Refuse(400, std::string(what) + " ends with a bare LF");
  *line = buffer.substr(pos_, length - 2);
  pos_ = newline + 1;
  line_searched_ = 0;
  return true;
}

bool RequestFraming::TakeHeadLine(std::string_view buffer, const char* what, std::string_view* line) {
  size_t head_left = head_bytes_ < limits_.max_head_bytes ? limits_.max_head_bytes - head_bytes_ : 0;
  if (head_left < limits_.max_header_line_bytes) {
    return TakeLine(buffer, head_left, 431, "request head over " + std::to_string(limits_.max_head_bytes) + " bytes",
                    what, line);
  }
  return TakeLine(buffer, limits_.max_header_line_bytes, 431,
                  std::string(what) + " over " + std::to_string(limits_.max_header_line_bytes) + " bytes", what, line);
}

bool RequestFraming::RecordHeader(std::string_view line) {
  if (line.front() == ' ' || line.front() == '\t') {
    return Refuse(400, "obsolete header line folding (a line starting with whitespace)");
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return Refuse(400, "header line without ':' (" + Printable(line) + ")");
  std::string_view name = line.substr(0, colon);
  for (char c : name) {
    if (!IsTokenChar(c)) return Refuse(400, "bad header name '" + Printable(name) + "'");
  }
  if (name.empty()) return Refuse(400, "header line with an empty name");
  std::string_view value = TrimSpaceAndTab(line.substr(colon + 1));
  for (char c : value) {
    if ((c >= 0 && c < 0x20 && c != '\t') || c == 0x7f) {
      return Refuse(400, "control byte in the value of header " + Printable(name));
    }
  }
  if (base::AsciiEqualsIgnoreCase(name, "Content-Length")) {
    if (value.empty() || value.size() > 18 || value.find_first_not_of("0123456789") != std::string_view::npos) {
      return Refuse(400, "bad Content-Length '" + Printable(value) + "'");
    }
    if (!content_length_.empty() && content_length_ != value) {
      return Refuse(400, "Content-Length headers that disagree");
    }
    content_length_ = std::string(value);
  } else if (base::AsciiEqualsIgnoreCase(name, "Transfer-Encoding")) {
    ++transfer_encoding_headers_;
    transfer_encoding_ = std::string(value);
  } else if (base::AsciiEqualsIgnoreCase(name, "Expect")) {
    expect_continue_ = base::AsciiEqualsIgnoreCase(value, "100-continue");
  }
  return true;
}

bool RequestFraming::ScanHeaderLine(std::string_view buffer) {
  size_t start = pos_;
  std::string_view line;
  if (!TakeHeadLine(buffer, "header line", &line)) return false;
  head_bytes_ += pos_ - start;
  if (line.empty()) return StartBody();
  return RecordHeader(line);
}

bool RequestFraming::StartBody() {
  if (transfer_encoding_headers_ > 0) {
    if (!content_length_.empty()) {
      return Refuse(400, "both Content-Length and Transfer-Encoding (ambiguous body length)");
    }
    if (transfer_encoding_headers_ > 1 || !base::AsciiEqualsIgnoreCase(transfer_encoding_, "chunked")) {
      return Refuse(501, "Transfer-Encoding '" + Printable(transfer_encoding_) + "' not supported (only chunked)");
    }
    state_ = State::kChunkSize;
    return true;
  }
  uint64_t length = content_length_.empty() ? 0 : std::stoull(content_length_);
  if (length > limits_.max_body_bytes) {
    return Refuse(413, "request body of " + content_length_ + " bytes is over the " +
                           std::to_string(limits_.max_body_bytes) + "-byte limit");
  }
  body_remaining_ = length;
  state_ = length == 0 ? State::kDone : State::kBodyWithLength;
  return true;
}

bool RequestFraming::ScanBodyWithLength(std::string_view buffer) {
  uint64_t available = buffer.size() - pos_;
  uint64_t take = available < body_remaining_ ? available : body_remaining_;
  pos_ += take;
  body_remaining_ -= take;
  if (body_remaining_ > 0) return false;
  state_ = State::kDone;
  return true;
}

bool RequestFraming::ScanChunkSize(std::string_view buffer) {
  size_t start = pos_;
  std::string_view line;
  if (!TakeLine(buffer, kMaxChunkSizeLineBytes, 400,
                "chunk size line over " + std::to_string(kMaxChunkSizeLineBytes) + " bytes", "chunk size line", &line)) {
    return false;
  }
  framing_bytes_ += pos_ - start;
  uint64_t size = 0;
  size_t digits = 0;
  for (; digits < line.size() && HexDigit(line[digits]) >= 0; ++digits) {
    size = size * 16 + static_cast<uint64_t>(HexDigit(line[digits]));
    if (size > limits_.max_body_bytes) break;  // also keeps the sum below from overflowing
  }
  if (digits == 0) return Refuse(400, "bad chunk size line '" + Printable(line) + "'");
  if (body_bytes_ + size > limits_.max_body_bytes) {
    return Refuse(413, "chunked request body over the " + std::to_string(limits_.max_body_bytes) + "-byte limit");
  }
  std::string_view rest = TrimSpaceAndTab(line.substr(digits));
  if (!rest.empty() && rest.front() != ';') return Refuse(400, "bad chunk size line '" + Printable(line) + "'");
  if (framing_bytes_ > limits_.max_body_bytes) {
    return Refuse(413, "chunked framing over " + std::to_string(limits_.max_body_bytes) + " bytes (chunks too small)");
  }
  if (size == 0) {
    state_ = State::kTrailer;
    return true;
  }
  body_bytes_ += size;
  body_remaining_ = size;
  state_ = State::kChunkData;
  return true;
}

bool RequestFraming::ScanChunkData(std::string_view buffer) {
  uint64_t available = buffer.size() - pos_;
  uint64_t take = available < body_remaining_ ? available : body_remaining_;
  pos_ += take;
  body_remaining_ -= take;
  if (body_remaining_ > 0) return false;
  state_ = State::kChunkDataEnd;
  return true;
}

bool RequestFraming::ScanChunkDataEnd(std::string_view buffer) {
  if (buffer.size() - pos_ < 2) return false;
  if (buffer.substr(pos_, 2) != "\r\n") return Refuse(400, "chunk data not followed by CRLF");
  pos_ += 2;
  framing_bytes_ += 2;
  state_ = State::kChunkSize;
  return true;
}

bool RequestFraming::ScanTrailer(std::string_view buffer) {
  size_t start = pos_;
  std::string_view line;
  if (!TakeHeadLine(buffer, "trailer line", &line)) return false;
  head_bytes_ += pos_ - start;
  if (line.empty()) {
    state_ = State::kDone;
    return true;
  }
  return RecordHeader(line);
}

}  // namespace stepscope::server
