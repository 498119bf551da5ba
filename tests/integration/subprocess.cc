#include "tests/integration/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

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
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/stepscope_subprocess_" + std::to_string(::getpid()) + "_" +
         std::to_string(counter.fetch_add(1)) + "." + what;
}

}  // namespace

int ProcessResult::ErrLines() const { return static_cast<int>(std::count(err.begin(), err.end(), '\n')); }

ProcessResult RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult result;
  const std::string out_path = options.stdout_path.empty() ? TempPath("out") : options.stdout_path;
  const std::string err_path = TempPath("err");
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  // fork + exec rather than posix_spawn, which cannot set a resource limit. Between fork
  // and exec the child only makes async-signal-safe calls (the test process has threads).
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (options.max_file_bytes > 0) {
      struct rlimit limit = {options.max_file_bytes, options.max_file_bytes};
      struct sigaction ignore = {};
      ignore.sa_handler = SIG_IGN;
      if (::setrlimit(RLIMIT_FSIZE, &limit) != 0 || ::sigaction(SIGXFSZ, &ignore, nullptr) != 0) ::_exit(126);
    }
    const int in = ::open(options.stdin_path.c_str(), O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(126);
    ::execve(args[0], args.data(), environ);
    ::_exit(127);
  }
  if (pid < 0) {
    result.err = "fork failed for " + argv[0];
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.signal = WTERMSIG(status);
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
  if (options.stdout_path.empty()) {
    result.out = ReadAll(out_path);
    ::unlink(out_path.c_str());
  }
  result.err = ReadAll(err_path);
  ::unlink(err_path.c_str());
  return result;
}

ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& stdin_path) {
  ProcessOptions options;
  options.stdin_path = stdin_path;
  return RunProcess(argv, options);
}

ProcessResult RunStepscope(const std::vector<std::string>& args, const ProcessOptions& options) {
  std::vector<std::string> argv = {STEPSCOPE_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv, options);
}

}  // namespace stepscope::testing
