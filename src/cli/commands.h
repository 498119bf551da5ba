// Entry points of the subcommands, one file each (info.cc, ...). main.cc lists them in
// its command table; adding a subcommand = its file, one declaration here, one table row.
#pragma once

#include "src/cli/command.h"

namespace stepscope::cli {

int RunInfoCommand(CommandContext& context);
int RunCaptureCommand(CommandContext& context);
int RunAnalyzeCommand(CommandContext& context);
int RunServeCommand(CommandContext& context);
int RunImportCommand(CommandContext& context);
int RunConvertCommand(CommandContext& context);
int RunDiffCommand(CommandContext& context);
int RunCheckCommand(CommandContext& context);
int RunRunsCommand(CommandContext& context);
int RunSummarizeCommand(CommandContext& context);
int RunMcpCommand(CommandContext& context);

}  // namespace stepscope::cli
