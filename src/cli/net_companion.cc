// `stepscope capture` and `stepscope serve` in the `stepscope` executable: they replace the
// process with `stepscope-net` (installed next to it), which has the same command table
// with the real capture and serve.
//
// Why two executables: gRPC, abseil, OpenSSL and the HTTP server are ~50 shared libraries
// whose loading, relocation and static initialisation cost ~8 ms before main() runs. The
// batch commands (analyze, import, convert, info) need none of them, and a whole
// `stepscope analyze` of a 15 MB trace is meant to take ~20 ms. Linking the network
// commands into a second executable keeps that start-up off every batch run; exec keeps
// the process id, arguments, streams and exit status, so callers see one program.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "src/cli/command.h"
#include "src/cli/commands.h"

namespace stepscope::cli {
namespace {

constexpr char kCompanion[] = "stepscope-net";

// The directory of the running executable (/proc/self/exe), or "" when unknown.
std::string OwnDirectory() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "";
  std::string own(path, static_cast<size_t>(n));
  const size_t slash = own.rfind('/');
  return slash == std::string::npos ? "" : own.substr(0, slash);
}

// Runs `command` in stepscope-net; returns only when that cannot be started.
int ExecCompanion(const char* command, CommandContext& context) {
  const std::string dir = OwnDirectory();
  const std::string companion = (dir.empty() ? std::string(".") : dir) + "/" + kCompanion;
  std::vector<std::string> args = {"stepscope", command};
  args.insert(args.end(), context.args.begin(), context.args.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  context.out.flush();
  context.err.flush();
  ::execv(companion.c_str(), argv.data());
  const int error = errno;
  return ReportError(context.err, command,
                     InternalError("cannot run " + companion + ": " + std::strerror(error) + " (" + kCompanion +
                                   " is built and installed next to stepscope)"));
}

}  // namespace

int RunCaptureCommand(CommandContext& context) { return ExecCompanion("capture", context); }
int RunServeCommand(CommandContext& context) { return ExecCompanion("serve", context); }

}  // namespace stepscope::cli
