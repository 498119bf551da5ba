// The connection front over real loopback sockets, with a trivial "worker" that answers
// every request with its own byte count.
#include "src/server/connection_front.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "tests/integration/http_test_client.h"

namespace stepscope::server {
namespace {

using std::chrono::milliseconds;
using testing::HttpTestConnection;
using testing::HttpTestResponse;

class ConnectionFrontTest : public ::testing::Test {
 protected:
  void TearDown() override { StopFront(); }

  // `answer_delay` makes each worker take that long, as a slow tool would.
  void StartFront(ConnectionFrontOptions options, milliseconds answer_delay = milliseconds(0)) {
    options.bind_address = "127.0.0.1";
    options.port = 0;
    answer_delay_ = answer_delay;
    auto front = ConnectionFront::Listen(options, [this](ReadyRequest request) { Answer(std::move(request)); });
    ASSERT_TRUE(front.ok()) << front.status().ToString();
    front_ = std::move(front).value();
    runner_ = std::thread([this] { run_status_ = front_->Run(); });
  }

  void StopFront() {
    if (!front_) return;
    front_->Stop();
    runner_.join();
    for (std::thread& worker : workers_) worker.join();
    workers_.clear();
    EXPECT_TRUE(run_status_.ok()) << run_status_.ToString();
    front_.reset();
  }

  // A worker thread per request (the test's pool): "got N bytes", keep-alive unless last.
  void Answer(ReadyRequest request) {
    workers_.emplace_back([this, request = std::move(request)] {
      std::this_thread::sleep_for(answer_delay_);
      std::string body = "got " + std::to_string(request.bytes.size()) + " bytes";
      std::string response = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
      ::send(request.fd, response.data(), response.size(), MSG_NOSIGNAL);
      front_->Finished(request.connection_id, !request.last_on_connection);
    });
  }

  int port() const { return front_->port(); }

  std::unique_ptr<ConnectionFront> front_;
  std::thread runner_;
  std::vector<std::thread> workers_;  // touched by the front thread only, joined after Run
  milliseconds answer_delay_{0};
  Status run_status_;
};

const std::string kGet = "GET /a HTTP/1.1\r\nHost: localhost\r\n\r\n";

TEST_F(ConnectionFrontTest, PipelinedRequestsAreAnsweredOneAfterTheOther) {
  StartFront({});
  HttpTestConnection client(port());
  const std::string post = "POST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc";
  ASSERT_TRUE(client.Send(kGet + kGet + post));
  EXPECT_EQ(client.Read().body, "got " + std::to_string(kGet.size()) + " bytes");
  EXPECT_EQ(client.Read().body, "got " + std::to_string(kGet.size()) + " bytes");
  EXPECT_EQ(client.Read().body, "got " + std::to_string(post.size()) + " bytes");
  EXPECT_EQ(front_->stats().dispatched, 3u);
}

TEST_F(ConnectionFrontTest, ARequestNotWholeInTimeGets408) {
  ConnectionFrontOptions options;
  options.request_timeout_ms = 300;
  StartFront(options);
  HttpTestConnection client(port());
  ASSERT_TRUE(client.Send("GET /a HTTP/1.1\r\nHost: loc"));
  HttpTestResponse response = client.Read(milliseconds(5000));
  EXPECT_EQ(response.status, 408) << response.head;
  EXPECT_NE(response.body.find("within 300 ms"), std::string::npos) << response.body;
  EXPECT_TRUE(client.ClosedWithin(milliseconds(5000)));
  EXPECT_EQ(front_->stats().timed_out, 1u);
  EXPECT_EQ(front_->stats().dispatched, 0u);
}

TEST_F(ConnectionFrontTest, IdleConnectionsAreClosedQuietly) {
  ConnectionFrontOptions options;
  options.idle_timeout_ms = 200;
  StartFront(options);
  HttpTestConnection client(port());
  ASSERT_TRUE(client.Send(kGet));
  EXPECT_EQ(client.Read().status, 200);
  EXPECT_TRUE(client.ClosedWithin(milliseconds(5000)));
  EXPECT_EQ(client.Read(milliseconds(10)).status, 0);  // no 408 for a connection between requests
}

TEST_F(ConnectionFrontTest, OverTheCapTheOldestIdleConnectionMakesRoom) {
  ConnectionFrontOptions options;
  options.max_connections = 4;
  StartFront(options);
  std::vector<std::unique_ptr<HttpTestConnection>> idle;
  for (int i = 0; i < 4; ++i) {
    idle.push_back(std::make_unique<HttpTestConnection>(port()));
    std::this_thread::sleep_for(milliseconds(20));  // a distinct age each
  }
  for (int i = 0; i < 200 && front_->stats().accepted < 4; ++i) std::this_thread::sleep_for(milliseconds(10));
  HttpTestConnection client(port());
  ASSERT_TRUE(client.Send(kGet));
  EXPECT_EQ(client.Read().status, 200);
  EXPECT_TRUE(idle[0]->ClosedWithin(milliseconds(5000)));   // the oldest
  EXPECT_FALSE(idle[3]->ClosedWithin(milliseconds(100)));  // the others stay
  EXPECT_EQ(front_->stats().evicted, 1u);
}

// The body is refused at the chunk size line that passes the cap: the connection never
// held more than one read's worth of it.
TEST_F(ConnectionFrontTest, AChunkedBodyOverTheCapIsRefusedWhileArriving) {
  ConnectionFrontOptions options;
  options.limits.max_body_bytes = 64 * 1024;
  StartFront(options);
  HttpTestConnection client(port());
  ASSERT_TRUE(client.Send("POST /c HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"));
  std::string chunk = "4000\r\n" + std::string(0x4000, 'x') + "\r\n";
  for (int i = 0; i < 64 && client.Send(chunk); ++i) {  // up to 1 MiB; the server stops reading at 64 KiB
  }
  HttpTestResponse response = client.Read();
  EXPECT_EQ(response.status, 413) << response.head;
  EXPECT_NE(response.body.find("65536-byte limit"), std::string::npos) << response.body;
  EXPECT_EQ(front_->stats().dispatched, 0u);
  EXPECT_LT(front_->stats().max_buffered_bytes, size_t{256} * 1024);
}

TEST_F(ConnectionFrontTest, ExpectContinueIsAnsweredBeforeTheBody) {
  StartFront({});
  HttpTestConnection client(port());
  ASSERT_TRUE(client.Send("POST /c HTTP/1.1\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"));
  EXPECT_EQ(client.Read(milliseconds(5000)).status, 100);
  ASSERT_TRUE(client.Send("abc"));
  EXPECT_EQ(client.Read().status, 200);
}

TEST_F(ConnectionFrontTest, GarbageIsRefusedAtOnce) {
  StartFront({});
  HttpTestConnection client(port());
  ASSERT_TRUE(client.Send("\x16\x03\x01 hello"));  // a TLS client on the HTTP port
  HttpTestResponse response = client.Read(milliseconds(2000));
  EXPECT_EQ(response.status, 400);
  EXPECT_TRUE(client.ClosedWithin(milliseconds(5000)));
}

TEST_F(ConnectionFrontTest, StopLetsDispatchedRequestsFinish) {
  StartFront({}, milliseconds(300));
  HttpTestConnection client(port());
  ASSERT_TRUE(client.Send(kGet));
  for (int i = 0; i < 200 && front_->stats().dispatched < 1; ++i) std::this_thread::sleep_for(milliseconds(5));
  front_->Stop();
  runner_.join();  // returns only after the worker finished
  EXPECT_EQ(client.Read(milliseconds(10)).status, 200);
  EXPECT_EQ(front_->stats().open, 0u);
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
  front_.reset();
}

TEST_F(ConnectionFrontTest, StopBeforeRunEndsRun) {
  auto front = ConnectionFront::Listen({}, [](ReadyRequest) {});
  ASSERT_TRUE(front.ok());
  (*front)->Stop();
  EXPECT_TRUE((*front)->Run().ok());
}

}  // namespace
}  // namespace stepscope::server
