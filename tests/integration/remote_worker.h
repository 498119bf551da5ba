// A training process running in the background for the remote-capture tests: the example
// program (build/bin/mnist_mlp) with a profiler server on a free loopback port.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace stepscope::testing {

// A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it).
int PickFreePort();

class BackgroundProcess {
 public:
  // Starts argv[0] with stdout and stderr captured into files.
  explicit BackgroundProcess(const std::vector<std::string>& argv);
  ~BackgroundProcess();  // SIGKILLs the process if it is still running
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  std::string out() const;
  std::string err() const;
  // Polls stdout until it contains `text`; false on timeout or when the process exited.
  bool WaitForOutput(const std::string& text, std::chrono::milliseconds timeout);
  // The same for stderr.
  bool WaitForError(const std::string& text, std::chrono::milliseconds timeout);
  bool Alive();
  void Kill();  // SIGKILL and reap
  // Waits for a normal exit; returns the exit code, or -1 on timeout (then kills).
  int WaitForExit(std::chrono::milliseconds timeout);

 private:
  bool WaitForText(const std::string& path, const std::string& text, std::chrono::milliseconds timeout);

  pid_t pid_ = -1;
  bool reaped_ = false;
  int exit_code_ = -1;
  std::string out_path_;
  std::string err_path_;
};

// A finished process: exit code (-1 for a signal or timeout) and what it wrote.
struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  int ErrLines() const;
};
RunResult RunToCompletion(const std::vector<std::string>& argv,
                          std::chrono::milliseconds timeout = std::chrono::minutes(3));
// The stepscope binary under test (STEPSCOPE_CLI_PATH) with `args`.
RunResult RunStepscopeCli(const std::vector<std::string>& args);
// An empty scratch directory unique to this test process.
std::string ScratchDir(const std::string& name);

// The mnist_mlp flags the remote tests use: a small dataset in `data_dir`, a small model
// and slow reads, so each process mostly sleeps (~25 ms steps, little CPU) and three of
// them fit on a shared 2-core machine.
std::vector<std::string> LightTrainingArgs(const std::string& data_dir, int steps);

// Generates the dataset once, before several workers start (they would race to create it).
bool PrepareTrainingData(const std::string& data_dir);

}  // namespace stepscope::testing
