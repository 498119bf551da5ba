// check: performance budgets for CI. A budget is a bound on one measured number of a
// profile ("step_ms <= 120", "input_pct <= 5", "steps >= 50"); CheckBudgets measures each
// and says whether it holds, so `stepscope check` can fail a CI job on a regression.
//
// The keys are few on purpose, each one number users already read on a page (the values
// are SummarizeSteps', so `check` and the overview never disagree):
//
//   step_ms             mean step time (ms)
//   step_median_ms      median step time (ms)
//   step_max_ms         slowest step (ms)
//   steps               number of steps (a capture that lost its steps must not pass)
//   input_pct           input share of step time (%), the input-bound percentage
//   device_idle_pct     device idle share of step time (%); GPU/TPU profiles only
//   device_compute_pct  device compute share of step time (%); GPU/TPU profiles only
//   kernel_launch_pct   kernel-launch share of step time (%); GPU/TPU profiles only
//   host_compute_ms     mean host compute time per step (ms)
//   other_pct           step time no recorded event explains (%)
//
// A budget whose number the profile cannot give (no steps, no device) does not hold:
// a CI job must not pass because its profile lost the thing it checks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "stepscope/status.h"

namespace stepscope::analysis {

struct BudgetMetric {
  std::string_view key;
  std::string_view label;
  std::string_view unit;  // "ms", "%", "count"
};
// Every key, in the order above.
const std::vector<BudgetMetric>& BudgetMetrics();
// "step_ms, step_median_ms, ..." for help and error messages.
std::string BudgetKeyList();

enum class BudgetBound { kMax, kMin };  // measured <= limit, measured >= limit

struct Budget {
  std::string key;
  BudgetBound bound = BudgetBound::kMax;
  double limit = 0;
};

// "step_ms=120" (a --max or --min flag value). kInvalidArgument naming the bad key (and
// listing the valid ones) or the bad value.
StatusOr<Budget> ParseBudgetFlag(std::string_view text, BudgetBound bound);

// A budget file: one budget per line, `key <= value` or `key >= value`; blank lines and
// lines starting with '#' are ignored. kInvalidArgument "line N: ..." for the first bad line.
StatusOr<std::vector<Budget>> ParseBudgetFile(std::string_view contents);

enum class BudgetStatus { kPass, kFail, kNotMeasured };
std::string_view BudgetStatusName(BudgetStatus status);  // "pass", "fail", "not_measured"

struct BudgetOutcome {
  Budget budget;
  std::string label;
  std::string unit;
  std::optional<double> measured;  // absent: the profile cannot give this number
  BudgetStatus status = BudgetStatus::kNotMeasured;
  std::string note;  // why not measured; empty otherwise
};

namespace check_fields {
inline std::string_view StatusOf(const BudgetOutcome& o) { return BudgetStatusName(o.status); }
inline std::string_view KeyOf(const BudgetOutcome& o) { return o.budget.key; }
inline std::string_view BoundOf(const BudgetOutcome& o) { return o.budget.bound == BudgetBound::kMax ? "max" : "min"; }
inline double LimitOf(const BudgetOutcome& o) { return o.budget.limit; }
}  // namespace check_fields

// One row of the budgets table: the budget as given, what was measured and the outcome.
constexpr auto DescribeRecord(std::type_identity<BudgetOutcome>) {
  using R = BudgetOutcome;
  namespace f = check_fields;
  return output::Record(
      "BudgetOutcome",
      output::Computed<R>("status", f::StatusOf,
                          {.label = "Result", .description = "`pass`, `fail` or `not_measured` (which fails too)"}),
      output::Computed<R>("key", f::KeyOf, {.label = "Budget", .description = "the budget key (`step_ms`, ...)"}),
      output::Field("label", &R::label, {.label = "Metric", .description = "what the key measures"}),
      output::Computed<R>("bound", f::BoundOf,
                          {.label = "Bound", .description = "`max` (measured <= limit) or `min` (measured >= limit)"}),
      output::Computed<R>("limit", f::LimitOf,
                          {.label = "Limit", .description = "the budget's bound, in the metric's unit", .decimals = 3}),
      output::Field("measured", &R::measured,
                    {.label = "Measured", .description = "the profile's value; null when it cannot give it",
                     .decimals = 3}),
      output::Field("unit", &R::unit, {.label = "Unit", .description = "`ms`, `%` or `count`"}),
      output::Field("note", &R::note, {.label = "Note", .description = "why not measured; empty otherwise"}));
}

struct CheckResult {
  std::vector<BudgetOutcome> outcomes;  // in the order the budgets were given
  bool all_hold = true;
};

constexpr auto DescribeRecord(std::type_identity<CheckResult>) {
  using R = CheckResult;
  return output::Record(
      "CheckResult", output::Constant("tool", "check"),
      output::Field("all_hold", &R::all_hold, {.description = "every budget was measured and holds"}),
      output::TableField("budgets", &R::outcomes, "Budgets", {.description = "one row per budget, in the order given"}));
}

// The value of `key` in `model`, or the reason it has none. `key` must be a BudgetMetrics key.
std::optional<double> MeasureBudgetMetric(const ProfileModel& model, std::string_view key, std::string* why_not);

CheckResult CheckBudgets(const ProfileModel& model, const std::vector<Budget>& budgets);

// The text for people (tool.h), one PASS/FAIL line per budget; the JSON and the table
// "budgets" follow from the declaration.
std::string FormatResultText(const CheckResult& result, const ToolOptions& options);

}  // namespace stepscope::analysis
