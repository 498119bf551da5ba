#include "tests/integration/remote_worker.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>


extern char** environ;

namespace stepscope::testing {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string TempPath(const char* what) {
  static std::atomic<int> counter{0};
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/stepscope_remote_worker_" + std::to_string(::getpid()) +
         "_" + std::to_string(counter.fetch_add(1)) + "." + what;
}

}  // namespace

int PickFreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv)
    : out_path_(TempPath("out")), err_path_(TempPath("err")) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) == 0) pid_ = pid;
  posix_spawn_file_actions_destroy(&actions);
}

BackgroundProcess::~BackgroundProcess() {
  Kill();
  ::unlink(out_path_.c_str());
  ::unlink(err_path_.c_str());
}

std::string BackgroundProcess::out() const { return ReadAll(out_path_); }
std::string BackgroundProcess::err() const { return ReadAll(err_path_); }

bool BackgroundProcess::Alive() {
  if (pid_ <= 0 || reaped_) return false;
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == pid_) {
    reaped_ = true;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return false;
  }
  return true;
}

bool BackgroundProcess::WaitForOutput(const std::string& text, std::chrono::milliseconds timeout) {
  return WaitForText(out_path_, text, timeout);
}

bool BackgroundProcess::WaitForError(const std::string& text, std::chrono::milliseconds timeout) {
  return WaitForText(err_path_, text, timeout);
}

bool BackgroundProcess::WaitForText(const std::string& path, const std::string& text,
                                    std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (ReadAll(path).find(text) != std::string::npos) return true;
    if (!Alive()) return ReadAll(path).find(text) != std::string::npos;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void BackgroundProcess::Kill() {
  if (pid_ <= 0 || reaped_) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0) {
  }
  reaped_ = true;
}

int BackgroundProcess::WaitForExit(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (Alive()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      Kill();
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return exit_code_;
}

int RunResult::ErrLines() const { return static_cast<int>(std::count(err.begin(), err.end(), '\n')); }

RunResult RunToCompletion(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  BackgroundProcess process(argv);
  RunResult result;
  result.exit_code = process.WaitForExit(timeout);
  result.out = process.out();
  result.err = process.err();
  return result;
}

RunResult RunStepscopeCli(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {STEPSCOPE_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunToCompletion(argv);
}

std::string ScratchDir(const std::string& name) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("stepscope_remote_" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::vector<std::string> LightTrainingArgs(const std::string& data_dir, int steps) {
  return {MNIST_MLP_PATH, "--steps", std::to_string(steps), "--data_dir", data_dir, "--train_examples", "2000",
          "--shards", "2", "--batch_size", "32", "--hidden_units", "64", "--read_delay_us", "300",
          "--log_every", "50"};
}

bool PrepareTrainingData(const std::string& data_dir) {
  return RunToCompletion(LightTrainingArgs(data_dir, 1)).exit_code == 0;
}

}  // namespace stepscope::testing
