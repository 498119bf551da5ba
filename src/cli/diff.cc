// `stepscope diff <profile A> <profile B>`: did my change help? Each side is anything
// `stepscope analyze` accepts (a logdir, a run directory, an .xplane.pb file, a trace JSON
// file such as a PyTorch/Kineto trace); the comparison is analysis::CompareProfiles
// (src/analysis/tools/diff.h), printed as text, JSON or one table as CSV.
#include <string>
#include <vector>

#include "src/analysis/tools/diff.h"
#include "src/cli/batch_memory.h"
#include "src/cli/command.h"
#include "src/cli/command_profile.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"

namespace stepscope::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: stepscope diff <profile A> <profile B> [flags]\n"
    "       stepscope diff <logdir> --run_a A --run_b B [flags]\n"
    "\n"
    "Compares two profiles, A before and B after a change: step time (mean, median), each\n"
    "step-time category with its change in ms and %, the input share and verdict of both,\n"
    "and the ops and kernels whose time changed most, matched by name, with those only one\n"
    "run has (added, removed). A profile is what `stepscope analyze` takes: a logdir (the\n"
    "newest run unless --run_a/--run_b), a run directory, an .xplane.pb file or a trace JSON\n"
    "file. Op and kernel times are per step when both have steps. Formats: text, json,\n"
    "csv (one table, --table NAME: summary, step_time_breakdown, input_verdicts, ops, kernels).\n"
    "\n"
    "flags:\n";

}  // namespace

int RunDiffCommand(CommandContext& context) {
  std::string run_a, run_b, host_a, host_b, format = "text", table;
  int64_t top = static_cast<int64_t>(analysis::kDiffTopChanges);
  FlagSet flags;
  flags.AddString("run_a", &run_a, "run of A when A is a logdir (default: the newest)");
  flags.AddString("run_b", &run_b, "run of B when B is a logdir (default: the newest)");
  flags.AddString("host_a", &host_a, "one host of A (default: all hosts combined)");
  flags.AddString("host_b", &host_b, "one host of B (default: all hosts combined)");
  flags.AddString("format", &format, "text for people, json for programs, csv for one table", {"text", "json", "csv"});
  flags.AddString("table", &table, "print only this table (required with --format csv)");
  bool separate_runs = false;
  flags.AddBool("separate_runs", &separate_runs, "read every run directory of the logdir on its own (no sessions assembled; see stepscope runs)");
  flags.AddInt("top", &top, "text: changed, added and removed ops and kernels shown (0 = all)", 0, 1000000);
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "diff", parsed.message());
  if (flags.help_requested()) {
    context.out << kUsage << flags.Usage();
    return kExitOk;
  }
  // Two runs of one logdir: the logdir once, the runs by flag.
  if (positional.size() == 1 && !run_a.empty() && !run_b.empty()) positional.push_back(positional[0]);
  if (positional.size() != 2) {
    return ReportUsageError(context.err, "diff",
                            "expected two profiles, A (before) and B (after), or one logdir with --run_a and --run_b, "
                            "got " +
                                std::to_string(positional.size()));
  }
  if (format == "csv" && table.empty()) {
    return ReportError(context.err, "diff", InvalidArgumentError("--format csv prints one table: add --table NAME"));
  }
  const std::string& path_a = positional[0];
  const std::string& path_b = positional[1];
  const load::ListOptions listing{.assemble_sessions = !separate_runs};
  auto resolved_a = ResolveCommandProfile(
      "diff", {.path = path_a, .run = run_a, .host = host_a, .list_options = listing}, "--run_a", context.err);
  if (!resolved_a.ok()) return ReportError(context.err, path_a, resolved_a.status());
  auto resolved_b = ResolveCommandProfile(
      "diff", {.path = path_b, .run = run_b, .host = host_b, .list_options = listing}, "--run_b", context.err);
  if (!resolved_b.ok()) return ReportError(context.err, path_b, resolved_b.status());
  // Both models are alive together: size the batch heap for both inputs.
  std::vector<std::string> inputs = load::ProfilePaths(*resolved_a);
  for (std::string& p : load::ProfilePaths(*resolved_b)) inputs.push_back(std::move(p));
  PrepareHeapForInputs(inputs);
  auto model_a = BuildCommandModel("diff", *resolved_a, context.err);
  if (!model_a.ok()) return ReportError(context.err, path_a, model_a.status());
  auto model_b = BuildCommandModel("diff", *resolved_b, context.err);
  if (!model_b.ok()) return ReportError(context.err, path_b, model_b.status());

  analysis::DiffOptions diff_options;
  diff_options.label_a = DescribeProfile(path_a, *resolved_a);
  diff_options.label_b = DescribeProfile(path_b, *resolved_b);
  analysis::StructToolResult<analysis::ProfileDiff> result(
      analysis::CompareProfiles(*model_a, *model_b, diff_options));
  analysis::ToolOptions options;
  options.text_max_rows = static_cast<size_t>(top);
  Status printed = PrintResult(result, format, table, options, context.out);
  if (!printed.ok()) return ReportError(context.err, "diff", printed);
  return kExitOk;
}

}  // namespace stepscope::cli
