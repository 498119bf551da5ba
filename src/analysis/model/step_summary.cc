#include "src/analysis/model/step_summary.h"

#include <algorithm>
#include <cmath>

#include "src/analysis/model/units.h"
#include "src/base/format_number.h"

namespace stepscope::analysis {
namespace {

std::string Pct(double percent) { return base::FormatFixed(percent, 1) + " %"; }

std::string VerdictStatement(const StepTimeSummary& s) {
  switch (s.verdict) {
    case InputBoundVerdict::kHighly:
      return "HIGHLY input bound: " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Reduce input time first.";
    case InputBoundVerdict::kModerately:
      return "MODERATELY input bound: " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Reduce both the input time and the rest of the step.";
    case InputBoundVerdict::kNot:
      if (s.potentially_input_bound) {
        return "NOT input bound by the recorded input (" + Pct(s.input_percent) + "), but " +
               Pct(s.all_other_percent) +
               " of step time is explained by no recorded event; if that is uninstrumented input work "
               "(Python, file reads), the program is POTENTIALLY input bound.";
      }
      return "NOT input bound: only " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Look at the rest of the step.";
    case InputBoundVerdict::kUnknown:
      break;
  }
  return "No steps were found, so the input share of the step cannot be computed. " +
         std::string(HowToMarkSteps(s.framework.framework));
}

// Which step-time categories can occur in this profile (StepTimeSummary::category_applies).
std::array<bool, kNumTimeCategories> CategoriesThatApply(const ProfileModel& model, Framework framework,
                                                         const StepBreakdown& total) {
  std::array<bool, kNumTimeCategories> applies;
  for (int c = 0; c < kNumTimeCategories; ++c) {
    const TimeCategory category = static_cast<TimeCategory>(c);
    bool can_occur = true;
    switch (category) {
      case TimeCategory::kOutput:
      case TimeCategory::kKernelLaunch:
      case TimeCategory::kDeviceToDevice:
      case TimeCategory::kDeviceCollectives:
      case TimeCategory::kDeviceCompute: can_occur = model.has_device; break;
      case TimeCategory::kCompilation: can_occur = framework != Framework::kPyTorch; break;
      default: break;
    }
    applies[c] = can_occur || total.category_ps(category) > 0;
  }
  return applies;
}

}  // namespace

std::string_view InputBoundVerdictName(InputBoundVerdict verdict) {
  switch (verdict) {
    case InputBoundVerdict::kHighly: return "highly";
    case InputBoundVerdict::kModerately: return "moderately";
    case InputBoundVerdict::kNot: return "not";
    case InputBoundVerdict::kUnknown: return "unknown";
  }
  return "unknown";
}

SummaryStats ComputeSummaryStats(const std::vector<double>& values) {
  SummaryStats stats;
  stats.count = static_cast<int64_t>(values.size());
  if (values.empty()) return stats;
  double sum = 0;
  stats.min = values[0];
  stats.max = values[0];
  for (double v : values) {
    sum += v;
    stats.min = std::min(stats.min, v);
    stats.max = std::max(stats.max, v);
  }
  stats.mean = sum / values.size();
  double sq = 0;
  for (double v : values) sq += (v - stats.mean) * (v - stats.mean);
  stats.stddev = std::sqrt(sq / values.size());
  return stats;
}

StepTimeSummary SummarizeSteps(const ProfileModel& model) {
  StepTimeSummary s;
  s.step_count = static_cast<int64_t>(model.steps.size());
  std::vector<double> step_ms, input_ms;
  for (const StepInfo& step : model.steps) {
    s.total_step_time_ps += step.duration_ps;
    s.total.Add(step.breakdown);
    step_ms.push_back(PsToMs(step.duration_ps));
    input_ms.push_back(PsToMs(step.breakdown.input_ps()));
  }
  s.step_time_ms = ComputeSummaryStats(step_ms);
  s.input_time_ms = ComputeSummaryStats(input_ms);
  if (s.step_count > 0) s.avg_step_time_ms = PsToMs(s.total_step_time_ps) / s.step_count;
  const double total = static_cast<double>(s.total_step_time_ps);
  for (int c = 0; c < kNumTimeCategories; ++c) {
    const int64_t ps = s.total.category_ps(static_cast<TimeCategory>(c));
    if (s.step_count > 0) s.avg_category_ms[c] = PsToMs(ps) / s.step_count;
    s.category_percent[c] = Percent(ps, total);
  }
  s.input_percent = StepsInputPercent(model.steps).value_or(0);
  s.output_percent = Percent(s.total.ps(EventType::kDeviceToHost), total);
  s.device_compute_percent = Percent(s.total.category_ps(TimeCategory::kDeviceCompute), total);
  s.device_collectives_percent = Percent(s.total.ps(EventType::kDeviceCollectives), total);
  s.kernel_launch_percent = Percent(s.total.ps(EventType::kHostPrepare), total);
  s.all_other_percent = Percent(s.total.ps(EventType::kUnknownTime), total);
  if (model.has_device) {
    s.idle_percent = std::max(0.0, 100.0 - s.input_percent - s.output_percent - s.device_compute_percent -
                                       s.device_collectives_percent);
  }

  s.framework = DetectFramework(model);
  s.category_applies = CategoriesThatApply(model, s.framework.framework, s.total);
  if (s.step_count == 0 || s.total_step_time_ps <= 0) {
    s.verdict = InputBoundVerdict::kUnknown;
    s.classification = "unknown";
  } else if (s.input_percent >= kHighlyInputBoundThresholdPercent) {
    s.verdict = InputBoundVerdict::kHighly;
    s.classification = "host";
  } else if (s.input_percent >= kModeratelyInputBoundThresholdPercent) {
    s.verdict = InputBoundVerdict::kModerately;
    s.classification = "both";
  } else {
    s.verdict = InputBoundVerdict::kNot;
    s.potentially_input_bound = s.all_other_percent >= kAllOtherThresholdPercent;
    s.classification = s.potentially_input_bound ? "both" : "device";
  }
  s.statement = VerdictStatement(s);

  const int64_t dc16 = s.total.ps(EventType::kDeviceCompute16);
  const int64_t dc = dc16 + s.total.ps(EventType::kDeviceCompute32);
  if (model.has_device && dc > 0) s.device_compute_16bit_percent = Percent(dc16, dc);
  if (!model.steps.empty()) s.step_time_source = std::string(StepTimeSourceName(model.steps.front().time_source));
  if (model.step_cadence.steps > 0) {
    s.cadence = model.step_cadence;
    s.cadence_statement = CadenceStatement(model.step_cadence, model.run_environment.device_type);
  }
  return s;
}

std::string CadenceStatement(const StepCadence& c, std::string_view device_type) {
  const int64_t growth = c.lag_growth_per_step_ps();
  // Cadences within 2 % of each other (kDeviceBoundPerMille's margin) agree: nothing to say.
  if (c.host_interval_ps <= 0 || std::abs(growth) * 50 <= c.host_interval_ps) return "";
  const std::string device(device_type.empty() || device_type == "CPU" ? "device" : device_type);
  std::string text = "the host issues a step every " + base::FormatFixed(PsToMs(c.host_interval_ps), 1) + " ms; the " +
                     device + " completes one every " + base::FormatFixed(PsToMs(c.device_interval_ps), 1) + " ms and ";
  if (growth > 0) {
    text += "falls " + base::FormatFixed(PsToMs(growth), 1) + " ms further behind each step";
    if (c.device_bound) text += ", so the step time is the " + device + "'s";
  } else {
    text += "catches up " + base::FormatFixed(PsToMs(-growth), 1) + " ms each step";
  }
  return text;
}

std::vector<StepTimeRow> ComputeStepTimeRows(const ProfileModel& model) {
  std::vector<StepTimeRow> rows;
  rows.reserve(model.steps.size());
  for (const StepInfo& step : model.steps) {
    StepTimeRow row;
    row.step_number = step.step_number;
    row.name = step.name;
    row.step_time_ms = PsToMs(step.duration_ps);
    row.input_ms = PsToMs(step.breakdown.input_ps());
    for (int c = 0; c < kNumTimeCategories; ++c) {
      row.category_ms[c] = PsToMs(step.breakdown.category_ps(static_cast<TimeCategory>(c)));
    }
    row.device_busy_ms = PsToMs(step.device_busy_ps);
    row.device_lag_ms = PsToMs(step.device_lag_ps());
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace stepscope::analysis
