// The profiler server in-process: a "training" thread runs steps while a gRPC client on
// loopback captures it, cancels, terminates, floods it and sends it garbage.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"
#include "src/xspace/xspace_io.h"
#include "stepscope/profiler_server.h"
#include "stepscope/session.h"
#include "stepscope/step.h"

namespace stepscope {
namespace {

using Clock = std::chrono::steady_clock;

// Runs numbered "train" steps of ~1 ms each until destroyed.
class FakeTraining {
 public:
  FakeTraining() : thread_([this] { Run(); }) {}
  ~FakeTraining() {
    stop_ = true;
    thread_.join();
  }
  int64_t steps() const { return steps_.load(); }

 private:
  void Run() {
    for (int64_t n = 0; !stop_; ++n) {
      Step step("train", n);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      steps_ = n + 1;
    }
  }
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> steps_{0};
  std::thread thread_;
};

class ProfilerServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ProfilerServerOptions options;
    options.max_duration_ms = 60000;
    auto server = StartProfilerServer(options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
    channel_ = grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials());
    stub_ = tensorflow::ProfilerService::NewStub(channel_);
  }

  static tensorflow::ProfileRequest Request(uint64_t duration_ms) {
    tensorflow::ProfileRequest request;
    request.mutable_opts()->set_version(1);
    request.mutable_opts()->set_duration_ms(duration_ms);
    request.mutable_opts()->set_host_tracer_level(2);
    request.set_emit_xspace(true);
    request.set_session_id("s");
    return request;
  }

  grpc::Status Profile(const tensorflow::ProfileRequest& request, tensorflow::ProfileResponse* response,
                       std::chrono::milliseconds deadline = std::chrono::seconds(30)) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + deadline);
    return stub_->Profile(&context, request, response);
  }

  std::unique_ptr<ProfilerServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<tensorflow::ProfilerService::Stub> stub_;
};

// Step numbers of the "train" events in the host plane, in time order per line.
std::vector<int64_t> StepNumbers(const xspace::XSpace& space) {
  std::vector<int64_t> steps;
  for (const auto& plane : space.planes()) {
    if (plane.name() != xspace::kHostThreadsPlaneName) continue;
    xspace::XPlaneVisitor visitor(&plane);
    visitor.ForEachLine([&](const xspace::XLineVisitor& line) {
      line.ForEachEvent([&](const xspace::XEventVisitor& event) {
        if (event.name() != "train") return;
        auto step = event.GetStat(xspace::StatType::kStepNum);
        if (step.has_value()) steps.push_back(step->IntValue());
      });
    });
  }
  return steps;
}

TEST_F(ProfilerServiceTest, ProfileRecordsTheRunningStepsForTheDuration) {
  FakeTraining training;
  tensorflow::ProfileResponse response;
  auto start = Clock::now();
  grpc::Status status = Profile(Request(300), &response);
  auto elapsed = Clock::now() - start;
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_GE(elapsed, std::chrono::milliseconds(300));
  EXPECT_FALSE(response.empty_trace());
  ASSERT_TRUE(response.has_xspace());
  std::vector<int64_t> steps = StepNumbers(response.xspace());
  ASSERT_GE(steps.size(), 20u) << "a 300 ms capture of ~1 ms steps";
  for (size_t i = 1; i < steps.size(); ++i) EXPECT_EQ(steps[i], steps[i - 1] + 1) << "at " << i;
  EXPECT_GT(training.steps(), steps.back());
}

TEST_F(ProfilerServiceTest, WithoutEmitXSpaceTheServerSavesIntoTheRepositoryLikeTensorFlow) {
  FakeTraining training;
  std::string root = std::string(::testing::TempDir()) + "/remote_repo_" + std::to_string(getpid());
  // A worker started with --profiler_repository <root>: TensorFlow's request lands below it.
  server_.reset();
  ProfilerServerOptions options;
  options.repository_root = root;
  auto server = StartProfilerServer(options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  server_ = std::move(server).value();
  stub_ = tensorflow::ProfilerService::NewStub(
      grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root(root + "/plugins/profile");
  request.set_session_id("run1");
  request.set_host_name("127.0.0.1:6009");
  tensorflow::ProfileResponse response;
  grpc::Status status = Profile(request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_FALSE(response.has_xspace());
  EXPECT_EQ(response.tool_data_size(), 0);  // TensorFlow's server returns no tool data
  auto space = xspace::ReadXSpaceFile(root + "/plugins/profile/run1/127.0.0.1_6009.xplane.pb");
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  EXPECT_FALSE(StepNumbers(*space).empty());
  std::filesystem::remove_all(root);
}

TEST_F(ProfilerServiceTest, DurationZeroAndAbsurdDurationsAreInvalidArgument) {
  tensorflow::ProfileResponse response;
  grpc::Status status = Profile(Request(0), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("duration_ms is 0"), std::string::npos);
  status = Profile(Request(uint64_t{1} << 62), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("limit"), std::string::npos);
}

TEST_F(ProfilerServiceTest, ConcurrentCapturesOneWinsTheOtherIsBusy) {
  FakeTraining training;
  constexpr int kClients = 4;
  std::vector<grpc::Status> statuses(kClients);
  std::vector<tensorflow::ProfileResponse> responses(kClients);
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&, i] { statuses[i] = Profile(Request(500), &responses[i]); });
  }
  for (std::thread& client : clients) client.join();
  int ok = 0, busy = 0;
  for (int i = 0; i < kClients; ++i) {
    if (statuses[i].ok()) {
      ++ok;
      EXPECT_FALSE(responses[i].empty_trace());
    } else {
      EXPECT_EQ(statuses[i].error_code(), grpc::StatusCode::ALREADY_EXISTS) << statuses[i].error_message();
      EXPECT_NE(statuses[i].error_message().find("busy"), std::string::npos);
      ++busy;
    }
  }
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(busy, kClients - 1);
  // The slot is free again afterwards.
  tensorflow::ProfileResponse response;
  EXPECT_TRUE(Profile(Request(50), &response).ok());
}

TEST_F(ProfilerServiceTest, AProgrammaticSessionMakesTheServerBusy) {
  auto session = Session::Start();
  ASSERT_TRUE(session.ok());
  tensorflow::ProfileResponse response;
  grpc::Status status = Profile(Request(50), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_NE(status.error_message().find("own stepscope profiling session"), std::string::npos);
  ASSERT_TRUE((*session)->Stop().ok());
}

TEST_F(ProfilerServiceTest, TerminateEndsTheCaptureEarlyAndSuccessfully) {
  FakeTraining training;
  tensorflow::ProfileResponse response;
  grpc::Status status;
  auto start = Clock::now();
  std::thread capture([&] { status = Profile(Request(20000), &response); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  {
    grpc::ClientContext context;
    tensorflow::TerminateRequest request;
    request.set_session_id("other");  // not the active one: ignored
    tensorflow::TerminateResponse terminate_response;
    ASSERT_TRUE(stub_->Terminate(&context, request, &terminate_response).ok());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  {
    grpc::ClientContext context;
    tensorflow::TerminateRequest request;
    request.set_session_id("s");
    tensorflow::TerminateResponse terminate_response;
    ASSERT_TRUE(stub_->Terminate(&context, request, &terminate_response).ok());
  }
  capture.join();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_GE(StepNumbers(response.xspace()).size(), 10u);
}

TEST_F(ProfilerServiceTest, ClientDisconnectEndsTheSessionAndFreesTheSlot) {
  FakeTraining training;
  tensorflow::ProfileResponse response;
  auto start = Clock::now();
  grpc::Status status = Profile(Request(30000), &response, std::chrono::milliseconds(300));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  // The server notices within its poll interval and stops the session.
  auto wait_until = Clock::now() + std::chrono::seconds(5);
  while (Clock::now() < wait_until) {
    auto session = Session::Start();
    if (session.ok()) {
      ASSERT_TRUE((*session)->Stop().ok());
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_LT(Clock::now(), wait_until) << "the server kept recording after its client left";
  int64_t before = training.steps();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(training.steps(), before) << "training must keep running";
  EXPECT_TRUE(Profile(Request(50), &response).ok());
}

TEST_F(ProfilerServiceTest, MonitorIsUnimplementedLikeTensorFlowsOpenSourceServer) {
  grpc::ClientContext context;
  tensorflow::MonitorRequest request;
  request.set_duration_ms(100);
  tensorflow::MonitorResponse response;
  EXPECT_EQ(stub_->Monitor(&context, request, &response).error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(ProfilerServiceTest, StopDuringACaptureEndsItPromptly) {
  FakeTraining training;
  tensorflow::ProfileResponse response;
  grpc::Status status;
  std::thread capture([&] { status = Profile(Request(30000), &response); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto start = Clock::now();
  server_->Stop();
  capture.join();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  EXPECT_FALSE(IsProfiling());
  auto session = Session::Start();
  EXPECT_TRUE(session.ok()) << "the server's session must be stopped";
}

TEST(ProfilerServerTest, APortInUseIsReportedNotShared) {
  ProfilerServerOptions options;
  auto first = StartProfilerServer(options);
  ASSERT_TRUE(first.ok());
  options.port = (*first)->port();
  auto second = StartProfilerServer(options);
  ASSERT_FALSE(second.ok()) << "SO_REUSEPORT must be off";
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find(std::to_string(options.port)), std::string::npos);
  EXPECT_EQ(StartProfilerServer(70000).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace stepscope
