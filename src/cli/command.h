// What a stepscope subcommand is, and how every subcommand reports failure.
//
// Exit codes (docs/cli.md): 0 success; 2 bad input or usage (a missing or corrupt
// profile, an unknown flag), with exactly one line on stderr of the form
//   stepscope: <path or command>: <problem>
// and 1 for an internal failure (a bug in stepscope, or the system failing under us).
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "stepscope/status.h"

namespace stepscope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternalError = 1;
inline constexpr int kExitBadInput = 2;

struct CommandContext {
  std::vector<std::string> args;  // after the subcommand name
  std::ostream& out;
  std::ostream& err;
};

using CommandFn = int (*)(CommandContext& context);

struct Command {
  std::string_view name;
  std::string_view summary;  // one line, shown by `stepscope help`
  CommandFn run;             // handles --help itself
};

// 2 for problems with the input (invalid argument, not found, data loss, resource
// exhausted, ...), 1 for kInternal / kUnknown-like failures, 0 for ok.
int ExitCodeFor(const Status& status);

// Writes "stepscope: <subject>: <problem>" (one line) and returns ExitCodeFor(status).
// A message that already names `subject` is not repeated ("no such file: x" -> "x: no
// such file").
int ReportError(std::ostream& err, std::string_view subject, const Status& status);

// The problem text of `message` once `subject` has been taken out of it.
std::string ProblemWithoutSubject(std::string_view message, std::string_view subject);

}  // namespace stepscope::cli
