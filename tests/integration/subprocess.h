// Runs a program to completion and captures what it wrote, for tests that check the real
// `stepscope` binary's exit codes and output.
#pragma once

#include <string>
#include <vector>

namespace stepscope::testing {

struct ProcessResult {
  int exit_code = -1;       // valid when !signaled
  bool signaled = false;    // killed by a signal (a crash)
  int signal = 0;
  std::string out;
  std::string err;

  // Number of '\n'-terminated lines in `err`.
  int ErrLines() const;
};

// Runs `argv[0]` with `argv` (no shell), stdin from `stdin_path` (default /dev/null).
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& stdin_path = "/dev/null");

// The stepscope binary under test (set by CMake), with `args` appended.
ProcessResult RunStepscope(const std::vector<std::string>& args);

}  // namespace stepscope::testing
