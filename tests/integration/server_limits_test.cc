// `stepscope serve` under slow and hostile clients: real server, real sockets. Serial in
// ctest: the latency bounds assume the machine is not busy with other tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/server/http_server.h"
#include "tests/integration/http_test_client.h"
#include "tests/integration/server_test_util.h"

namespace stepscope::testing {
namespace {
namespace fs = std::filesystem;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// Generous for a loaded 2-core machine; a stalled server answers never (or after its
// slow clients time out: seconds).
constexpr milliseconds kAnswerBound{1500};

class ServerLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("stepscope_server_limits_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
    logdir_ = (base_ / "logdir").string();
    ASSERT_FALSE(WriteSyntheticRun(logdir_, "synthetic", "worker0", 2).empty());
    std::ofstream(base_ / "index.html") << "<!doctype html><title>stepscope test ui</title>";
  }

  void TearDown() override {
    if (server_) {
      server_->Stop();
      thread_.join();
    }
    fs::remove_all(base_);
  }

  void StartServer(server::ServerOptions options) {
    options.logdir = logdir_;
    options.port = 0;
    options.ui_dir = base_.string();
    auto created = server::HttpServer::Create(options);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    server_ = std::move(created).value();
    thread_ = std::thread([this] { server_->Run().IgnoreError(); });
  }

  std::string HostHeader() const { return "Host: 127.0.0.1:" + std::to_string(server_->port()) + "\r\n"; }

  // One real request on a fresh connection; returns the time to its answer (or the
  // deadline when it got none) and its status.
  std::pair<std::chrono::duration<double, std::milli>, int> TimedGet(const std::string& target,
                                                                      milliseconds deadline = milliseconds(3000)) {
    Clock::time_point start = Clock::now();
    HttpTestConnection connection(server_->port(), deadline);
    int status = 0;
    if (connection.Send("GET " + target + " HTTP/1.1\r\n" + HostHeader() + "Connection: close\r\n\r\n")) {
      status = connection.Read(deadline).status;
    }
    return {Clock::now() - start, status};
  }

  fs::path base_;
  std::string logdir_;
  std::unique_ptr<server::HttpServer> server_;
  std::thread thread_;
};

// Slowloris: 50 sockets each sending a valid request a byte a second. cpp-httplib alone
// gave each a worker (8) until its request ended, so real requests waited for ever.
TEST_F(ServerLimitsTest, FiftySlowClientsDoNotDelayRealRequests) {
  server::ServerOptions options;
  options.request_timeout_ms = 4000;
  StartServer(options);
  const std::string slow_request = "GET /api/runs HTTP/1.1\r\n" + HostHeader() + "X-Padding: " +
                                   std::string(40, 'p') + "\r\n\r\n";
  std::vector<std::unique_ptr<HttpTestConnection>> slow;
  for (int i = 0; i < 50; ++i) {
    slow.push_back(std::make_unique<HttpTestConnection>(server_->port(), milliseconds(2000)));
    ASSERT_TRUE(slow.back()->connected()) << "connection " << i;
  }
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    for (size_t at = 0; at < slow_request.size() && !done.load(); ++at) {
      for (auto& connection : slow) connection->Send(slow_request.substr(at, 1));
      for (int i = 0; i < 10 && !done.load(); ++i) std::this_thread::sleep_for(milliseconds(100));
    }
  });

  std::vector<std::chrono::duration<double, std::milli>> latencies;
  for (int i = 0; i < 20; ++i) {
    auto [latency, status] = TimedGet("/api/info");
    EXPECT_EQ(status, 200) << "request " << i << " got no answer in " << latency.count() << " ms";
    latencies.push_back(latency);
    std::this_thread::sleep_for(milliseconds(150));
  }
  auto worst = *std::max_element(latencies.begin(), latencies.end());
  std::printf("slowloris: 50 slow sockets, 20 real requests, worst answer %.1f ms\n", worst.count());
  EXPECT_LT(worst, kAnswerBound);

  // The slow requests are cut off at request_timeout_ms with a 408, not served for ever.
  int timed_out = 0;
  for (auto& connection : slow) {
    if (connection->Read(milliseconds(6000)).status == 408) ++timed_out;
  }
  done.store(true);
  trickle.join();
  EXPECT_EQ(timed_out, 50);
}

// A garbage request line used to hold a worker for httplib's 5 s read timeout.
TEST_F(ServerLimitsTest, GarbageRequestLinesDoNotHoldWorkers) {
  server::ServerOptions options;
  options.worker_threads = 2;
  StartServer(options);
  std::vector<std::unique_ptr<HttpTestConnection>> garbage;
  for (int i = 0; i < 6; ++i) {
    garbage.push_back(std::make_unique<HttpTestConnection>(server_->port()));
    garbage.back()->Send("NOT HTTP AT ALL");  // no line end: the connection stays open
  }
  std::this_thread::sleep_for(milliseconds(200));
  auto [latency, status] = TimedGet("/api/info");
  EXPECT_EQ(status, 200);
  EXPECT_LT(latency, kAnswerBound);
  for (auto& connection : garbage) {
    HttpTestResponse refused = connection->Read(milliseconds(2000));
    EXPECT_EQ(refused.status, 400) << refused.head;
  }
}

// Sockets that ask for a trace export and never read it: each held a worker for the
// write stall timeout (5 s), so 16 of them made a real request wait 10 s. A worker that
// waits on its client now costs a thread, not a worker.
TEST_F(ServerLimitsTest, ClientsThatNeverReadDoNotDelayRealRequests) {
  ASSERT_FALSE(WriteSyntheticRun(logdir_, "large", "worker0", 30000).empty());
  server::ServerOptions options;
  options.worker_threads = 2;
  StartServer(options);
  std::vector<std::unique_ptr<HttpTestConnection>> stalled;
  for (int i = 0; i < 16; ++i) {
    stalled.push_back(std::make_unique<HttpTestConnection>(server_->port(), milliseconds(2000), 4096));
    ASSERT_TRUE(stalled.back()->Send("GET /api/trace/export?run=large HTTP/1.1\r\n" + HostHeader() + "\r\n"));
  }
  std::this_thread::sleep_for(milliseconds(500));  // every export is written until its socket is full
  std::vector<std::chrono::duration<double, std::milli>> latencies;
  for (int i = 0; i < 10; ++i) {
    auto [latency, status] = TimedGet("/api/info");
    EXPECT_EQ(status, 200) << "request " << i << " got no answer in " << latency.count() << " ms";
    latencies.push_back(latency);
  }
  auto worst = *std::max_element(latencies.begin(), latencies.end());
  std::printf("slow readers: 16 unread exports, 10 real requests, worst answer %.1f ms\n", worst.count());
  EXPECT_LT(worst, kAnswerBound);
  // The stalled exports were cut off after the write stall timeout: the sockets close.
  for (auto& connection : stalled) EXPECT_TRUE(connection->ClosedWithin(milliseconds(15000)));
}

// A model larger than the whole model cache is refused with a clear error, not served
// and held outside the server's memory budget; smaller ones are served and counted by
// what they keep.
TEST_F(ServerLimitsTest, AModelThatCannotFitTheCacheIsAClearError) {
  ASSERT_FALSE(WriteSyntheticRun(logdir_, "large", "worker0", 30000).empty());
  server::ServerOptions options;
  options.model_cache_bytes = size_t{2} << 20;
  StartServer(options);
  auto get = [&](const std::string& target) {
    HttpTestConnection connection(server_->port());
    connection.Send("GET " + target + " HTTP/1.1\r\n" + HostHeader() + "Connection: close\r\n\r\n");
    return connection.Read(milliseconds(30000));
  };
  HttpTestResponse refused = get("/api/data?run=large&tool=overview_page");
  EXPECT_EQ(refused.status, 413) << refused.body;
  EXPECT_NE(refused.body.find("more than the server's model cache of 2 MiB"), std::string::npos) << refused.body;
  HttpTestResponse small = get("/api/data?run=synthetic&tool=overview_page");
  EXPECT_EQ(small.status, 200) << small.body;
  HttpTestResponse info = get("/api/info");
  EXPECT_NE(info.body.find("\"capacity_bytes\": 2097152"), std::string::npos) << info.body;
}

// Every response after the first on a kept-alive connection waited ~40 ms: head and body
// went out in two writes, and Nagle's algorithm held the body for the client's delayed
// ACK. 30 requests on one connection now take a few ms each.
TEST_F(ServerLimitsTest, KeptAliveConnectionsAnswerWithoutNagleDelay) {
  StartServer({});
  HttpTestConnection connection(server_->port());
  std::vector<double> latencies_ms;
  for (int i = 0; i < 30; ++i) {
    Clock::time_point start = Clock::now();
    ASSERT_TRUE(connection.Send("GET /api/runs HTTP/1.1\r\n" + HostHeader() + "\r\n"));
    ASSERT_EQ(connection.Read(milliseconds(3000)).status, 200) << "request " << i;
    latencies_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(latencies_ms.begin(), latencies_ms.end());
  double median = latencies_ms[latencies_ms.size() / 2];
  std::printf("keep-alive: 30 requests on one connection, median %.2f ms\n", median);
  EXPECT_LT(median, 20.0);  // with the delay: >= 40 ms each
}

// The body is refused while it arrives: cpp-httplib read a chunked body whole, whatever
// its size, before the handler could refuse it, and skipped a too-long Content-Length
// body by reading all of it.
TEST_F(ServerLimitsTest, BodiesOverTheCapAreRefusedBeforeTheyAreRead) {
  StartServer({});
  HttpTestConnection chunked(server_->port());
  ASSERT_TRUE(chunked.Send("POST /api/capture HTTP/1.1\r\n" + HostHeader() +
                           "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"));
  const std::string chunk = "10000\r\n" + std::string(0x10000, ' ') + "\r\n";
  for (int i = 0; i < 4; ++i) chunked.Send(chunk);  // 256 KiB, no terminating chunk
  HttpTestResponse response = chunked.Read(milliseconds(3000));
  EXPECT_EQ(response.status, 413) << response.head;
  EXPECT_NE(response.body.find("65536-byte limit"), std::string::npos) << response.body;

  HttpTestConnection announced(server_->port());
  ASSERT_TRUE(announced.Send("POST /api/capture HTTP/1.1\r\n" + HostHeader() +
                             "Content-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n"));
  response = announced.Read(milliseconds(3000));  // no byte of the body sent
  EXPECT_EQ(response.status, 413) << response.head;

  EXPECT_EQ(TimedGet("/api/info").second, 200);
}

}  // namespace
}  // namespace stepscope::testing
