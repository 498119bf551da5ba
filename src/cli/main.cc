// The `stepscope` command: dispatches to one subcommand per file (see commands.h).
#include <google/protobuf/stubs/logging.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/memory_budget.h"
#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"

namespace stepscope::cli {
namespace {

// The one table of subcommands. `stepscope help` lists exactly these (./dev demo greps the
// list to decide what to run), so only add a row for a subcommand that works.
constexpr Command kCommands[] = {
    {"info", "summarize a profile: planes, lines, events, steps, dropped events, environment",
     RunInfoCommand},
    {"capture", "record running workers over gRPC (grpc://host:port,...) into one run", RunCaptureCommand},
    {"analyze", "run analysis tools (overview_page, input_pipeline_analyzer, ...): text, json or csv",
     RunAnalyzeCommand},
    {"diff", "compare two profiles (before/after): step time, categories, input verdict, ops and kernels that changed",
     RunDiffCommand},
    {"check", "check performance budgets (--max step_ms=120 ...): exit 5 when one is broken, for CI", RunCheckCommand},
    {"summarize", "write each host's summary, the map of a multi-host analysis (--shard I/N for job runners)",
     RunSummarizeCommand},
    {"runs", "list a logdir's profiling sessions and the run directories and hosts of each", RunRunsCommand},
    {"mcp", "serve a logdir to AI agents over the Model Context Protocol (stdio): tools, diff, check, trace search",
     RunMcpCommand},
    {"serve", "the web dashboard and JSON API for a logdir (http://127.0.0.1:6006/)", RunServeCommand},
    {"import", "convert PyTorch/Kineto, TF/JAX or Chrome trace JSON into a run of .xplane.pb files", RunImportCommand},
    {"convert", "write a profile's timeline as Chrome or Perfetto trace JSON (no event cap, streamed)",
     RunConvertCommand},
};

const Command* FindCommand(std::string_view name) {
  for (const Command& command : kCommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

constexpr std::string_view kMemoryFlag = "--max_memory_mb";
constexpr int64_t kMaxMemoryMiB = int64_t{1} << 30;  // 1 PiB: any machine

// The flag every command takes, read here so each command's parser need not know it.
std::string MemoryFlagHelp() {
  return "  " + std::string(kMemoryFlag) +
         " N  memory budget: a profile that would decode past it is refused, the server's caches stay within it "
         "(default " + std::to_string(base::DefaultMemoryBudgetBytes() >> 20) +
         ", 3/4 of this machine's memory)\n";
}

// Removes --max_memory_mb N / --max_memory_mb=N from `args` (before a "--") and sets the
// process's budget.
Status TakeMemoryFlag(std::vector<std::string>* args) {
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string& arg = (*args)[i];
    if (arg == "--") break;
    std::string value;
    size_t erase = 0;
    if (arg == kMemoryFlag) {
      if (i + 1 >= args->size()) return InvalidArgumentError(std::string(kMemoryFlag) + " needs a value");
      value = (*args)[i + 1];
      erase = 2;
    } else if (arg.rfind(std::string(kMemoryFlag) + "=", 0) == 0) {
      value = arg.substr(kMemoryFlag.size() + 1);
      erase = 1;
    } else {
      continue;
    }
    int64_t mib = 0;
    Status parsed = ParseIntFlag(kMemoryFlag.substr(2), value, int64_t{base::kMinMemoryBudgetBytes >> 20}, kMaxMemoryMiB, &mib);
    if (!parsed.ok()) return parsed;
    base::SetMemoryBudgetBytes(static_cast<uint64_t>(mib) << 20);
    args->erase(args->begin() + static_cast<std::ptrdiff_t>(i), args->begin() + static_cast<std::ptrdiff_t>(i + erase));
    --i;
  }
  return OkStatus();
}

void PrintHelp(std::ostream& out) {
  out << "usage: stepscope <command> [args] [flags]\n\ncommands:\n";
  size_t width = 4;  // "help"
  for (const Command& command : kCommands) width = std::max(width, command.name.size());
  for (const Command& command : kCommands) {
    out << "  " << command.name << std::string(width - command.name.size() + 2, ' ') << command.summary << "\n";
  }
  out << "  help" << std::string(width - 4 + 2, ' ') << "list commands, or `help <command>` for its flags\n"
      << "\nevery command:\n"
      << MemoryFlagHelp() << "\n"
      << ExitCodesHelp();
}

int Main(int argc, char** argv) {
  // Every problem reaches the user as one "stepscope: ..." line; protobuf's own log lines
  // (e.g. invalid UTF-8 in a corrupt file's strings) would be a second, confusing one.
  google::protobuf::SetLogHandler(nullptr);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    PrintHelp(std::cerr);
    return ExitCodeFor(InvalidArgumentError("no command given"));
  }
  std::string name = args[0];
  args.erase(args.begin());
  if (name == "help" || name == "--help" || name == "-h") {
    if (args.empty()) {
      PrintHelp(std::cout);
      return kExitOk;
    }
    name = args[0];
    args = {"--help"};
  }
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    return ReportError(std::cerr, name, InvalidArgumentError("unknown command (see stepscope help)"));
  }
  Status memory = TakeMemoryFlag(&args);
  if (!memory.ok()) return ReportUsageError(std::cerr, name, memory.message());
  const bool help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                    std::find(args.begin(), args.end(), "-h") != args.end();
  CommandContext context{std::move(args), std::cout, std::cerr};
  int code = command->run(context);
  if (help && code == kExitOk) std::cout << MemoryFlagHelp();
  std::cout.flush();
  // Output that did not reach stdout (a full disk) is a failure of the command unless it
  // already failed for another reason and said so on its one line. (iostreams keep no
  // errno: the write that failed may be long past.)
  if (!std::cout && code == kExitOk) {
    return ReportError(std::cerr, name, IoError("cannot write the output to stdout"));
  }
  return code;
}

}  // namespace
}  // namespace stepscope::cli

int main(int argc, char** argv) { return stepscope::cli::Main(argc, argv); }
