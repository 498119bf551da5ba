#include "src/server/http_responder.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "src/base/gzip.h"

namespace stepscope::server {
namespace {

struct Answer {
  bool keep_alive = false;
  int status = 0;
  std::string head;
  std::string body;
};

class HttpResponderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    http_.SetDefaultHeaders({{"X-Frame-Options", "DENY"}});
    http_.SetKeepAlive(5, 100);
    http_.SetPreRouting([](const HttpRequest& req, HttpResponse& res) {
      if (req.method == "GET" || req.method == "HEAD" || req.method == "POST") return false;
      res.status = 405;
      res.SetContent("{\"error\": \"no\"}", "application/json");
      return true;
    });
    http_.Post("/api/echo", [](const HttpRequest& req, HttpResponse& res) { res.SetContent(req.body, "text/plain"); });
    http_.Get("/api/stream", [](const HttpRequest&, HttpResponse& res) {
      res.SetStream("application/json", [](const HttpBodyWriter& write) {
        return write("[1,") && write("") && write("2]");
      });
    });
    http_.Get("/api/throw", [](const HttpRequest&, HttpResponse&) -> void { throw std::runtime_error("boom"); });
    http_.Get("/api/", [](const HttpRequest& req, HttpResponse& res) {
      res.status = 200;
      res.SetContent("{\"path\": \"" + req.path + "\", \"n\": " + std::to_string(req.params.size()) + "}" +
                         std::string(200, ' '),
                     "application/json");
    });
    http_.SetErrorHandler([](const HttpRequest& req, HttpResponse& res) {
      if (res.body.empty()) res.SetContent("{\"error\": " + std::to_string(res.status) + "}", "application/json");
    });
    http_.SetExceptionHandler([](const HttpRequest&, HttpResponse& res, const std::string& what) {
      res.status = 500;
      res.SetContent("{\"error\": \"" + what + "\"}", "application/json");
    });
  }

  Answer Send(const std::string& request, bool last = false) {
    Answer answer;
    std::string out;
    answer.keep_alive = http_.Respond(request, last, &out);
    size_t end = out.find("\r\n\r\n");
    EXPECT_NE(end, std::string::npos) << out;
    answer.head = out.substr(0, end + 2);
    answer.body = out.substr(end + 4);
    answer.status = std::stoi(out.substr(9, 3));
    return answer;
  }

  HttpResponder http_;
};

TEST_F(HttpResponderTest, BufferedResponseWithKeepAliveAndSortedHeaders) {
  Answer a = Send("GET /api/info?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_TRUE(a.keep_alive);
  EXPECT_EQ(a.head,
            "HTTP/1.1 200 OK\r\nContent-Length: 229\r\nContent-Type: application/json\r\n"
            "Keep-Alive: timeout=5, max=100\r\nX-Frame-Options: DENY\r\n");
  EXPECT_EQ(a.body.substr(0, 36), "{\"path\": \"/api/info\", \"n\": 1}" + std::string(7, ' '));
}

TEST_F(HttpResponderTest, ConnectionCloseAndHttp10EndTheConnection) {
  Answer closing = Send("GET /api/x HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_FALSE(closing.keep_alive);
  EXPECT_NE(closing.head.find("Connection: close\r\n"), std::string::npos);
  Answer last = Send("GET /api/x HTTP/1.1\r\n\r\n", /*last=*/true);
  EXPECT_FALSE(last.keep_alive);
  EXPECT_NE(last.head.find("Connection: close\r\n"), std::string::npos);
  EXPECT_FALSE(Send("GET /api/x HTTP/1.0\r\n\r\n").keep_alive);
  EXPECT_TRUE(Send("GET /api/x HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").keep_alive);
}

TEST_F(HttpResponderTest, GzipWhenAcceptedAndTheTypeAllows) {
  Answer a = Send("GET /api/x HTTP/1.1\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n");
  EXPECT_NE(a.head.find("Content-Encoding: gzip\r\n"), std::string::npos) << a.head;
  EXPECT_NE(a.head.find("Content-Length: " + std::to_string(a.body.size()) + "\r\n"), std::string::npos) << a.head;
  auto plain = base::GunzipWithLimit(a.body, 1 << 20);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->substr(0, 12), "{\"path\": \"/a");
  Answer echo = Send("POST /api/echo HTTP/1.1\r\nAccept-Encoding: br\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(echo.head.find("Content-Encoding"), std::string::npos);
  EXPECT_EQ(echo.body, "abc");
}

TEST_F(HttpResponderTest, HeadHasTheLengthButNoBody) {
  Answer get = Send("GET /api/x HTTP/1.1\r\n\r\n");
  std::string out;
  http_.Respond("HEAD /api/x HTTP/1.1\r\n\r\n", false, &out);
  EXPECT_EQ(out, get.head + "\r\n");
}

TEST_F(HttpResponderTest, StreamsAreChunkedAndCompressedWhenAccepted) {
  Answer a = Send("GET /api/stream HTTP/1.1\r\n\r\n");
  EXPECT_NE(a.head.find("Transfer-Encoding: chunked\r\n"), std::string::npos);
  EXPECT_EQ(a.head.find("Content-Length"), std::string::npos);
  EXPECT_EQ(a.body, "3\r\n[1,\r\n2\r\n2]\r\n0\r\n\r\n");
  EXPECT_TRUE(a.keep_alive);
  Answer z = Send("GET /api/stream HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n");
  EXPECT_NE(z.head.find("Content-Encoding: gzip\r\n"), std::string::npos);
  // Dechunk and inflate.
  std::string gz;
  std::string_view rest = z.body;
  for (;;) {
    size_t line = rest.find("\r\n");
    size_t size = std::stoul(std::string(rest.substr(0, line)), nullptr, 16);
    rest.remove_prefix(line + 2);
    if (size == 0) break;
    gz.append(rest.substr(0, size));
    rest.remove_prefix(size + 2);
  }
  auto plain = base::GunzipWithLimit(gz, 1 << 20);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(*plain, "[1,2]");
}

TEST_F(HttpResponderTest, StreamsEndAtShutdown) {
  http_.BeginShutdown();
  std::string out;
  EXPECT_FALSE(http_.Respond("GET /api/stream HTTP/1.1\r\n\r\n", false, &out));
  EXPECT_EQ(out.find("0\r\n\r\n"), std::string::npos);
}

TEST_F(HttpResponderTest, ErrorsAndRouting) {
  Answer garbage = Send("GET /x HTTP/9.9\r\n\r\n");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_EQ(garbage.body, "{\"error\": 400}");
  EXPECT_TRUE(garbage.keep_alive);
  Answer unrouted = Send("GET /other HTTP/1.1\r\n\r\n");
  EXPECT_EQ(unrouted.status, 404);
  EXPECT_NE(unrouted.head.find("X-Frame-Options: DENY"), std::string::npos);
  // A path with CR or LF matches no prefix route (as the regex routes `/api/.*` did not).
  EXPECT_EQ(Send("GET /api/a%0ab HTTP/1.1\r\n\r\n").status, 404);
  EXPECT_EQ(Send("PUT /api/x HTTP/1.1\r\n\r\n").status, 405);
  EXPECT_EQ(Send("POST /api/echo/more HTTP/1.1\r\n\r\n").status, 404);  // POST routes are exact
  Answer thrown = Send("GET /api/throw HTTP/1.1\r\n\r\n");
  EXPECT_EQ(thrown.status, 500);
  EXPECT_EQ(thrown.body, "{\"error\": \"boom\"}");
  Answer empty = Send("HEAD /nothing HTTP/1.1\r\n\r\n");
  EXPECT_EQ(empty.status, 404);
  EXPECT_TRUE(empty.body.empty());
}

}  // namespace
}  // namespace stepscope::server
