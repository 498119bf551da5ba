// One exit code per kind of failure, whatever the command (src/cli/exit_code.h):
//   2 bad usage or bad input, 3 output could not be written, 4 nothing captured / a peer
//   unavailable, 1 internal error
// checked on the real binary. A full disk is simulated per child: RLIMIT_FSIZE with SIGXFSZ
// ignored (every write past the limit fails with EFBIG) for files the command creates,
// /dev/full (ENOSPC) for its stdout. Every failure is exactly one "stepscope: ..." line.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "stepscope/annotation.h"
#include "stepscope/profiler_server.h"
#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

constexpr int kUsage = 2;
constexpr int kBadInput = 2;
constexpr int kOutputNotWritten = 3;
constexpr int kUnavailable = 4;

// Far below every output written here, far above any one-line error on stderr.
constexpr uint64_t kFullDiskBytes = 4096;

void ExpectExit(const ProcessResult& r, int code, const std::string& command) {
  EXPECT_FALSE(r.signaled) << "killed by signal " << r.signal << "\n" << r.err;
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(r.ErrLines(), 1) << r.err;
  EXPECT_EQ(r.err.rfind("stepscope: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(command), std::string::npos) << r.err;
}

ProcessOptions StdoutToFullDevice() {
  ProcessOptions options;
  options.stdout_path = "/dev/full";
  return options;
}

ProcessOptions DiskFullAfter(uint64_t bytes) {
  ProcessOptions options;
  options.max_file_bytes = bytes;
  return options;
}

std::string EmptyProfile() {
  const std::string path = FreshDir("exit_codes_empty") + "/empty.xplane.pb";
  WriteBytes(path, "");
  return path;
}

// A Chrome trace with enough events that its .xplane.pb is far over kFullDiskBytes.
std::string ChromeTrace() {
  std::string json = R"({"traceEvents": [)";
  for (int i = 0; i < 2000; ++i) {
    json += (i == 0 ? "" : ",") + std::string(R"({"name": "op_)") + std::to_string(i % 50) +
            R"(", "ph": "X", "ts": )" + std::to_string(i * 10) + R"(, "dur": 5, "pid": 1, "tid": 1})";
  }
  json += "]}";
  const std::string path = FreshDir("exit_codes_trace") + "/trace.json";
  WriteBytes(path, json);
  return path;
}

// A 127.0.0.1 port that nothing listens on (bound, then closed).
int UnusedPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

TEST(CliExitCodesTest, Info) {
  ExpectExit(RunStepscope({"info", TfDemoFile(), "--format", "xml"}), kUsage, "--format");
  ExpectExit(RunStepscope({"info", EmptyProfile()}), kBadInput, "empty.xplane.pb");
  ExpectExit(RunStepscope({"info", TfDemoFile()}, StdoutToFullDevice()), kOutputNotWritten, "info");
}

TEST(CliExitCodesTest, Analyze) {
  ExpectExit(RunStepscope({"analyze", TfDemoFile(), "--frob"}), kUsage, "--frob");
  ExpectExit(RunStepscope({"analyze", EmptyProfile()}), kBadInput, "empty.xplane.pb");
  ExpectExit(RunStepscope({"analyze", TfDemoFile(), "--tool", "overview_page"}, StdoutToFullDevice()),
             kOutputNotWritten, "analyze");
}

TEST(CliExitCodesTest, DiffAndCheck) {
  ExpectExit(RunStepscope({"diff", TfDemoFile(), TfDemoFile(), "--frob"}), kUsage, "--frob");
  ExpectExit(RunStepscope({"diff", TfDemoFile(), EmptyProfile()}), kBadInput, "empty.xplane.pb");
  ExpectExit(RunStepscope({"diff", TfDemoFile(), TfDemoFile()}, StdoutToFullDevice()), kOutputNotWritten, "diff");
  ExpectExit(RunStepscope({"check", TfDemoFile(), "--max", "wall_ms=3"}), kUsage, "wall_ms");
  ExpectExit(RunStepscope({"check", EmptyProfile(), "--max", "step_ms=3"}), kBadInput, "empty.xplane.pb");
  ExpectExit(RunStepscope({"check", TfDemoFile(), "--max", "step_ms=1000000"}, StdoutToFullDevice()),
             kOutputNotWritten, "check");
}

TEST(CliExitCodesTest, Import) {
  const std::string logdir = FreshDir("exit_codes_import");
  ExpectExit(RunStepscope({"import", ChromeTrace(), "--logdir", logdir, "--format", "xml"}), kUsage, "--format");
  const std::string garbage = logdir + "/garbage.json";
  WriteBytes(garbage, "\x89PNG not a trace");
  ExpectExit(RunStepscope({"import", garbage, "--logdir", logdir}), kBadInput, "garbage.json");
  ExpectExit(RunStepscope({"import", ChromeTrace(), "--logdir", logdir, "--run", "full"},
                          DiskFullAfter(kFullDiskBytes)),
             kOutputNotWritten, "trace.json");
  // The failed write left nothing under the final name.
  EXPECT_FALSE(std::filesystem::exists(logdir + "/plugins/profile/full/trace.xplane.pb"));
}

TEST(CliExitCodesTest, Convert) {
  const std::string out = FreshDir("exit_codes_convert") + "/out.json";
  ExpectExit(RunStepscope({"convert", TfDemoFile(), "--to", "xml", "-o", out}), kUsage, "--to");
  ExpectExit(RunStepscope({"convert", EmptyProfile(), "--to", "chrome", "-o", out}), kBadInput, "empty.xplane.pb");
  ExpectExit(RunStepscope({"convert", TfDemoFile(), "--to", "chrome", "-o", out}, DiskFullAfter(kFullDiskBytes)),
             kOutputNotWritten, "out.json");
  EXPECT_FALSE(std::filesystem::exists(out));
  // The file written, but not the summary line on stdout.
  ExpectExit(RunStepscope({"convert", TfDemoFile(), "--to", "chrome", "-o", out}, StdoutToFullDevice()),
             kOutputNotWritten, "convert");
}

TEST(CliExitCodesTest, Serve) {
  const std::string logdir = FreshDir("exit_codes_serve");
  ExpectExit(RunStepscope({"serve", "--logdir", logdir, "--port", "99999"}), kUsage, "--port");
  ExpectExit(RunStepscope({"serve", "--logdir", logdir + "/missing"}), kBadInput, "missing");
  // A port someone else listens on: the address is unavailable.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ExpectExit(RunStepscope({"serve", "--logdir", logdir, "--port", std::to_string(ntohs(address.sin_port))}),
             kUnavailable, "serve");
  ::close(fd);
}

TEST(CliExitCodesTest, CaptureUsageBadAddressAndUnreachableWorker) {
  const std::string logdir = FreshDir("exit_codes_capture");
  ExpectExit(RunStepscope({"capture", "grpc://127.0.0.1:1", "--logdir", logdir, "--duration_ms", "abc"}), kUsage,
             "--duration_ms");
  ExpectExit(RunStepscope({"capture", "http://127.0.0.1:1", "--logdir", logdir}), kBadInput, "capture");
  const std::string target = "grpc://127.0.0.1:" + std::to_string(UnusedPort());
  const ProcessResult unreachable = RunStepscope(
      {"capture", target, "--logdir", logdir, "--duration_ms", "100", "--retries", "0", "--connect_timeout_ms", "300"});
  ExpectExit(unreachable, kUnavailable, "no worker was captured");
  EXPECT_NE(unreachable.out.find("FAILED"), std::string::npos) << unreachable.out;
}

// A real worker (a profiler server in this test process, recording a busy thread), and a
// capture whose profile cannot be written.
TEST(CliExitCodesTest, CaptureWhoseProfileCannotBeWritten) {
  ProfilerServerOptions options;  // port 0: a free one
  auto server = StartProfilerServer(options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  std::atomic<bool> stop{false};
  std::thread busy([&stop] {
    while (!stop.load()) {
      ScopedAnnotation annotation("exit_codes_busy");
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  const std::string logdir = FreshDir("exit_codes_capture_full");
  const ProcessResult r = RunStepscope({"capture", "grpc://" + (*server)->address(), "--logdir", logdir,
                                        "--duration_ms", "300", "--retries", "0", "--run", "full"},
                                       DiskFullAfter(kFullDiskBytes));
  stop.store(true);
  busy.join();
  ExpectExit(r, kOutputNotWritten, "capture");
  EXPECT_NE(r.out.find("FAILED"), std::string::npos) << r.out;
}

TEST(CliExitCodesTest, UnknownCommandIsUsage) {
  ExpectExit(RunStepscope({"frobnicate"}), kUsage, "frobnicate");
}

}  // namespace
}  // namespace stepscope::testing
