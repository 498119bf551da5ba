// A real training process with a profiler server under hostile and clumsy clients:
// malformed and oversized requests, duration 0 and absurd durations, concurrent
// captures, a client that disconnects mid-capture, a raw TCP client sending garbage.
// The process must keep training, and its own output must equal that of the same run
// without a server (the loss lines are deterministic for a seed).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "tests/integration/remote_raw_call.h"
#include "tests/integration/remote_test_util.h"

namespace stepscope::testing {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

// ~25 ms steps: about 15 s, long enough for every client below with room to spare.
constexpr int kSteps = 600;

std::vector<std::string> LinesStartingWith(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  }
  return lines;
}

tensorflow::ProfileRequest Request(uint64_t duration_ms) {
  tensorflow::ProfileRequest request;
  request.mutable_opts()->set_version(1);
  request.mutable_opts()->set_host_tracer_level(2);
  request.mutable_opts()->set_duration_ms(duration_ms);
  request.set_emit_xspace(true);
  request.set_session_id("robustness");
  return request;
}

grpc::Status Profile(tensorflow::ProfilerService::Stub& stub, const tensorflow::ProfileRequest& request,
                     tensorflow::ProfileResponse* response,
                     std::chrono::milliseconds deadline = std::chrono::seconds(30)) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + deadline);
  return stub.Profile(&context, request, response);
}

void SendGarbageOverTcp(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0) {
    const char garbage[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n\x00\x01\x02 not http2 at all";
    [[maybe_unused]] ssize_t written = ::write(fd, garbage, sizeof(garbage));
  }
  ::close(fd);
}

TEST(RemoteRobustnessTest, TrainingKeepsRunningAndItsOutputIsUnaffected) {
  std::string data_dir = ScratchDir("robustness_data");
  ASSERT_TRUE(PrepareTrainingData(data_dir));
  BackgroundProcess baseline(LightTrainingArgs(data_dir, kSteps));
  Worker worker = StartWorker(data_dir, kSteps);
  ASSERT_NE(worker.port, 0);
  auto channel = grpc::CreateChannel(worker.address(), grpc::InsecureChannelCredentials());
  auto stub = tensorflow::ProfilerService::NewStub(channel);
  tensorflow::ProfileResponse response;

  // Duration 0 and absurd durations.
  grpc::Status status = Profile(*stub, Request(0), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("duration_ms is 0"));
  status = Profile(*stub, Request(uint64_t{1} << 60), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("limit"));

  // Malformed and oversized messages; garbage that is not even HTTP/2.
  EXPECT_FALSE(CallRaw(channel, "/tensorflow.ProfilerService/Profile", std::string("\x22\xff\xff\x7f", 4)).status.ok());
  tensorflow::ProfileRequest oversized = Request(100);
  oversized.set_repository_root(std::string(1 << 20, 'x'));
  status = Profile(*stub, oversized, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  SendGarbageOverTcp(worker.port);

  // Concurrent captures: exactly one wins, the others are told the process is busy.
  constexpr int kClients = 3;
  std::vector<grpc::Status> statuses(kClients);
  std::vector<tensorflow::ProfileResponse> responses(kClients);
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&, i] { statuses[i] = Profile(*stub, Request(800), &responses[i]); });
  }
  for (std::thread& client : clients) client.join();
  int ok = 0;
  for (int i = 0; i < kClients; ++i) {
    if (statuses[i].ok()) {
      ++ok;
      EXPECT_FALSE(responses[i].empty_trace());
    } else {
      EXPECT_EQ(statuses[i].error_code(), grpc::StatusCode::ALREADY_EXISTS) << statuses[i].error_message();
      EXPECT_THAT(statuses[i].error_message(), HasSubstr("busy"));
    }
  }
  EXPECT_EQ(ok, 1);

  // A client that goes away mid-capture: the server ends the session and is free again.
  auto start = Clock::now();
  status = Profile(*stub, Request(20000), &response, std::chrono::milliseconds(300));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  bool captured_again = false;
  while (!captured_again && Clock::now() - start < std::chrono::seconds(5)) {
    tensorflow::ProfileResponse again;
    captured_again = Profile(*stub, Request(200), &again).ok();
    if (!captured_again) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(captured_again) << "the server stayed busy after its client disconnected";

  EXPECT_TRUE(worker.process->Alive()) << "the training process must survive every client above";
  ASSERT_EQ(worker.process->WaitForExit(std::chrono::minutes(3)), 0) << worker.process->err();
  ASSERT_EQ(baseline.WaitForExit(std::chrono::minutes(3)), 0) << baseline.err();
  std::string out = worker.process->out();
  EXPECT_THAT(out, HasSubstr("mnist_mlp: steps=" + std::to_string(kSteps)));
  std::vector<std::string> with_server = LinesStartingWith(out, "step ");
  std::vector<std::string> without_server = LinesStartingWith(baseline.out(), "step ");
  EXPECT_EQ(with_server.size(), static_cast<size_t>(kSteps / 50));
  EXPECT_EQ(with_server, without_server) << "loss and accuracy lines must not change";
  EXPECT_EQ(worker.process->err(), ListeningLine(worker.port))
      << "the training process reported problems (it should only say where it listens)";
}

}  // namespace
}  // namespace stepscope::testing
