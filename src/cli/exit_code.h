// The exit codes of every stepscope command: one per kind of failure, decided in one place
// from the command's final Status (docs/cli.md lists them; `stepscope help` prints them).
//
//   0  ok
//   1  internal error: a bug in stepscope
//   2  bad usage or bad input: an unknown flag or a bad value, a missing, unreadable,
//      corrupt or oversized profile, a path that cannot be used, a tool that does not apply
//   3  output could not be written: disk full, file too large, I/O error (kIoError)
//   4  nothing captured or a peer unavailable: no worker answered, a deadline passed, the
//      port to serve on is taken (kUnavailable, kDeadlineExceeded)
//   5  a performance budget is broken (`stepscope check`): the profile was read, a budget
//      does not hold or cannot be measured. Never from a Status: check returns it itself.
//
// Scripts can tell "fix the command line or the file" (2) from "free some disk" (3) and
// "try again when the workers are up" (4); a CI job tells a regression (5) from a broken
// command (2).
#pragma once

#include <string_view>

#include "stepscope/status.h"

namespace stepscope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternalError = 1;
inline constexpr int kExitBadInput = 2;  // usage or input
inline constexpr int kExitOutputNotWritten = 3;
inline constexpr int kExitUnavailable = 4;
inline constexpr int kExitBudgetBroken = 5;

int ExitCodeFor(const Status& status);

// The table above as `stepscope help` prints it, one line per code.
std::string_view ExitCodesHelp();

}  // namespace stepscope::cli
