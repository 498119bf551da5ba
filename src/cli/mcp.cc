// `stepscope mcp [LOGDIR]`: a Model Context Protocol server over stdio, so an agent (an
// MCP client: Claude Desktop or Code, an IDE, a script on the official SDK) can list the
// runs of a logdir, run any analysis tool, diff two runs, check budgets and search the
// trace, getting the JSON the CLI prints. docs/mcp.md.
//
// Layers: mcp_stdio (lines) -> mcp_json_rpc (messages) -> mcp_session (MCP methods) ->
// mcp_tools (the tools, through src/load and the tool registry) over mcp_logdir (the only
// place files are found) and mcp_profile_cache. stdout carries protocol messages only;
// everything for people goes to stderr.
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "src/cli/command.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"
#include "src/cli/mcp_json_rpc.h"
#include "src/cli/mcp_logdir.h"
#include "src/cli/mcp_session.h"
#include "src/cli/mcp_stdio.h"
#include "src/cli/mcp_tools.h"

namespace stepscope::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: stepscope mcp [LOGDIR] [flags]\n"
    "\n"
    "Serves the runs of LOGDIR (default: the current directory) to an agent over the Model\n"
    "Context Protocol: newline-delimited JSON-RPC on stdin and stdout, log lines on stderr.\n"
    "Tools: list_runs, run_tool (any analysis tool, with its options), diff, check,\n"
    "search_trace_events; each run is a resource (stepscope://runs/<run>). It only reads,\n"
    "and only under LOGDIR. It exits when stdin ends. docs/mcp.md shows how to add it to\n"
    "an MCP client.\n"
    "\n"
    "flags:\n";

}  // namespace

int RunMcpCommand(CommandContext& context) {
  FlagSet flags;
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "mcp", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  if (positional.size() > 1) {
    return ReportUsageError(context.err, "mcp", "expected at most one logdir, got " + std::to_string(positional.size()));
  }
  const std::string logdir = positional.empty() ? "." : positional[0];
  // A bad logdir fails here, before the client is served anything.
  StatusOr<mcp::ConfinedLogdir> confined = mcp::ConfinedLogdir::Open(logdir);
  if (!confined.ok()) return ReportError(context.err, logdir, confined.status());

  // Served anyway (runs may be written later), but said at once: a run directory given
  // for the logdir is the usual slip.
  if (StatusOr<std::vector<load::RunProfiles>> runs = confined->Runs(); runs.ok() && runs->empty()) {
    context.err << "stepscope: mcp: note: " << mcp::NoRunsMessage(logdir) << "\n";
  }
  mcp::McpTools tools(std::move(*confined));
  mcp::McpSession session(&tools, &context.err);
  mcp::JsonRpcEndpoint endpoint(&session);
  context.err << "stepscope: mcp: serving " << logdir << " on stdio (MCP)\n";
  context.err.flush();
  // A client that goes away closes our stdout: a failed write ends the loop (main reports
  // it), where SIGPIPE would kill the process without a word.
  std::signal(SIGPIPE, SIG_IGN);
  mcp::ServeLines(STDIN_FILENO, endpoint, [&context](std::string_view line) {
    context.out << line;
    context.out.flush();
    return static_cast<bool>(context.out);
  });
  return kExitOk;
}

}  // namespace stepscope::cli
