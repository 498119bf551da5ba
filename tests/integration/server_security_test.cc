// DNS rebinding against a loopback-bound `stepscope serve`: a page on
// http://127.evil.example:6006/ (a name the attacker's DNS points at 127.0.0.1) sends
// requests whose Host and Origin name that DNS name. Real server, real sockets.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "src/server/http_server.h"
#include "tests/integration/http_test_client.h"
#include "tests/integration/server_test_util.h"

namespace stepscope::testing {
namespace {
namespace fs = std::filesystem;

class ServerSecurityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("stepscope_server_security_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
    logdir_ = (base_ / "logdir").string();
    ASSERT_FALSE(WriteSyntheticRun(logdir_, "synthetic", "worker0", 2).empty());
    std::ofstream(base_ / "index.html") << "<!doctype html><title>stepscope test ui</title>";
    server::ServerOptions options;
    options.logdir = logdir_;
    options.port = 0;
    options.ui_dir = base_.string();  // no UI needed
    auto created = server::HttpServer::Create(options);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    server_ = std::move(created).value();
    thread_ = std::thread([this] { server_->Run().IgnoreError(); });
  }

  void TearDown() override {
    if (!server_) return;
    server_->Stop();
    thread_.join();
    fs::remove_all(base_);
  }

  HttpTestResponse Send(const std::string& request) {
    HttpTestConnection connection(server_->port());
    EXPECT_TRUE(connection.Send(request));
    return connection.Read();
  }

  HttpTestResponse GetWithHost(const std::string& host) {
    return Send("GET /api/runs HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
  }

  // POST /api/capture naming a dead worker: 200 with a failed capture once the route is
  // reached, 403 when the request is refused before it.
  HttpTestResponse CaptureWith(const std::string& host, const std::string& origin) {
    std::string body = R"({"service_addresses": "127.0.0.1:)" + std::to_string(PickUnusedPort()) +
                       R"(", "duration_ms": 100, "retries": 0})";
    return Send("POST /api/capture HTTP/1.1\r\nHost: " + host + "\r\nOrigin: " + origin +
                "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                "\r\nConnection: close\r\n\r\n" + body);
  }

  static int PickUnusedPort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
  }

  fs::path base_;
  std::string logdir_;
  std::unique_ptr<server::HttpServer> server_;
  std::thread thread_;
};

TEST_F(ServerSecurityTest, RebindingHostsAreRefusedWithTheirName) {
  for (const std::string host : {"127.evil.example:6006", "127.0.0.1.evil.example", "127.evil.example",
                                 "localhost.evil.example:6006", "127.1:6006"}) {
    HttpTestResponse response = GetWithHost(host);
    EXPECT_EQ(response.status, 403) << host << ": " << response.body;
    EXPECT_NE(response.body.find("Host header '" + host + "' refused"), std::string::npos) << response.body;
    EXPECT_EQ(response.body.find("synthetic"), std::string::npos) << "the run list leaked to " << host;
  }
}

TEST_F(ServerSecurityTest, LoopbackHostsAreServed) {
  for (const std::string host : {"localhost:6006", "127.0.0.2:6006", "[::1]:6006", "127.0.0.1", "localhost"}) {
    HttpTestResponse response = GetWithHost(host);
    EXPECT_EQ(response.status, 200) << host << ": " << response.body;
    EXPECT_NE(response.body.find("synthetic"), std::string::npos) << host;
  }
}

// The whole attack: Host and Origin both name the attacker's DNS name, so "Origin equals
// http:// + Host" holds; the capture must still be refused.
TEST_F(ServerSecurityTest, RebindingOriginCannotStartACapture) {
  HttpTestResponse rebound = CaptureWith("127.evil.example:6006", "http://127.evil.example:6006");
  EXPECT_EQ(rebound.status, 403) << rebound.body;
  HttpTestResponse mixed = CaptureWith("127.0.0.1:6006", "http://127.evil.example:6006");
  EXPECT_EQ(mixed.status, 403) << mixed.body;
  HttpTestResponse null_origin = CaptureWith("127.0.0.1:6006", "null");
  EXPECT_EQ(null_origin.status, 403) << null_origin.body;
  EXPECT_NE(null_origin.body.find("Origin 'null'"), std::string::npos) << null_origin.body;
}

TEST_F(ServerSecurityTest, TheServersOwnLoopbackPagesCanCapture) {
  for (const std::string host : {"localhost:6006", "127.0.0.2:6006", "[::1]:6006"}) {
    HttpTestResponse response = CaptureWith(host, "http://" + host);
    EXPECT_EQ(response.status, 200) << host << ": " << response.body;  // reached the route: the worker is dead
    EXPECT_NE(response.body.find(R"("succeeded":0)"), std::string::npos) << response.body;
  }
}

}  // namespace
}  // namespace stepscope::testing
