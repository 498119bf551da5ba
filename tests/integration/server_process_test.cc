// The real `stepscope serve` process: where it says it listens, and what a huge chunked
// request body costs it in memory (its peak RSS, VmHWM, from /proc).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "tests/integration/http_test_client.h"
#include "tests/integration/remote_worker.h"
#include "tests/integration/server_test_util.h"

namespace stepscope::testing {
namespace {
using std::chrono::milliseconds;

// Peak resident set size of `pid` in KiB (VmHWM in /proc/PID/status), -1 if unreadable.
long PeakRssKib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

class ServerProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    logdir_ = ScratchDir("server_process_logdir");
    ASSERT_FALSE(WriteSyntheticRun(logdir_, "synthetic", "worker0", 2).empty());
    server_ = std::make_unique<BackgroundProcess>(
        std::vector<std::string>{STEPSCOPE_CLI_PATH, "serve", "--logdir", logdir_, "--port", "0"});
    ASSERT_TRUE(server_->WaitForOutput("stepscope: serving http://", std::chrono::seconds(30))) << server_->err();
    std::smatch match;
    std::string out = server_->out();
    ASSERT_TRUE(std::regex_search(out, match, std::regex(R"(http://127\.0\.0\.1:(\d+)/)"))) << out;
    port_ = std::stoi(match[1]);
  }

  std::string logdir_;
  std::unique_ptr<BackgroundProcess> server_;
  int port_ = 0;
};

TEST_F(ServerProcessTest, LogsTheLoopbackAddressItListensOn) {
  std::string expected = "stepscope: serve: listening on 127.0.0.1:" + std::to_string(port_) + " (loopback only";
  EXPECT_NE(server_->err().find(expected), std::string::npos) << server_->err();
}

// 64 MiB sent as a chunked body to the one POST endpoint. cpp-httplib alone buffered it
// whole (VmHWM +128 MiB); the front refuses it at 64 KiB and discards the rest.
// Measured: +60 to +120 KiB.
TEST_F(ServerProcessTest, AHugeChunkedBodyDoesNotGrowTheServer) {
  HttpTestConnection warmup(port_);
  ASSERT_TRUE(warmup.Send("GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  ASSERT_EQ(warmup.Read().status, 200);
  long before_kib = PeakRssKib(server_->pid());
  ASSERT_GT(before_kib, 0);

  HttpTestConnection client(port_);
  ASSERT_TRUE(client.Send("POST /api/capture HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n"));
  // 16 KiB chunks: each is under the cap, only their sum is not.
  const std::string chunk = "4000\r\n" + std::string(0x4000, ' ') + "\r\n";
  const int kChunks = 64 * 64;  // 64 MiB
  int sent = 0;
  // An attacker keeps sending after the early 413; the server discards the rest for a
  // while, then closes (Send fails).
  for (; sent < kChunks; ++sent) {
    if (!client.Send(chunk)) break;
  }
  if (sent == kChunks) client.Send("0\r\n\r\n");
  double sent_mib = sent / 64.0;
  HttpTestResponse response = client.Read(milliseconds(30000));
  long after_kib = PeakRssKib(server_->pid());
  std::printf("chunked POST: %.2f MiB sent, answer %d, server VmHWM %ld KiB -> %ld KiB (+%ld KiB)\n", sent_mib,
              response.status, before_kib, after_kib, after_kib - before_kib);
  EXPECT_EQ(response.status, 413) << response.head << response.body;
  EXPECT_LT(after_kib - before_kib, 4 * 1024);
  EXPECT_TRUE(server_->Alive());
}

}  // namespace
}  // namespace stepscope::testing
