// Where one HTTP/1.1 request ends, decided while its bytes arrive: the request line, the
// header block and the body's framing (Content-Length or chunked).
//
// `stepscope serve` reads each request whole on its front thread (connection_front.h)
// before a worker sees it. RequestFraming tells the front when the request is complete,
// and refuses as early as the bytes allow what no worker should read: a request line that
// cannot be HTTP (at its first wrong byte), a head or line over its cap, a body announced
// or decoded over the cap (at the chunk size line, before the chunk is received), and
// ambiguous framing (Content-Length with Transfer-Encoding, differing Content-Lengths:
// the request-smuggling shapes).
//
// It does not interpret the request beyond that; a worker parses the bytes again once they
// are complete (http_message.h), which relies on the rules here (CRLF line ends only, no
// line folding, no whitespace before a header's colon, lines and head within their caps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::server {

struct FramingLimits {
  // Longer request lines (414) and header lines (431) are refused here, so no worker
  // reads them.
  size_t max_request_line_bytes = 8192;
  size_t max_header_line_bytes = 8192;
  // The whole head (request line + headers), and trailers of a chunked body. Browsers'
  // cookie headers for `localhost` are shared by every local app, hence not 8 KiB.
  size_t max_head_bytes = 32 * 1024;
  // The decoded body; also the allowance for chunked framing (size lines and CRLFs).
  size_t max_body_bytes = 64 * 1024;
};

struct FramingVerdict {
  enum class Kind { kIncomplete, kComplete, kRefused };
  Kind kind = Kind::kIncomplete;
  size_t request_bytes = 0;  // kComplete: the request is buffer[0, request_bytes)
  int http_status = 0;       // kRefused: 400, 413, 414, 431, 501 or 505
  std::string reason;        // kRefused: one line naming what is wrong
};

class RequestFraming {
 public:
  explicit RequestFraming(const FramingLimits& limits) : limits_(limits) {}

  // `buffer` holds every byte received for this request so far, starting at its first
  // byte; each call's buffer extends the previous one. Work is proportional to the new
  // bytes. After kComplete or kRefused, further calls return the same verdict.
  FramingVerdict Scan(std::string_view buffer);

  // Starts over for the next request on the connection.
  void Reset() { *this = RequestFraming(limits_); }

  // True once the head is complete and the client waits for "100 Continue" before it
  // sends the body it announced (curl does for bodies over 1 KiB).
  bool WaitsForContinue() const { return state_ > State::kHeaderLine && state_ < State::kDone && expect_continue_; }
  // True while no byte of the request has been scanned (an idle keep-alive connection).
  bool started() const { return pos_ > 0; }

 private:
  enum class State {
    kRequestLine,
    kHeaderLine,
    kBodyWithLength,
    kChunkSize,
    kChunkData,
    kChunkDataEnd,
    kTrailer,
    kDone,
    kRefused,
  };

  // Each step consumes from buffer at pos_; false when it needs more bytes or refused.
  bool ScanRequestLine(std::string_view buffer);
  bool ScanHeaderLine(std::string_view buffer);
  bool ScanBodyWithLength(std::string_view buffer);
  bool ScanChunkSize(std::string_view buffer);
  bool ScanChunkData(std::string_view buffer);
  bool ScanChunkDataEnd(std::string_view buffer);
  bool ScanTrailer(std::string_view buffer);

  // The complete line at pos_ without its CRLF, or false: more bytes needed, or refused
  // (`too_long_status`, `too_long_reason`) once the line passes `max_bytes` with or
  // without its end — checked before its ending, so the verdict does not depend on
  // whether the line arrived whole.
  bool TakeLine(std::string_view buffer, size_t max_bytes, int too_long_status, const std::string& too_long_reason,
                const char* what, std::string_view* line);
  // A header or trailer line within both the line cap and what is left of the head cap.
  bool TakeHeadLine(std::string_view buffer, const char* what, std::string_view* line);
  // One byte of the request line: false (refused) at the first byte no valid request
  // line can have there, so garbage costs no wait.
  bool CheckRequestLineByte(char c);
  bool RecordHeader(std::string_view line);
  bool StartBody();
  bool Refuse(int http_status, std::string reason);

  FramingLimits limits_;
  State state_ = State::kRequestLine;
  size_t pos_ = 0;             // bytes of the buffer consumed
  size_t line_searched_ = 0;   // bytes after pos_ already searched for '\n'
  size_t head_bytes_ = 0;      // request line + headers + trailers so far
  int request_line_field_ = 0;      // 0 method, 1 target, 2 version, 3 after CR
  size_t request_line_field_bytes_ = 0;
  uint64_t body_remaining_ = 0;  // kBodyWithLength / kChunkData
  uint64_t body_bytes_ = 0;      // decoded body so far (chunked)
  uint64_t framing_bytes_ = 0;   // chunk size lines and CRLFs
  std::string content_length_;   // the first Content-Length value ("" if none)
  std::string transfer_encoding_;
  int transfer_encoding_headers_ = 0;
  bool expect_continue_ = false;
  FramingVerdict refused_;
};

}  // namespace stepscope::server
