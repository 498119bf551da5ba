// What a stepscope subcommand is, and how every subcommand reports failure: exactly one
// line on stderr of the form
//   stepscope: <path or command>: <problem>
// and the exit code of the failure's Status (src/cli/exit_code.h, docs/cli.md).
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "src/cli/exit_code.h"
#include "stepscope/status.h"

namespace stepscope::cli {

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

// Writes "stepscope: <subject>: <problem>" (one line) and returns ExitCodeFor(status).
// A message that already names `subject` is not repeated ("no such file: x" -> "x: no
// such file").
int ReportError(std::ostream& err, std::string_view subject, const Status& status);

// A bad command line of `command`: "stepscope: <command>: <problem> (see stepscope help
// <command>)", and the exit code of kInvalidArgument.
int ReportUsageError(std::ostream& err, std::string_view command, std::string_view problem);

// The problem text of `message` once `subject` has been taken out of it.
std::string ProblemWithoutSubject(std::string_view message, std::string_view subject);

}  // namespace stepscope::cli
