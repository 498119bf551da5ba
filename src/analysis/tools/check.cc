#include "src/analysis/tools/check.h"

#include <charconv>
#include <cmath>
#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/tools/input_pipeline.h"

namespace stepscope::analysis {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

const BudgetMetric* FindMetric(std::string_view key) {
  for (const BudgetMetric& m : BudgetMetrics()) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

Status UnknownKey(std::string_view key) {
  return InvalidArgumentError("unknown budget key '" + std::string(key) + "'; keys: " + BudgetKeyList());
}

// A finite decimal number, the whole of `text`.
StatusOr<double> ParseLimit(std::string_view key, std::string_view text) {
  text = Trim(text);
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return InvalidArgumentError("budget " + std::string(key) + ": '" + std::string(text) + "' is not a number");
  }
  return value;
}

StatusOr<Budget> MakeBudget(std::string_view key, BudgetBound bound, std::string_view value) {
  key = Trim(key);
  if (FindMetric(key) == nullptr) return UnknownKey(key);
  StatusOr<double> limit = ParseLimit(key, value);
  if (!limit.ok()) return limit.status();
  return Budget{std::string(key), bound, *limit};
}

std::string_view BoundSymbol(BudgetBound bound) { return bound == BudgetBound::kMax ? "<=" : ">="; }

std::string FormatValue(double value, std::string_view unit) {
  if (unit == "count") return output::FormatFixed(value, std::floor(value) == value ? 0 : 2);
  return output::FormatFixed(value, 3) + (unit == "%" ? " %" : " " + std::string(unit));
}

std::optional<double> StepShare(const StepTimeSummary& s, double percent, std::string* why_not) {
  if (s.step_count == 0) {
    *why_not = "the profile has no steps";
    return std::nullopt;
  }
  return percent;
}

}  // namespace

const std::vector<BudgetMetric>& BudgetMetrics() {
  static const std::vector<BudgetMetric> kMetrics = {
      {"step_ms", "Mean step time", "ms"},
      {"step_median_ms", "Median step time", "ms"},
      {"step_max_ms", "Slowest step", "ms"},
      {"steps", "Steps", "count"},
      {"input_pct", "Input share of step time", "%"},
      {"device_idle_pct", "Device idle share of step time", "%"},
      {"device_compute_pct", "Device compute share of step time", "%"},
      {"kernel_launch_pct", "Kernel launch share of step time", "%"},
      {"host_compute_ms", "Host compute per step", "ms"},
      {"other_pct", "Unexplained share of step time", "%"},
  };
  return kMetrics;
}

std::string BudgetKeyList() {
  std::string out;
  for (const BudgetMetric& m : BudgetMetrics()) out += (out.empty() ? "" : ", ") + std::string(m.key);
  return out;
}

StatusOr<Budget> ParseBudgetFlag(std::string_view text, BudgetBound bound) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    return InvalidArgumentError("budget '" + std::string(text) + "' must be KEY=VALUE (e.g. step_ms=120); keys: " +
                                BudgetKeyList());
  }
  return MakeBudget(text.substr(0, eq), bound, text.substr(eq + 1));
}

StatusOr<std::vector<Budget>> ParseBudgetFile(std::string_view contents) {
  std::vector<Budget> budgets;
  int line_number = 0;
  while (!contents.empty()) {
    const size_t newline = contents.find('\n');
    std::string_view line = Trim(contents.substr(0, newline));
    contents.remove_prefix(newline == std::string_view::npos ? contents.size() : newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    const std::string where = "line " + std::to_string(line_number) + ": ";
    size_t op = line.find("<=");
    BudgetBound bound = BudgetBound::kMax;
    if (op == std::string_view::npos) {
      op = line.find(">=");
      bound = BudgetBound::kMin;
    }
    if (op == std::string_view::npos) {
      return InvalidArgumentError(where + "'" + std::string(line) + "' must be 'KEY <= VALUE' or 'KEY >= VALUE'");
    }
    StatusOr<Budget> budget = MakeBudget(line.substr(0, op), bound, line.substr(op + 2));
    if (!budget.ok()) return InvalidArgumentError(where + budget.status().message());
    budgets.push_back(std::move(*budget));
  }
  return budgets;
}

std::string_view BudgetStatusName(BudgetStatus status) {
  switch (status) {
    case BudgetStatus::kPass: return "pass";
    case BudgetStatus::kFail: return "fail";
    default: return "not_measured";
  }
}

std::optional<double> MeasureBudgetMetric(const ProfileModel& model, std::string_view key, std::string* why_not) {
  const StepTimeSummary& s = StepSummaryOf(model);
  if (key == "steps") return static_cast<double>(s.step_count);
  if (s.step_count == 0) {
    *why_not = "the profile has no steps";
    return std::nullopt;
  }
  if (key == "step_ms") return s.avg_step_time_ms;  // the overview's number to the last bit
  if (key == "step_max_ms") return s.step_time_ms.max;
  if (key == "step_median_ms") {
    std::vector<double> durations;
    for (const StepInfo& step : model.steps) durations.push_back(PsToMs(step.duration_ps));
    return Median(std::move(durations));
  }
  if (key == "input_pct") return s.input_percent;
  if (key == "other_pct") return s.all_other_percent;
  if (key == "host_compute_ms") return s.avg_category_ms[static_cast<int>(TimeCategory::kHostCompute)];
  if (!model.has_device) {
    *why_not = "the profile has no device activity";
    return std::nullopt;
  }
  if (key == "device_idle_pct") return s.idle_percent;
  if (key == "device_compute_pct") return StepShare(s, s.device_compute_percent, why_not);
  if (key == "kernel_launch_pct") return StepShare(s, s.kernel_launch_percent, why_not);
  *why_not = "unknown budget key";
  return std::nullopt;
}

CheckResult CheckBudgets(const ProfileModel& model, const std::vector<Budget>& budgets) {
  CheckResult result;
  for (const Budget& budget : budgets) {
    BudgetOutcome outcome;
    outcome.budget = budget;
    if (const BudgetMetric* metric = FindMetric(budget.key)) {
      outcome.label = std::string(metric->label);
      outcome.unit = std::string(metric->unit);
    }
    outcome.measured = MeasureBudgetMetric(model, budget.key, &outcome.note);
    if (!outcome.measured) {
      outcome.status = BudgetStatus::kNotMeasured;
    } else {
      const bool holds = budget.bound == BudgetBound::kMax ? *outcome.measured <= budget.limit
                                                           : *outcome.measured >= budget.limit;
      outcome.status = holds ? BudgetStatus::kPass : BudgetStatus::kFail;
      outcome.note.clear();
    }
    if (outcome.status != BudgetStatus::kPass) result.all_hold = false;
    result.outcomes.push_back(std::move(outcome));
  }
  return result;
}

std::string FormatResultText(const CheckResult& result, const ToolOptions&) {
  std::string out;
  int broken = 0;
  for (const BudgetOutcome& o : result.outcomes) {
    const std::string limit = std::string(BoundSymbol(o.budget.bound)) + " " + FormatValue(o.budget.limit, o.unit);
    if (o.status == BudgetStatus::kPass) {
      out += "PASS  " + o.budget.key + " = " + FormatValue(*o.measured, o.unit) + "  (" + limit + ")\n";
    } else if (o.status == BudgetStatus::kFail) {
      ++broken;
      out += "FAIL  " + o.budget.key + " = " + FormatValue(*o.measured, o.unit) + "  (budget " + limit + ")\n";
    } else {
      ++broken;
      out += "FAIL  " + o.budget.key + " not measured: " + o.note + "  (budget " + limit + ")\n";
    }
  }
  out += result.all_hold ? "all " + std::to_string(result.outcomes.size()) + " budgets hold\n"
                         : std::to_string(broken) + " of " + std::to_string(result.outcomes.size()) +
                               " budgets broken\n";
  return out;
}

}  // namespace stepscope::analysis
