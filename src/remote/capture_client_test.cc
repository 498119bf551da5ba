// The capture client against scripted fake servers (retries, old-server fallbacks) and
// against the real in-process server (one live worker, one dead).
#include "src/remote/capture_client.h"

#include <arpa/inet.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "src/base/file_io.h"
#include "src/remote/multi_worker_capture.h"
#include "src/xspace/logdir.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"
#include "stepscope/profiler_server.h"
#include "stepscope/session.h"
#include "stepscope/step.h"

namespace stepscope::remote {
namespace {

using Clock = std::chrono::steady_clock;

// Answers Profile from a script, one entry per call; records what it was asked.
class ScriptedService final : public tensorflow::ProfilerService::Service {
 public:
  struct Answer {
    grpc::Status status;
    tensorflow::ProfileResponse response;
  };
  void Add(Answer answer) { script_.push_back(std::move(answer)); }
  int calls() const { return calls_; }
  tensorflow::ProfileRequest last_request() {
    std::lock_guard<std::mutex> lock(mu_);
    return last_request_;
  }

  grpc::Status Profile(grpc::ServerContext*, const tensorflow::ProfileRequest* request,
                       tensorflow::ProfileResponse* response) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++calls_;
    last_request_ = *request;
    if (script_.empty()) return grpc::Status(grpc::StatusCode::INTERNAL, "script exhausted");
    Answer answer = std::move(script_.front());
    script_.pop_front();
    *response = answer.response;
    return answer.status;
  }

 private:
  std::mutex mu_;
  std::deque<Answer> script_;
  std::atomic<int> calls_{0};
  tensorflow::ProfileRequest last_request_;
};

class FakeServer {
 public:
  FakeServer() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
  }
  ~FakeServer() { server_->Shutdown(); }
  ScriptedService& service() { return service_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  ScriptedService service_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

tensorflow::ProfileResponse ResponseWithEvents() {
  tensorflow::ProfileResponse response;
  auto* plane = response.mutable_xspace()->add_planes();
  plane->set_name("/host:CPU");
  (*plane->mutable_event_metadata())[1].set_id(1);
  (*plane->mutable_event_metadata())[1].set_name("train");
  auto* line = plane->add_lines();
  line->set_id(7);
  line->add_events()->set_metadata_id(1);
  line->add_events()->set_metadata_id(1);
  return response;
}

CaptureOptions Options(const std::string& logdir) {
  CaptureOptions options;
  options.logdir = logdir;
  options.run = "run";
  options.duration_ms = 100;
  options.retry_backoff_ms = 10;
  options.connect_timeout_ms = 2000;
  return options;
}

std::string FreshLogdir(const std::string& name) {
  std::string dir = std::string(::testing::TempDir()) + "/capture_client_" + std::to_string(getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(CaptureClientTest, RequestCarriesTensorFlowFieldsAndEmitXSpace) {
  CaptureOptions options = Options("/tmp/l");
  options.host_tracer_level = 3;
  options.device_tracer_level = 0;
  options.python_tracer_level = 1;
  tensorflow::ProfileRequest request = BuildProfileRequest("10.0.0.1:6009", options, "r1", 123);
  EXPECT_EQ(request.duration_ms(), 100u);
  EXPECT_EQ(request.opts().duration_ms(), 100u);
  EXPECT_EQ(request.opts().version(), 1u);
  EXPECT_EQ(request.opts().host_tracer_level(), 3u);
  EXPECT_EQ(request.opts().device_tracer_level(), 0u);
  EXPECT_EQ(request.opts().python_tracer_level(), 1u);
  EXPECT_EQ(request.opts().start_timestamp_ns(), 123u);
  EXPECT_EQ(request.max_events(), 1000000u);
  EXPECT_EQ(request.repository_root(), "/tmp/l/plugins/profile");
  EXPECT_EQ(request.session_id(), "r1");
  EXPECT_EQ(request.host_name(), "10.0.0.1:6009");
  EXPECT_TRUE(request.emit_xspace());
  EXPECT_EQ(request.tools(request.tools_size() - 1), "xplane.pb");
}

TEST(CaptureClientTest, DeadlineIsTensorFlowsMaxSessionDuration) {
  CaptureOptions options = Options("/tmp/l");
  options.duration_ms = 2000;
  EXPECT_EQ(CaptureDeadlineMs(options), 60000u);
  options.duration_ms = 45000;
  options.delay_ms = 500;
  EXPECT_EQ(CaptureDeadlineMs(options), 90500u);
}

TEST(CaptureClientTest, RetriesUnavailableBusyStreamRemovedAndEmptyThenSaves) {
  FakeServer server;
  tensorflow::ProfileResponse empty;
  empty.set_empty_trace(true);
  server.service().Add({grpc::Status(grpc::StatusCode::UNAVAILABLE, "starting"), {}});
  server.service().Add({grpc::Status(grpc::StatusCode::ALREADY_EXISTS, "busy"), {}});
  server.service().Add({grpc::Status(grpc::StatusCode::UNKNOWN, "Stream removed"), {}});
  server.service().Add({grpc::Status::OK, empty});
  server.service().Add({grpc::Status::OK, ResponseWithEvents()});
  std::string logdir = FreshLogdir("retries");
  CaptureOptions options = Options(logdir);
  options.retries = 4;
  std::vector<std::string> progress;
  options.progress = [&](std::string_view line) { progress.emplace_back(line); };
  WorkerCapture worker = CaptureWorker(server.address(), options, "run", 0);
  ASSERT_TRUE(worker.status.ok()) << worker.status.ToString();
  EXPECT_EQ(worker.attempts, 5);
  EXPECT_EQ(progress.size(), 4u);
  EXPECT_EQ(worker.event_count, 2u);
  EXPECT_EQ(worker.dropped_events, std::nullopt) << "the response has no dropped_traces stat";
  EXPECT_EQ(worker.path, logdir + "/plugins/profile/run/" + worker.host + ".xplane.pb");
  EXPECT_EQ(worker.host.find(':'), std::string::npos);
  auto space = xspace::ReadXSpaceFile(worker.path);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  EXPECT_EQ(space->planes(0).lines(0).events_size(), 2);
  std::filesystem::remove_all(logdir);
}

TEST(CaptureClientTest, DroppedEventsAndWarningsOfTheProfileAreReported) {
  FakeServer server;
  tensorflow::ProfileResponse response = ResponseWithEvents();
  xspace::XPlaneBuilder(response.mutable_xspace()->mutable_planes(0))
      .AddStatValue(xspace::StatType::kDroppedTraces, int64_t{42});
  response.mutable_xspace()->add_warnings("42 host events were dropped because a thread's buffer was full");
  server.service().Add({grpc::Status::OK, response});
  std::string logdir = FreshLogdir("dropped");
  WorkerCapture worker = CaptureWorker(server.address(), Options(logdir), "run", 0);
  ASSERT_TRUE(worker.status.ok()) << worker.status.ToString();
  EXPECT_EQ(worker.dropped_events, 42);
  EXPECT_EQ(worker.warnings, std::vector<std::string>{"42 host events were dropped because a thread's buffer was full"});
  std::filesystem::remove_all(logdir);
}

TEST(CaptureClientTest, RetriesRunOutAndTheLastProblemIsReported) {
  FakeServer server;
  tensorflow::ProfileResponse empty;
  empty.set_empty_trace(true);
  for (int i = 0; i < 3; ++i) server.service().Add({grpc::Status::OK, empty});
  CaptureOptions options = Options(FreshLogdir("empty"));
  options.retries = 2;
  WorkerCapture worker = CaptureWorker(server.address(), options, "run", 0);
  EXPECT_FALSE(worker.status.ok());
  EXPECT_EQ(worker.attempts, 3);
  EXPECT_EQ(server.service().calls(), 3);
  EXPECT_NE(worker.status.message().find("came back empty"), std::string::npos);
  EXPECT_NE(worker.status.message().find("after 3 attempts"), std::string::npos);
}

TEST(CaptureClientTest, NonRetryableErrorsAreFinalAndNamed) {
  FakeServer server;
  server.service().Add({grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "duration_ms is 0"), {}});
  CaptureOptions options = Options(FreshLogdir("final"));
  WorkerCapture worker = CaptureWorker(server.address(), options, "run", 0);
  EXPECT_EQ(worker.attempts, 1);
  EXPECT_EQ(worker.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(worker.status.message().find("INVALID_ARGUMENT: duration_ms is 0"), std::string::npos);
}

TEST(CaptureClientTest, OldServerToolDataIsSavedAsHostDotName) {
  FakeServer server;
  tensorflow::ProfileResponse response;
  auto* tool = response.add_tool_data();
  tool->set_name("xplane.pb");
  tensorflow::profiler::XSpace space;
  space.add_planes()->set_name("/host:CPU");
  space.SerializeToString(tool->mutable_data());
  server.service().Add({grpc::Status::OK, response});
  std::string logdir = FreshLogdir("tooldata");
  WorkerCapture worker = CaptureWorker(server.address(), Options(logdir), "run", 0);
  ASSERT_TRUE(worker.status.ok()) << worker.status.ToString();
  EXPECT_EQ(worker.path, logdir + "/plugins/profile/run/" + worker.host + ".xplane.pb");
  EXPECT_NE(worker.note.find("tool data"), std::string::npos);
  EXPECT_TRUE(xspace::ReadXSpaceFile(worker.path).ok());
  std::filesystem::remove_all(logdir);
}

// A worker that answers with bytes that are no profile: reported as a failure, and
// nothing is left in the logdir (it used to say "ok" and save 21 bytes `info` refused).
TEST(CaptureClientTest, BytesThatAreNoProfileAreNotSaved) {
  FakeServer server;
  tensorflow::ProfileResponse garbage;
  auto* tool = garbage.add_tool_data();
  tool->set_name("xplane.pb");
  tool->set_data("not a profile at all");
  tensorflow::ProfileResponse no_profile;
  no_profile.add_tool_data()->set_name("trace.json.gz");
  tensorflow::ProfileResponse empty_space;
  empty_space.mutable_xspace()->add_hostnames("h");  // an XSpace without a plane
  for (const auto& response : {garbage, no_profile, empty_space}) server.service().Add({grpc::Status::OK, response});
  std::string logdir = FreshLogdir("garbage");
  for (const char* shape : {"garbage bytes", "no xplane.pb", "no planes"}) {
    WorkerCapture worker = CaptureWorker(server.address(), Options(logdir), "run", 0);
    EXPECT_EQ(worker.status.code(), StatusCode::kDataLoss) << shape << ": " << worker.status.ToString();
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(logdir, ec)) {
    EXPECT_FALSE(entry.is_regular_file()) << "left behind: " << entry.path();
  }
  std::filesystem::remove_all(logdir);
}

// A second capture into the same run and host keeps the first, unless asked to replace it.
TEST(CaptureClientTest, AHostFileIsReplacedOnlyWithOverwrite) {
  FakeServer server;
  auto response_with_events = [](int64_t events) {
    tensorflow::ProfileResponse response;
    xspace::XPlaneBuilder host(response.mutable_xspace()->add_planes());
    host.SetName(xspace::kHostThreadsPlaneName);
    xspace::XLineBuilder line = host.GetOrCreateLine(1);
    for (int64_t i = 0; i < events; ++i) line.AddEvent(*host.GetOrCreateEventMetadata("train")).SetDurationPs(1000);
    return response;
  };
  for (int64_t events : {1, 2, 3}) server.service().Add({grpc::Status::OK, response_with_events(events)});
  std::string logdir = FreshLogdir("overwrite");
  WorkerCapture first = CaptureWorker(server.address(), Options(logdir), "run", 0);
  ASSERT_TRUE(first.status.ok()) << first.status.ToString();
  WorkerCapture second = CaptureWorker(server.address(), Options(logdir), "run", 0);
  EXPECT_EQ(second.status.code(), StatusCode::kAlreadyExists) << second.status.ToString();
  EXPECT_EQ(xspace::ReadXSpaceFile(first.path)->planes(0).lines(0).events_size(), 1) << "the first capture stays";
  CaptureOptions overwrite = Options(logdir);
  overwrite.overwrite = true;
  WorkerCapture third = CaptureWorker(server.address(), overwrite, "run", 0);
  ASSERT_TRUE(third.status.ok()) << third.status.ToString();
  EXPECT_EQ(xspace::ReadXSpaceFile(first.path)->planes(0).lines(0).events_size(), 3);
  std::filesystem::remove_all(logdir);
}

TEST(CaptureClientTest, OldServerThatSavedItselfIsAcceptedOnlyIfTheFileIsVisible) {
  FakeServer server;
  server.service().Add({grpc::Status::OK, {}});  // not empty, no xspace, no tool data
  server.service().Add({grpc::Status::OK, {}});
  std::string logdir = FreshLogdir("serversaved");
  WorkerCapture worker = CaptureWorker(server.address(), Options(logdir), "run", 0);
  EXPECT_EQ(worker.status.code(), StatusCode::kUnimplemented);
  EXPECT_NE(worker.status.message().find("own filesystem"), std::string::npos);

  std::string path = logdir + "/plugins/profile/run/" + worker.host + ".xplane.pb";
  ASSERT_TRUE(base::CreateDirectories(logdir + "/plugins/profile/run").ok());
  // A file that is no profile (an empty XSpace parses from any empty bytes) is refused,
  // as `info` would refuse it.
  ASSERT_TRUE(xspace::WriteXSpaceFile(path, tensorflow::profiler::XSpace()).ok());
  server.service().Add({grpc::Status::OK, {}});
  worker = CaptureWorker(server.address(), Options(logdir), "run", 0);
  EXPECT_EQ(worker.status.code(), StatusCode::kDataLoss) << worker.status.ToString();
  tensorflow::profiler::XSpace space;
  space.add_planes()->set_name("/host:CPU");
  ASSERT_TRUE(xspace::WriteXSpaceFile(path, space).ok());
  worker = CaptureWorker(server.address(), Options(logdir), "run", 0);
  ASSERT_TRUE(worker.status.ok()) << worker.status.ToString();
  EXPECT_EQ(worker.path, path);
  EXPECT_EQ(worker.note, "saved by the server");
  std::filesystem::remove_all(logdir);
}

TEST(CaptureClientTest, LiveAndDeadWorkersInOneRun) {
  ProfilerServerOptions server_options;
  auto server = StartProfilerServer(server_options);
  ASSERT_TRUE(server.ok());
  // A port that was just free: nothing listens there.
  int dead_port = 0;
  {
    auto probe = StartProfilerServer(server_options);
    ASSERT_TRUE(probe.ok());
    dead_port = (*probe)->port();
  }
  std::atomic<bool> stop{false};
  std::thread training([&] {
    for (int64_t n = 0; !stop; ++n) {
      Step step("train", n);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  std::string logdir = FreshLogdir("livedead");
  CaptureOptions options = Options(logdir);
  options.retries = 2;
  std::string dead = "127.0.0.1:" + std::to_string(dead_port);
  auto start = Clock::now();
  auto result = CaptureWorkers({(*server)->address(), dead}, options);
  auto elapsed = Clock::now() - start;
  stop = true;
  training.join();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->succeeded(), 1);
  EXPECT_TRUE(result->workers[0].status.ok()) << result->workers[0].status.ToString();
  EXPECT_GT(result->workers[0].event_count, 0u);
  EXPECT_EQ(result->workers[0].dropped_events, 0) << "a stepscope worker counts its drops";
  EXPECT_EQ(result->workers[1].dropped_events, std::nullopt);
  EXPECT_EQ(result->workers[1].address, dead);
  EXPECT_EQ(result->workers[1].status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(result->workers[1].attempts, 3);
  EXPECT_LT(elapsed, std::chrono::seconds(10));
  auto hosts = xspace::ListHosts(result->run_dir);
  ASSERT_TRUE(hosts.ok());
  ASSERT_EQ(hosts->size(), 1u);
  EXPECT_EQ((*hosts)[0].host, "127.0.0.1_" + std::to_string((*server)->port()));
  std::filesystem::remove_all(logdir);
}

TEST(CaptureClientTest, InvalidOptionsFailBeforeAnyRpc) {
  CaptureOptions options = Options("/tmp/x");
  options.duration_ms = 0;
  EXPECT_EQ(CaptureWorkers({"h:1"}, options).status().code(), StatusCode::kInvalidArgument);
  options = Options("");
  EXPECT_EQ(CaptureWorkers({"h:1"}, options).status().code(), StatusCode::kInvalidArgument);
  options = Options("/tmp/x");
  options.run = "../up";
  EXPECT_EQ(CaptureWorkers({"h:1"}, options).status().code(), StatusCode::kInvalidArgument);
  options = Options("/tmp/x");
  EXPECT_EQ(CaptureWorkers({"nohostport"}, options).status().code(), StatusCode::kInvalidArgument);
}


// A listening socket that nobody accepts from: a connection to it would wait in its
// backlog, where a non-blocking accept() finds it.
class SilentListener {
 public:
  SilentListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 && ::listen(fd_, 64) == 0 &&
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
      port_ = ntohs(address.sin_port);
    }
  }
  ~SilentListener() { ::close(fd_); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  bool WasConnected() {
    int client = ::accept(fd_, nullptr, nullptr);
    if (client < 0) return false;
    ::close(client);
    return true;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// The listener first, then `count - 1` other distinct addresses (nothing listens there).
std::vector<std::string> ManyAddresses(const SilentListener& listener, int count) {
  std::vector<std::string> addresses = {listener.address()};
  for (int i = 1; i < count; ++i) addresses.push_back("127.0.0.2:" + std::to_string(10000 + i));
  return addresses;
}

TEST(CaptureBoundsTest, MoreWorkersThanTheCapAreRefusedBeforeAnyConnection) {
  SilentListener listener;
  CaptureOptions options = Options(FreshLogdir("too_many"));
  auto start = Clock::now();
  auto result = CaptureWorkers(ManyAddresses(listener, kDefaultMaxCaptureWorkers + 1), options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(result.status().message(),
            "257 workers in one capture, over the limit of 256 (max_workers); capture them in batches or raise "
            "the limit");
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(500));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(listener.WasConnected()) << "refused requests must not open connections";

  options.max_workers = 2;
  result = CaptureWorkers(ManyAddresses(listener, 3), options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("3 workers in one capture, over the limit of 2"), std::string::npos);
  EXPECT_FALSE(listener.WasConnected());
}

TEST(CaptureBoundsTest, AResponseBudgetTooSmallForTheWorkersIsRefusedBeforeAnyConnection) {
  SilentListener listener;
  CaptureOptions options = Options(FreshLogdir("small_budget"));
  options.max_response_bytes = 3 * kMinResponseBytesPerWorker;  // 0.75 MiB each for 4
  auto result = CaptureWorkers(ManyAddresses(listener, 4), options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(result.status().message().find("max_response_bytes 3145728 leaves 786432 bytes per worker for 4 workers"),
            std::string::npos)
      << result.status().message();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(listener.WasConnected());

  // The default 2 GiB covers the default 256 workers with 8 MiB each.
  EXPECT_TRUE(CheckCaptureBounds(kDefaultMaxCaptureWorkers, Options("/tmp/x")).ok());
  EXPECT_EQ(ResponseBytesPerWorker(Options("/tmp/x"), 256), uint64_t{8} << 20);
  options.max_response_bytes = kMinResponseBytesPerWorker - 1;
  EXPECT_EQ(ValidateCaptureOptions(options).code(), StatusCode::kInvalidArgument);
  options = Options("/tmp/x");
  options.max_workers = 0;
  EXPECT_EQ(ValidateCaptureOptions(options).code(), StatusCode::kInvalidArgument);
}

// A response with one event whose name holds `bytes` bytes.
tensorflow::ProfileResponse ResponseOfSize(size_t bytes) {
  tensorflow::ProfileResponse response = ResponseWithEvents();
  (*response.mutable_xspace()->mutable_planes(0)->mutable_event_metadata())[1].set_name(std::string(bytes, 'x'));
  return response;
}

TEST(CaptureBoundsTest, AProfileOverItsWorkersShareFailsThatWorkerNamingTheLimit) {
  FakeServer big, small;
  big.service().Add({grpc::Status::OK, ResponseOfSize(3 << 20)});
  small.service().Add({grpc::Status::OK, ResponseOfSize(1 << 20)});
  std::string logdir = FreshLogdir("share");
  CaptureOptions options = Options(logdir);
  options.max_response_bytes = uint64_t{4} << 20;  // 2 MiB for each of two workers
  auto result = CaptureWorkers({big.address(), small.address()}, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const WorkerCapture& over = result->workers[0];
  EXPECT_EQ(over.status.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(over.attempts, 1) << "a profile over the limit is not retried";
  EXPECT_NE(over.status.message().find("larger than the 2097152 bytes this capture may hold per worker"),
            std::string::npos)
      << over.status.message();
  EXPECT_NE(over.status.message().find("max_response_bytes"), std::string::npos);
  EXPECT_TRUE(result->workers[1].status.ok()) << result->workers[1].status.ToString();
  EXPECT_EQ(result->succeeded(), 1);
  std::filesystem::remove_all(logdir);
}

}  // namespace
}  // namespace stepscope::remote
