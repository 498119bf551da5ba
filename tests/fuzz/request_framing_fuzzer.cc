// libFuzzer target for what `stepscope serve` parses of a request (src/server/
// request_framing, http_message, loopback_host): bytes from any client on the port.
// Besides crashes and undefined behaviour it checks that the framing verdict does not
// depend on how the bytes arrive — all at once, or in pieces of 1 to 16 bytes (the first
// input byte picks the size) — since the front scans whatever each read delivered; a
// request the framing completes is then parsed as a worker parses it.
//
// Built as a fuzzer with -DSTEPSCOPE_BUILD_FUZZERS=ON (clang); replayed over
// tests/fuzz/corpus/request_framing/ by the normal test build (fuzz_replay_test).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/base/logging.h"
#include "src/server/http_message.h"
#include "src/server/loopback_host.h"
#include "src/server/request_framing.h"

namespace {

using stepscope::server::FramingLimits;
using stepscope::server::FramingVerdict;
using stepscope::server::RequestFraming;

// Small caps, so inputs of a few KiB reach every limit.
FramingLimits FuzzLimits() {
  FramingLimits limits;
  limits.max_request_line_bytes = 256;
  limits.max_header_line_bytes = 256;
  limits.max_head_bytes = 1024;
  limits.max_body_bytes = 2048;
  return limits;
}

FramingVerdict ScanInPieces(std::string_view bytes, size_t piece_bytes) {
  RequestFraming framing(FuzzLimits());
  FramingVerdict verdict;
  for (size_t end = std::min(piece_bytes, bytes.size());; end = std::min(end + piece_bytes, bytes.size())) {
    verdict = framing.Scan(bytes.substr(0, end));
    if (verdict.kind != FramingVerdict::Kind::kIncomplete || end == bytes.size()) return verdict;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t piece_bytes = data[0] % 16 + 1;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

  RequestFraming whole(FuzzLimits());
  const FramingVerdict at_once = whole.Scan(bytes);
  const FramingVerdict in_pieces = ScanInPieces(bytes, piece_bytes);
  STEPSCOPE_CHECK(at_once.kind == in_pieces.kind);
  if (at_once.kind == FramingVerdict::Kind::kComplete) {
    STEPSCOPE_CHECK(at_once.request_bytes == in_pieces.request_bytes);
    STEPSCOPE_CHECK(at_once.request_bytes > 0 && at_once.request_bytes <= bytes.size());
    stepscope::server::HttpRequest request;
    if (stepscope::server::ParseHttpRequest(bytes.substr(0, at_once.request_bytes), &request)) {
      STEPSCOPE_CHECK(request.body.size() <= at_once.request_bytes);
      STEPSCOPE_CHECK(request.version == "HTTP/1.1" || request.version == "HTTP/1.0");
    }
  }
  if (at_once.kind == FramingVerdict::Kind::kRefused) {
    STEPSCOPE_CHECK(at_once.http_status == in_pieces.http_status);
    STEPSCOPE_CHECK(at_once.http_status >= 400 && at_once.http_status < 600 && !at_once.reason.empty());
  }

  // The Host / Origin rule on the first line's worth of bytes.
  const std::string_view host = bytes.substr(0, std::min<size_t>(bytes.find('\n'), 128));
  const bool loopback = stepscope::server::IsLoopbackHost(host);
  if (loopback) STEPSCOPE_CHECK(host.size() >= 5);  // "[::1]" is the shortest loopback host
  (void)stepscope::server::IsLoopbackOrigin(host);
  (void)stepscope::server::IsLoopbackAddress(host);
  return 0;
}
