#include "src/cli/exit_code.h"

namespace stepscope::cli {

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return kExitOk;
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kAlreadyExists:
    case StatusCode::kFailedPrecondition:
    case StatusCode::kPermissionDenied:  // e.g. a path outside the allowed directory
    case StatusCode::kResourceExhausted:  // an input over a size or count limit
    case StatusCode::kDataLoss:
    case StatusCode::kUnimplemented:
      return kExitBadInput;
    case StatusCode::kIoError:
      return kExitOutputNotWritten;
    case StatusCode::kUnavailable:
    case StatusCode::kDeadlineExceeded:
      return kExitUnavailable;
    case StatusCode::kInternal:
      return kExitInternalError;
  }
  return kExitInternalError;
}

std::string_view ExitCodesHelp() {
  return "exit codes:\n"
         "  0  ok\n"
         "  1  internal error (a bug in stepscope)\n"
         "  2  bad usage or input: unknown flag or bad value, missing/corrupt/oversized profile (one line on stderr)\n"
         "  3  output could not be written: disk full, file too large, I/O error\n"
         "  4  nothing captured or a peer unavailable: no worker answered, port to serve on taken\n"
         "  5  a budget is broken (stepscope check): a --max/--min/--budget bound does not hold or cannot be measured\n";
}

}  // namespace stepscope::cli
