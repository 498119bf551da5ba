// Runs a program to completion and captures what it wrote, for tests that check the real
// `stepscope` binary's exit codes and output.
#pragma once

#include <cstdint>
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

// How to run the child, for tests of what a program does when its output cannot be written.
struct ProcessOptions {
  std::string stdin_path = "/dev/null";
  // Where stdout goes ("/dev/full": every write fails with ENOSPC); empty: captured in `out`.
  std::string stdout_path;
  // > 0: RLIMIT_FSIZE of the child, with SIGXFSZ ignored, so a write that would make any
  // file larger fails with EFBIG (a full disk, as the program sees it). Keep it above what
  // the child writes to stderr, which goes to a file too.
  uint64_t max_file_bytes = 0;
};

// Runs `argv[0]` with `argv` (no shell).
ProcessResult RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options);
// Stdin from `stdin_path` (default /dev/null).
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& stdin_path = "/dev/null");

// The stepscope binary under test (set by CMake), with `args` appended.
ProcessResult RunStepscope(const std::vector<std::string>& args, const ProcessOptions& options = {});

}  // namespace stepscope::testing
