#include "src/server/http_message.h"

#include <gtest/gtest.h>

#include <string>

namespace stepscope::server {
namespace {

HttpRequest Parse(const std::string& bytes) {
  HttpRequest request;
  EXPECT_TRUE(ParseHttpRequest(bytes, &request)) << bytes;
  return request;
}

bool Parses(const std::string& bytes) {
  HttpRequest request;
  return ParseHttpRequest(bytes, &request);
}

TEST(ParseHttpRequestTest, RequestLinePathAndQuery) {
  HttpRequest r = Parse("GET /api/data?run=a%2Fb&tool=x+y&flag#frag HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.version, "HTTP/1.1");
  EXPECT_EQ(r.target, "/api/data?run=a%2Fb&tool=x+y&flag");
  EXPECT_EQ(r.path, "/api/data");
  HttpParams expected = {{"run", "a/b"}, {"tool", "x y"}, {"flag", ""}};
  EXPECT_EQ(r.params, expected);
  EXPECT_EQ(Parse("GET /a%20b+c%2e%2e%2f HTTP/1.0\r\n\r\n").path, "/a b+c../");  // '+' kept in the path
  EXPECT_EQ(Parse("GET /%u00e9%zz%4 HTTP/1.1\r\n\r\n").path, "/\xc3\xa9%zz%4");
}

TEST(ParseHttpRequestTest, QueryPairsAsTheyWereDecodedBefore) {
  // A pair repeated exactly counts once; the same key with another value is a repeat the
  // routes refuse; "a=b=c" is a -> c, "=v" is v -> ""; empty fields are skipped.
  HttpParams expected = {{"a", "c"}, {"run", "x"}, {"run", "y"}, {"v", ""}};
  EXPECT_EQ(Parse("GET /p?run=x&run=x&run=y&&=v&a=b=c HTTP/1.1\r\n\r\n").params, expected);
  EXPECT_EQ(Parse("GET /p??q=1 HTTP/1.1\r\n\r\n").params, (HttpParams{{"q", "1"}}));
  EXPECT_FALSE(Parses("GET /p?a=1?b=2 HTTP/1.1\r\n\r\n"));
}

TEST(ParseHttpRequestTest, RefusesWhatIsNoRequestWeServe) {
  EXPECT_FALSE(Parses("FOO / HTTP/1.1\r\n\r\n"));
  EXPECT_FALSE(Parses("get / HTTP/1.1\r\n\r\n"));
  EXPECT_FALSE(Parses("GET / HTTP/2.0\r\n\r\n"));
  EXPECT_FALSE(Parses("GET /\r\n\r\n"));
  EXPECT_FALSE(Parses("GET / HTTP/1.1 extra\r\n\r\n"));
  EXPECT_FALSE(Parses("GET / HTTP/1.1\r\nHost: x\r\n"));  // head not ended
  EXPECT_TRUE(Parses("PUT / HTTP/1.1\r\n\r\n"));         // parsed; the server answers 405
}

TEST(ParseHttpRequestTest, HeadersAreCaseInsensitiveTrimmedAndNotDecoded) {
  HttpRequest r = Parse(
      "GET / HTTP/1.1\r\nhost:  127.0.0.1:6006 \t\r\nX-Empty: \r\nNo colon here\r\nOrigin: http://a%2eb\r\n"
      "Accept: a\r\nACCEPT: b\r\n\r\n");
  EXPECT_EQ(r.Header("Host"), "127.0.0.1:6006");
  EXPECT_EQ(r.Header("HOST"), "127.0.0.1:6006");
  EXPECT_FALSE(r.HasHeader("X-Empty"));
  EXPECT_EQ(r.Header("Origin"), "http://a%2eb");
  EXPECT_EQ(r.Header("accept"), "a");  // the first of a repeated header
  EXPECT_EQ(r.headers.count("Accept"), 2u);
  EXPECT_EQ(r.Header("Missing"), "");
}

TEST(ParseHttpRequestTest, PostBodiesAreDecoded) {
  EXPECT_EQ(Parse("POST /api/capture HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello").body, "hello");
  EXPECT_EQ(Parse("POST /x HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n5;ext=1\r\nhello\r\n3\r\n, w\r\n0\r\n"
                  "Trailer: x\r\n\r\n")
                .body,
            "hello, w");
  EXPECT_EQ(Parse("POST /x HTTP/1.1\r\n\r\n").body, "");
  EXPECT_FALSE(Parses("POST /x HTTP/1.1\r\nContent-Length: 9\r\n\r\nhello"));
  EXPECT_FALSE(Parses("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n"));
  EXPECT_EQ(Parse("GET /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello").body, "");  // a GET's body is not read
}

TEST(HttpResponseTest, HeadersWithLineBreaksAreDropped) {
  HttpResponse response;
  response.SetHeader("X-A", "ok");
  response.SetHeader("X-B", "evil\r\nSet-Cookie: x");
  response.SetHeader("X-C\n", "v");
  EXPECT_EQ(response.headers.size(), 1u);
  response.SetContent("{}", "application/json");
  response.SetContent("x", "text/plain");
  EXPECT_EQ(response.headers.count("content-type"), 1u);
  EXPECT_EQ(response.Header("Content-Type"), "text/plain");
}

TEST(HttpMessageTest, CompressibleTypesAndAcceptedEncodings) {
  for (const char* type : {"application/json", "text/html; charset=utf-8", "text/csv", "application/javascript",
                           "image/svg+xml"}) {
    EXPECT_TRUE(IsCompressibleContentType(type)) << type;
  }
  for (const char* type : {"application/json; charset=utf-8", "application/gzip", "text/event-stream", "image/png",
                           ""}) {
    EXPECT_FALSE(IsCompressibleContentType(type)) << type;
  }
  auto accepts = [](const std::string& value) {
    return AcceptsGzip(Parse("GET / HTTP/1.1\r\nAccept-Encoding: " + value + "\r\n\r\n"));
  };
  EXPECT_TRUE(accepts("gzip, deflate, br"));
  EXPECT_TRUE(accepts("br;q=1.0, GZIP;q=0.5"));
  EXPECT_FALSE(accepts("br"));
  EXPECT_FALSE(accepts("gzip;q=0"));
  EXPECT_FALSE(accepts("x-gzipped"));
  EXPECT_FALSE(AcceptsGzip(Parse("GET / HTTP/1.1\r\n\r\n")));
}

TEST(HttpMessageTest, StatusTexts) {
  EXPECT_STREQ(HttpStatusText(200), "OK");
  EXPECT_STREQ(HttpStatusText(404), "Not Found");
  EXPECT_STREQ(HttpStatusText(431), "Request Header Fields Too Large");
  EXPECT_STREQ(HttpStatusText(599), "Internal Server Error");
}

}  // namespace
}  // namespace stepscope::server
