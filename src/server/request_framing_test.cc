#include "src/server/request_framing.h"

#include <gtest/gtest.h>

#include <string>

namespace stepscope::server {
namespace {

using Kind = FramingVerdict::Kind;

FramingLimits SmallLimits() {
  FramingLimits limits;
  limits.max_request_line_bytes = 100;
  limits.max_header_line_bytes = 100;
  limits.max_head_bytes = 300;
  limits.max_body_bytes = 1000;
  return limits;
}

FramingVerdict ScanAll(std::string_view bytes, FramingLimits limits = SmallLimits()) {
  RequestFraming framing(limits);
  return framing.Scan(bytes);
}

// Feeds one byte at a time, as a slow client sends; the verdict must not depend on it.
FramingVerdict ScanByteByByte(std::string_view bytes, FramingLimits limits = SmallLimits()) {
  RequestFraming framing(limits);
  FramingVerdict verdict;
  for (size_t n = 1; n <= bytes.size(); ++n) {
    verdict = framing.Scan(bytes.substr(0, n));
    if (verdict.kind != Kind::kIncomplete) return verdict;
  }
  return verdict;
}

TEST(RequestFramingTest, GetIsCompleteAtTheEmptyLine) {
  std::string request = "GET /api/runs HTTP/1.1\r\nHost: localhost\r\n\r\n";
  for (auto scan : {ScanAll, ScanByteByByte}) {
    FramingVerdict verdict = scan(request + "GET /next", SmallLimits());
    ASSERT_EQ(verdict.kind, Kind::kComplete) << verdict.reason;
    EXPECT_EQ(verdict.request_bytes, request.size());  // the pipelined request is not part of it
  }
  EXPECT_EQ(ScanAll("GET /api/runs HTTP/1.1\r\nHost: localhost\r\n").kind, Kind::kIncomplete);
}

TEST(RequestFramingTest, ContentLengthBody) {
  std::string request = "POST /api/capture HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
  for (auto scan : {ScanAll, ScanByteByByte}) {
    FramingVerdict verdict = scan(request + "extra", SmallLimits());
    ASSERT_EQ(verdict.kind, Kind::kComplete) << verdict.reason;
    EXPECT_EQ(verdict.request_bytes, request.size());
  }
  EXPECT_EQ(ScanAll(request.substr(0, request.size() - 1)).kind, Kind::kIncomplete);
}

TEST(RequestFramingTest, ChunkedBodyWithExtensionsAndTrailers) {
  std::string request =
      "POST /api/capture HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\n1A\r\n" +
      std::string(26, 'x') + "\r\n0\r\nX-Trailer: yes\r\n\r\n";
  for (auto scan : {ScanAll, ScanByteByByte}) {
    FramingVerdict verdict = scan(request + "GET", SmallLimits());
    ASSERT_EQ(verdict.kind, Kind::kComplete) << verdict.reason;
    EXPECT_EQ(verdict.request_bytes, request.size());
  }
}

// The cap applies while the body arrives: at the announced length, or at the chunk size
// line that would pass it, before the chunk's bytes are there.
TEST(RequestFramingTest, BodiesOverTheCapAreRefusedBeforeTheyArrive) {
  FramingVerdict length = ScanAll("POST / HTTP/1.1\r\nContent-Length: 1001\r\n\r\n");
  EXPECT_EQ(length.kind, Kind::kRefused);
  EXPECT_EQ(length.http_status, 413);
  EXPECT_NE(length.reason.find("1001"), std::string::npos) << length.reason;

  std::string chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 3; ++i) chunked += "12c\r\n" + std::string(300, 'x') + "\r\n";  // 900 bytes
  EXPECT_EQ(ScanAll(chunked).kind, Kind::kIncomplete);
  FramingVerdict over = ScanAll(chunked + "12c\r\n");  // would make 1200: no byte of it needed
  EXPECT_EQ(over.kind, Kind::kRefused);
  EXPECT_EQ(over.http_status, 413);

  FramingVerdict huge = ScanAll("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffffffff\r\n");
  EXPECT_EQ(huge.http_status, 413);

  std::string tiny_chunks = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 300; ++i) tiny_chunks += "1\r\nx\r\n";  // 300 body bytes in 1,500 of framing
  FramingVerdict framing = ScanAll(tiny_chunks);
  EXPECT_EQ(framing.http_status, 413) << framing.reason;
}

TEST(RequestFramingTest, GarbageIsRefusedAtItsFirstWrongByte) {
  // Byte by byte: the verdict comes before the line ends (no wait for a newline).
  FramingVerdict text = ScanByteByByte("NOT HTTP AT ALL");
  EXPECT_EQ(text.kind, Kind::kRefused);
  EXPECT_EQ(text.http_status, 400);
  FramingVerdict tls = ScanByteByByte(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11));
  EXPECT_EQ(tls.http_status, 400);
  EXPECT_EQ(ScanAll("GET /\r\n\r\n").http_status, 400);  // HTTP/0.9
  EXPECT_EQ(ScanAll("GET  / HTTP/1.1\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("GET / HTTP/2.0\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("GET / HTTP/1.2\r\n").http_status, 505);
  EXPECT_EQ(ScanAll("GET / HTTP/1.1\n").http_status, 400);  // bare LF
  EXPECT_EQ(ScanAll("GET /\x01 HTTP/1.1\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("GET / HTTP/1.1 \r\n").http_status, 400);
}

TEST(RequestFramingTest, OversizedHeadsAreRefusedWhileTheyArrive) {
  EXPECT_EQ(ScanAll("GET /" + std::string(200, 'a')).http_status, 414);  // no line end yet
  EXPECT_EQ(ScanAll("GET / HTTP/1.1\r\nX: " + std::string(200, 'a')).http_status, 431);
  std::string many = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 20; ++i) many += "X-Header: 0123456789\r\n";
  EXPECT_EQ(ScanAll(many).http_status, 431);
}

// The request-smuggling shapes: two views of where the body ends are refused, not chosen.
TEST(RequestFramingTest, AmbiguousFramingIsRefused) {
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello").kind, Kind::kComplete);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nContent-Length : 5\r\n\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n").http_status, 501);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n").http_status,
            501);
  EXPECT_EQ(ScanAll("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n").http_status, 400);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX").http_status, 400);
  EXPECT_EQ(ScanAll("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").http_status, 400);
}

TEST(RequestFramingTest, ExpectContinueIsReportedOnceTheHeadIsComplete) {
  RequestFraming framing(SmallLimits());
  std::string head = "POST / HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n";
  EXPECT_EQ(framing.Scan(head).kind, Kind::kIncomplete);
  EXPECT_FALSE(framing.WaitsForContinue());
  EXPECT_EQ(framing.Scan(head + "\r\n").kind, Kind::kIncomplete);
  EXPECT_TRUE(framing.WaitsForContinue());
  EXPECT_EQ(framing.Scan(head + "\r\nhello").kind, Kind::kComplete);
  EXPECT_FALSE(framing.WaitsForContinue());
}

TEST(RequestFramingTest, ResetStartsTheNextRequest) {
  RequestFraming framing(SmallLimits());
  EXPECT_FALSE(framing.started());
  EXPECT_EQ(framing.Scan("GET / HTTP/1.1\r\n\r\n").kind, Kind::kComplete);
  EXPECT_TRUE(framing.started());
  framing.Reset();
  EXPECT_FALSE(framing.started());
  EXPECT_EQ(framing.Scan("GET").kind, Kind::kIncomplete);
}

}  // namespace
}  // namespace stepscope::server
