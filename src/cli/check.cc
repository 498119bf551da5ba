// `stepscope check <profile> --max step_ms=120 --max input_pct=5 [--budget FILE]`: fails
// (exit 5, kExitBudgetBroken) when a performance budget is broken, so a CI job can fail on
// a regression. The budgets and their keys are analysis::CheckBudgets'
// (src/analysis/tools/check.h); this file only reads flags and the budget file.
#include <string>
#include <vector>

#include "src/analysis/tools/check.h"
#include "src/base/file_io.h"
#include "src/cli/command.h"
#include "src/cli/command_profile.h"
#include "src/cli/commands.h"
#include "src/cli/flags.h"

namespace stepscope::cli {
namespace {

// A budget file is a few lines; anything larger is not one.
constexpr uint64_t kMaxBudgetFileBytes = 1 << 20;

std::string Usage() {
  return "usage: stepscope check <profile> --max KEY=VALUE ... [--min KEY=VALUE ...] [--budget FILE] [flags]\n"
         "\n"
         "Checks performance budgets on a profile (anything `stepscope analyze` takes) and prints\n"
         "each with its measured value and PASS or FAIL. Exit 0 when every budget holds, 5 when\n"
         "one is broken or cannot be measured (e.g. no steps), 2 for a bad key, value or file.\n"
         "A budget file has one budget per line, `KEY <= VALUE` or `KEY >= VALUE`; `#` starts a\n"
         "comment line.\n"
         "\n"
         "keys: " +
         analysis::BudgetKeyList() +
         "\n(docs/cli.md says what each measures)\n"
         "\n"
         "flags:\n";
}

}  // namespace

int RunCheckCommand(CommandContext& context) {
  std::string run, host, format = "text", table, budget_file;
  std::vector<analysis::Budget> budgets;
  auto add = [&budgets](analysis::BudgetBound bound) {
    return [&budgets, bound](const std::string& text) -> Status {
      auto budget = analysis::ParseBudgetFlag(text, bound);
      if (!budget.ok()) return budget.status();
      budgets.push_back(std::move(*budget));
      return OkStatus();
    };
  };
  FlagSet flags;
  flags.AddRepeated("max", "KEY=VALUE", "budget: KEY must be at most VALUE (repeatable)", add(analysis::BudgetBound::kMax));
  flags.AddRepeated("min", "KEY=VALUE", "budget: KEY must be at least VALUE (repeatable)",
                    add(analysis::BudgetBound::kMin));
  flags.AddString("budget", &budget_file, "file of budgets, one `KEY <= VALUE` or `KEY >= VALUE` per line");
  flags.AddString("run", &run, "run to check in a logdir (default: the newest)");
  flags.AddString("host", &host, "check one host of the run (default: all hosts combined)");
  bool separate_runs = false;
  flags.AddBool("separate_runs", &separate_runs, "read every run directory of the logdir on its own (no sessions assembled; see stepscope runs)");
  flags.AddString("format", &format, "text for people, json for programs, csv for the budgets table",
                  {"text", "json", "csv"});
  std::vector<std::string> positional;
  Status parsed = flags.Parse(context.args, &positional);
  if (!parsed.ok()) return ReportUsageError(context.err, "check", parsed.message());
  if (flags.help_requested()) {
    context.out << Usage() << flags.Usage();
    return kExitOk;
  }
  if (positional.size() != 1) {
    return ReportUsageError(context.err, "check", "expected one profile, got " + std::to_string(positional.size()));
  }
  if (!budget_file.empty()) {
    auto contents = base::ReadFile(budget_file, kMaxBudgetFileBytes);
    if (!contents.ok()) return ReportError(context.err, budget_file, contents.status());
    auto from_file = analysis::ParseBudgetFile(*contents);
    if (!from_file.ok()) return ReportError(context.err, budget_file, from_file.status());
    budgets.insert(budgets.end(), from_file->begin(), from_file->end());
  }
  if (budgets.empty()) {
    return ReportUsageError(context.err, "check", "no budgets: add --max KEY=VALUE, --min KEY=VALUE or --budget FILE");
  }
  const std::string& path = positional[0];
  auto profile = LoadCommandProfile(
      "check", {.path = path, .run = run, .host = host, .list_options = {.assemble_sessions = !separate_runs}}, "--run",
      context.err);
  if (!profile.ok()) return ReportError(context.err, path, profile.status());

  const analysis::CheckResult checked = analysis::CheckBudgets(profile->model, budgets);
  const bool all_hold = checked.all_hold;
  analysis::StructToolResult<analysis::CheckResult> result(checked);
  if (format == "text") context.out << "Profile: " << DescribeProfile(path, profile->resolved) << "\n";
  Status printed = PrintResult(result, format, format == "csv" ? "budgets" : "", {}, context.out);
  if (!printed.ok()) return ReportError(context.err, "check", printed);
  if (all_hold) return kExitOk;
  // One line on stderr too, so a CI log says why the job failed whatever the format.
  int broken = 0;
  for (const analysis::BudgetOutcome& o : checked.outcomes) broken += o.status != analysis::BudgetStatus::kPass;
  context.err << "stepscope: check: " << broken << " of " << checked.outcomes.size() << " budgets broken\n";
  return kExitBudgetBroken;
}

}  // namespace stepscope::cli
