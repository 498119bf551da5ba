// The step-time summary: average step, breakdown by category, input-bound verdict (the TF
// Profiler's thresholds), bottleneck percentages and the host/device cadence, and the
// per-step rows. Derived once per model (derivations.h: StepSummaryOf, StepRowsOf) and
// read by the overview page, the input pipeline analyzer, the advisor, check and diff.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/framework_guess.h"
#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// Input-bound thresholds, TF Profiler's (XProf ComputeBottleneckAnalysis) values, so a
// profile gets the same verdict in stepscope and in TensorBoard:
// At >= 20 % of step time waiting for input, input is the first thing to fix.
inline constexpr double kHighlyInputBoundThresholdPercent = 20.0;
// At >= 5 % input matters, but other time dominates: fix both.
inline constexpr double kModeratelyInputBoundThresholdPercent = 5.0;
// Below 5 % input, >= 3 % of unexplained ("all other") step time may still be input
// work the profile cannot see (Python, I/O outside instrumented ops): "potentially".
inline constexpr double kAllOtherThresholdPercent = 3.0;

enum class InputBoundVerdict { kHighly, kModerately, kNot, kUnknown };
// "highly", "moderately", "not"; "unknown" only when there are no steps.
std::string_view InputBoundVerdictName(InputBoundVerdict verdict);

// Mean, population standard deviation (divides by n), min and max.
struct SummaryStats {
  int64_t count = 0;
  double mean = 0;
  double stddev = 0;
  double min = 0;
  double max = 0;
};
SummaryStats ComputeSummaryStats(const std::vector<double>& values);

// Everything derived from the per-step breakdowns.
struct StepTimeSummary {
  int64_t step_count = 0;
  int64_t total_step_time_ps = 0;
  StepBreakdown total;  // summed over steps
  double avg_step_time_ms = 0;
  // Average per step, indexed by TimeCategory.
  std::array<double, kNumTimeCategories> avg_category_ms{};
  // Share of total step time, indexed by TimeCategory.
  std::array<double, kNumTimeCategories> category_percent{};

  // XProf's bottleneck numbers, percent of total step time.
  double input_percent = 0;          // (wait for input + host-to-device) / step time
  double output_percent = 0;         // device-to-host
  double device_compute_percent = 0;
  double device_collectives_percent = 0;
  double kernel_launch_percent = 0;  // host_prepare
  double all_other_percent = 0;      // time no event explains
  // max(0, 100 - input - output - device compute - collectives): the device's idle share.
  // Meaningless without a device: nullopt then.
  std::optional<double> idle_percent;

  InputBoundVerdict verdict = InputBoundVerdict::kUnknown;
  // Input < 5 % but all-other >= 3 %: the verdict stays "not", with this caveat.
  bool potentially_input_bound = false;
  // XProf's classification: "host" (highly), "both" (moderately/potentially), "device"
  // (not), "unknown" (no steps).
  std::string classification = "unknown";
  // One sentence explaining the verdict with its numbers.
  std::string statement;

  SummaryStats step_time_ms;   // over steps
  SummaryStats input_time_ms;  // per-step wait for input + host-to-device

  // Share of device compute time spent in 16-bit ops; nullopt without device compute.
  std::optional<double> device_compute_16bit_percent;

  // Whether a category can occur in this profile, indexed by TimeCategory. Categories
  // that cannot are hidden from tables, JSON and the UI rather than shown as 0: the
  // device ones without a device, compilation for PyTorch (its traces do not record
  // it). A category with time always applies.
  std::array<bool, kNumTimeCategories> category_applies{};
  FrameworkGuess framework;

  // What the step time is (ProfileModel::steps' time_source, docs/model.md "Steps"):
  // "host_marker", "device_marker", "step_starts" or "device_completions".
  std::string step_time_source;
  // The device's lag behind the host and the two cadences (steps from step markers with
  // device work; absent otherwise).
  std::optional<StepCadence> cadence;
  // One sentence on the cadences where they differ ("the host issues a step every 16.2
  // ms; the GPU completes one every 18.8 ms and falls 2.6 ms further behind each step"),
  // empty where they agree.
  std::string cadence_statement;
};
StepTimeSummary SummarizeSteps(const ProfileModel& model);
// StepTimeSummary::cadence_statement of `cadence` on a device of `device_type`.
std::string CadenceStatement(const StepCadence& cadence, std::string_view device_type);

// One step of the step-time graph (overview page) and the step table (this tool).
struct StepTimeRow {
  int64_t step_number = 0;
  std::string name;
  double step_time_ms = 0;
  double input_ms = 0;  // XProf's per-step input: wait for input + host-to-device
  std::array<double, kNumTimeCategories> category_ms{};  // indexed by TimeCategory
  // The device work the step launched, wherever it ran: busy time and the lag of its end
  // behind the host step's end (StepInfo::device_busy_ps / device_lag_ps).
  double device_busy_ms = 0;
  double device_lag_ms = 0;
};
std::vector<StepTimeRow> ComputeStepTimeRows(const ProfileModel& model);

}  // namespace stepscope::analysis
