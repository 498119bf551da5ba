// Multi-worker capture on loopback with real processes: three instrumented example
// programs, each with its own profiler server, captured by one `stepscope capture`.
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include <grpcpp/grpcpp.h>

#include "proto/stepscope/profiler_service.grpc.pb.h"
#include "src/xspace/logdir.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "tests/integration/remote_test_util.h"

namespace stepscope::testing {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

class RemoteCaptureTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_dir_ = new std::string(ScratchDir("remote_data"));
    ASSERT_TRUE(PrepareTrainingData(*data_dir_));
  }
  static std::string* data_dir_;
};
std::string* RemoteCaptureTest::data_dir_ = nullptr;

TEST_F(RemoteCaptureTest, ThreeWorkersLandInOneRunThenAKilledWorkerIsNamed) {
  std::vector<Worker> workers;
  for (int i = 0; i < 3; ++i) {
    workers.push_back(StartWorker(*data_dir_, 100000));
    ASSERT_NE(workers.back().port, 0) << "worker " << i << " did not start";
  }
  std::string targets;
  for (const Worker& worker : workers) targets += (targets.empty() ? "grpc://" : ",grpc://") + worker.address();
  std::string logdir = ScratchDir("remote_capture_logdir");

  RunResult capture = RunStepscopeCli({"capture", targets, "--logdir", logdir, "--duration_ms", "2000",
                                        "--run", "all3", "--retries", "2"});
  ASSERT_EQ(capture.exit_code, 0) << capture.out << capture.err;
  EXPECT_THAT(capture.out, HasSubstr("3 of 3 workers captured"));
  auto hosts = xspace::ListHosts(logdir + "/plugins/profile/all3");
  ASSERT_TRUE(hosts.ok()) << hosts.status().ToString();
  ASSERT_EQ(hosts->size(), 3u);
  for (const Worker& worker : workers) {
    std::string path = logdir + "/plugins/profile/all3/" + xspace::SanitizeHostName(worker.address()) + ".xplane.pb";
    std::vector<int64_t> steps = StepNumbersInFile(path);
    // ~25 ms steps over 2 s; a loaded machine slows them, so only a floor is asserted.
    EXPECT_GE(steps.size(), 5u) << path;
    EXPECT_TRUE(Consecutive(steps)) << path << ": step numbers must be consecutive";
    EXPECT_THAT(capture.out, ::testing::ContainsRegex(worker.address() + "  ok .* events  0 dropped  "));
  }

  // The captured run analysed as a pod: three workers, each with its steps, and the
  // breakdown of this configuration (reads sleep inside the input pipeline, so nearly
  // the whole step waits for input; the example itself reports ~98 %).
  RunResult pod = RunStepscopeCli({"analyze", logdir, "--run", "all3", "--tool", "pod_viewer", "--format", "json"});
  ASSERT_EQ(pod.exit_code, 0) << pod.err;
  EXPECT_THAT(pod.out, HasSubstr("\"host_count\": 3"));
  // Workers are listed in host-file order; the first three input_percent fields after
  // "workers" are theirs (the steps table has none).
  size_t at = pod.out.find("\"workers\": [");
  ASSERT_NE(at, std::string::npos) << pod.out;
  for (int i = 0; i < 3; ++i) {
    at = pod.out.find("\"input_percent\": ", at);
    ASSERT_NE(at, std::string::npos) << pod.out;
    at += 17;
    double input_percent = std::stod(pod.out.substr(at, 12));
    EXPECT_GT(input_percent, 60.0) << "worker " << i << ": the light configuration is input bound";
  }

  // One worker dies; the other two still land and the dead one is named.
  workers[1].process->Kill();
  auto start = Clock::now();
  capture = RunStepscopeCli({"capture", targets, "--logdir", logdir, "--duration_ms", "1000", "--run", "two",
                          "--retries", "1"});
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
  ASSERT_EQ(capture.exit_code, 0) << capture.out << capture.err;
  EXPECT_THAT(capture.out, HasSubstr("2 of 3 workers captured"));
  EXPECT_THAT(capture.out, HasSubstr(workers[1].address() + "  FAILED"));
  EXPECT_THAT(capture.out, HasSubstr("Connection refused"));
  hosts = xspace::ListHosts(logdir + "/plugins/profile/two");
  ASSERT_TRUE(hosts.ok());
  ASSERT_EQ(hosts->size(), 2u);
  for (const auto& host : *hosts) EXPECT_NE(host.host, xspace::SanitizeHostName(workers[1].address()));
  EXPECT_TRUE(workers[0].process->Alive());
  EXPECT_TRUE(workers[2].process->Alive());
}

TEST_F(RemoteCaptureTest, ATracerLevelTheWorkerCannotActOnIsReportedPerWorkerAndKeptInTheProfile) {
  Worker worker = StartWorker(*data_dir_, 100000);
  ASSERT_NE(worker.port, 0);
  std::string logdir = ScratchDir("remote_levels_logdir");

  // Device level 0: nothing to warn about.
  RunResult plain = RunStepscopeCli({"capture", "grpc://" + worker.address(), "--logdir", logdir, "--duration_ms",
                                     "300", "--run", "plain", "--device_tracer_level", "0"});
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  // (Other diagnostics of the window, e.g. an input fetch cut by its start, may appear.)
  EXPECT_THAT(plain.err, ::testing::Not(HasSubstr("tracer level")));

  // The default is 1, as TensorBoard's: a worker without a device tracer says so.
  RunResult asked = RunStepscopeCli({"capture", "grpc://" + worker.address(), "--logdir", logdir, "--duration_ms",
                                     "300", "--run", "device"});
  ASSERT_EQ(asked.exit_code, 0) << asked.out << asked.err;
  const std::string warning =
      "device tracer level 1 requested: no device tracer is built into this process; no GPU activity recorded";
  EXPECT_THAT(asked.err, HasSubstr("stepscope: capture: " + worker.address() + ": warning: " + warning + "\n"));
  // The same words in the profile's diagnostics, as `stepscope info` shows them.
  std::string path = logdir + "/plugins/profile/device/" + xspace::SanitizeHostName(worker.address()) + ".xplane.pb";
  RunResult info = RunStepscopeCli({"info", path});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_THAT(info.out, HasSubstr(warning));
  // The worker said so on its own stderr too, when the capture started.
  EXPECT_THAT(worker.process->err(), HasSubstr("stepscope: " + warning));
}

// A worker (as TensorFlow's, or a stepscope worker under load) whose profile says it
// dropped events and carries a warning: answered by a service in this test process.
class DroppingWorker final : public tensorflow::ProfilerService::Service {
 public:
  grpc::Status Profile(grpc::ServerContext*, const tensorflow::ProfileRequest*,
                       tensorflow::ProfileResponse* response) override {
    tensorflow::profiler::XSpace* space = response->mutable_xspace();
    xspace::XPlaneBuilder host(xspace::FindOrAddMutablePlaneWithName(space, xspace::kHostThreadsPlaneName));
    host.AddStatValue(xspace::StatType::kDroppedTraces, int64_t{1234});
    xspace::XLineBuilder line = host.GetOrCreateLine(1);
    line.AddEvent(*host.GetOrCreateEventMetadata("train")).SetDurationPs(1000);
    space->add_warnings("1234 host events were dropped because a thread's buffer was full");
    space->add_warnings("a forged line\x1b]0;pwned\x07\x1b[2J");  // printed sanitized, never raw
    return grpc::Status::OK;
  }
};

TEST_F(RemoteCaptureTest, EachWorkersDroppedEventsAndWarningsAreReported) {
  DroppingWorker service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> dropping = builder.BuildAndStart();
  ASSERT_NE(port, 0);
  Worker worker = StartWorker(*data_dir_, 100000);
  ASSERT_NE(worker.port, 0);
  std::string dropping_address = "127.0.0.1:" + std::to_string(port);

  RunResult capture = RunStepscopeCli({"capture", "grpc://" + dropping_address + ",grpc://" + worker.address(),
                                       "--logdir", ScratchDir("remote_dropped"), "--duration_ms", "300"});
  dropping->Shutdown();
  ASSERT_EQ(capture.exit_code, 0) << capture.out << capture.err;
  EXPECT_THAT(capture.out, ::testing::ContainsRegex(dropping_address + "  ok .* 1 events  1234 dropped  "));
  EXPECT_THAT(capture.out, ::testing::ContainsRegex(worker.address() + "  ok .* events  0 dropped  "));
  EXPECT_THAT(capture.err, HasSubstr("stepscope: capture: " + dropping_address +
                                     ": warning: 1234 host events were dropped because a thread's buffer was full\n"));
  EXPECT_THAT(capture.err, HasSubstr(": warning: a forged line?]0;pwned??[2J\n"));
  EXPECT_EQ(capture.err.find('\x1b'), std::string::npos) << "no escape sequence reaches the terminal";
  EXPECT_EQ(capture.out.find('\x1b'), std::string::npos);
}

// An in-process worker, on a TCP port or a Unix socket, that answers every capture.
struct InProcessWorker {
  explicit InProcessWorker(const std::string& listen) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&service);
    server = builder.BuildAndStart();
  }
  ~InProcessWorker() { server->Shutdown(); }
  DroppingWorker service;
  int port = 0;
  std::unique_ptr<grpc::Server> server;
};

// Captures used to be named by the second and written over each other without a word.
TEST_F(RemoteCaptureTest, ACaptureNeverReplacesAnEarlierOne) {
  InProcessWorker worker("127.0.0.1:0");
  ASSERT_NE(worker.port, 0);
  const std::string address = "grpc://127.0.0.1:" + std::to_string(worker.port);
  const std::string logdir = ScratchDir("remote_no_overwrite");
  for (int i = 0; i < 3; ++i) {  // well within one second
    RunResult capture = RunStepscopeCli({"capture", address, "--logdir", logdir, "--duration_ms", "100"});
    ASSERT_EQ(capture.exit_code, 0) << capture.out << capture.err;
  }
  auto runs = xspace::ListRuns(logdir);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 3u) << "three captures, three runs";

  RunResult named = RunStepscopeCli({"capture", address, "--logdir", logdir, "--run", "mine", "--duration_ms", "100"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  RunResult again = RunStepscopeCli({"capture", address, "--logdir", logdir, "--run", "mine", "--duration_ms", "100"});
  EXPECT_NE(again.exit_code, 0) << again.out;
  EXPECT_THAT(again.out, HasSubstr("already exists"));
  RunResult replaced = RunStepscopeCli(
      {"capture", address, "--logdir", logdir, "--run", "mine", "--overwrite", "--duration_ms", "100"});
  EXPECT_EQ(replaced.exit_code, 0) << replaced.out << replaced.err;

  RunResult control = RunStepscopeCli({"capture", address, "--logdir", logdir, "--run", "a\x1b[2Jb"});
  EXPECT_EQ(control.exit_code, 2);
  EXPECT_THAT(control.err, HasSubstr("control character"));
}

// gRPC reads "unix:1234" as a socket named 1234 in the current directory; a Unix socket
// is reached only when written unix:/path.
TEST_F(RemoteCaptureTest, UnixSocketsOnlyWhenWrittenAsSuch) {
  RunResult scheme = RunStepscopeCli({"capture", "grpc://unix:1234", "--logdir", ScratchDir("remote_unix_host")});
  EXPECT_EQ(scheme.exit_code, 2);
  EXPECT_THAT(scheme.err, HasSubstr("gRPC target scheme"));

  const std::string socket_path = ScratchDir("remote_unix_socket") + "/worker.sock";
  InProcessWorker worker("unix:" + socket_path);
  ASSERT_NE(worker.server, nullptr);
  RunResult capture = RunStepscopeCli({"capture", "unix:" + socket_path, "--logdir", ScratchDir("remote_unix"),
                                       "--duration_ms", "100"});
  EXPECT_EQ(capture.exit_code, 0) << capture.out << capture.err;
}

TEST_F(RemoteCaptureTest, AllWorkersDeadExitsNonZeroWithOneErrorLine) {
  int port = PickFreePort();
  RunResult capture = RunStepscopeCli({"capture", "grpc://127.0.0.1:" + std::to_string(port), "--logdir",
                                        ScratchDir("remote_dead"), "--duration_ms", "500", "--retries", "1"});
  EXPECT_EQ(capture.exit_code, 4);  // nothing captured: workers unavailable (src/cli/exit_code.h)
  EXPECT_EQ(capture.ErrLines(), 1) << capture.err;
  EXPECT_THAT(capture.err, HasSubstr("no worker was captured"));
  EXPECT_THAT(capture.out, HasSubstr("127.0.0.1:" + std::to_string(port) + "  FAILED  2 attempts"));
}

TEST_F(RemoteCaptureTest, AnUnreachableWorkerFailsInBoundedTime) {
  // A socket that accepts TCP connections (the kernel does, from the backlog) but never
  // speaks HTTP/2: the connection attempt hangs, like a host behind a dropping firewall.
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(listener, 16), 0);
  socklen_t length = sizeof(address);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  std::string silent = "127.0.0.1:" + std::to_string(ntohs(address.sin_port));

  auto start = Clock::now();
  RunResult capture = RunStepscopeCli({"capture", "grpc://" + silent + ",grpc://nonexistent.invalid:6009",
                                        "--logdir", ScratchDir("remote_unreachable"), "--duration_ms", "500",
                                        "--retries", "1", "--connect_timeout_ms", "1500"});
  auto elapsed = Clock::now() - start;
  ::close(listener);
  EXPECT_EQ(capture.exit_code, 4) << capture.out << capture.err;
  // Two attempts of 1.5 s plus a 1 s backoff, with room for a slow machine.
  EXPECT_LT(elapsed, std::chrono::seconds(10));
  EXPECT_THAT(capture.out, HasSubstr(silent + "  FAILED"));
  EXPECT_THAT(capture.out, HasSubstr("within 1500 ms"));
  EXPECT_THAT(capture.out, HasSubstr("nonexistent.invalid:6009  FAILED"));
}

TEST_F(RemoteCaptureTest, BadArgumentsAreRejectedBeforeAnyConnection) {
  RunResult capture = RunStepscopeCli({"capture", "grpc://localhost", "--logdir", "/tmp/x"});
  EXPECT_EQ(capture.exit_code, 2);
  EXPECT_THAT(capture.err, HasSubstr("no port"));
  capture = RunStepscopeCli({"capture", "grpc://localhost:6009", "--logdir", "/tmp/x", "--duration_ms", "0"});
  EXPECT_EQ(capture.exit_code, 2);
  EXPECT_THAT(capture.err, HasSubstr("duration_ms"));
  capture = RunStepscopeCli({"capture", "grpc://127.0.0.1:6009,grpc://127.0.0.1:6010", "--logdir", "/tmp/x",
                             "--max_workers", "1"});
  EXPECT_EQ(capture.exit_code, 2);
  EXPECT_EQ(capture.err,
            "stepscope: capture: 2 workers in one capture, over the limit of 1 (max_workers); capture them in "
            "batches or raise the limit\n");
  EXPECT_EQ(capture.out, "") << "refused before \"Capturing ...\"";
  capture = RunStepscopeCli({"capture", "grpc://127.0.0.1:6009,grpc://127.0.0.1:6010", "--logdir", "/tmp/x",
                             "--max_response_bytes", "1048576"});
  EXPECT_EQ(capture.exit_code, 2);
  EXPECT_THAT(capture.err, HasSubstr("max_response_bytes 1048576 leaves 524288 bytes per worker for 2 workers"));
  capture = RunStepscopeCli({"capture", "grpc://localhost:6009"});
  EXPECT_EQ(capture.exit_code, 2);
  EXPECT_THAT(capture.err, HasSubstr("logdir"));
  EXPECT_EQ(capture.ErrLines(), 1);
}

}  // namespace
}  // namespace stepscope::testing
