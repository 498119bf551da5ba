// input_pipeline_analyzer: is the program input bound, by how much, and where the input
// time goes on the host (TF Profiler's input-pipeline analyzer).
//
// Also home of the step-time summary (average step, breakdown by category, input-bound
// verdict, bottleneck percentages): the overview page and the advisor call
// SummarizeSteps() rather than computing their own copy.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/framework.h"

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
// Table "steps": step_number, step_name, step_time_ms, input_bound_ms (the time the
// input-bound percent counts: wait for input + host-to-device), then one
// "<category>_ms" column per TimeCategory that applies (StepTimeSummary), then, where the
// cadence is measured, device_busy_ms and device_lag_ms of the work each step launched.
output::Table StepTimeTable(const std::vector<StepTimeRow>& rows, const StepTimeSummary& s);
// Table "step_time_breakdown": category, avg_ms, percent per TimeCategory that applies.
// The category cell is its key ("other"), or with `for_people` its label ("other (no
// recorded event)").
output::Table StepBreakdownTable(const StepTimeSummary& s, bool for_people);

// The host-side input breakdown keys, indexed by InputOpCategory ("enqueue_to_device" is
// MemcpyHToD / InfeedEnqueue / device_put; "data_loader" and "pin_memory" are PyTorch's).
inline constexpr std::array<std::string_view, kNumInputOpCategories> kHostBreakdownKeys = {
    "demanded_file_read", "advanced_file_read", "preprocessing", "enqueue_to_device", "other",
    "data_loader",        "pin_memory"};
// The category of an input op row for a host-to-device copy on the device.
inline constexpr std::string_view kDeviceCopyCategory = "host_to_device";

// The input share of step time split by what the step waited for: the two fine types of
// the step breakdown that the input-bound percent adds up, so the rows' percents sum to
// StepTimeSummary::input_percent.
struct InputShareRow {
  std::string kind;   // "wait_for_input" (kHostWaitInput) or "host_to_device" (kHostToDevice)
  std::string label;  // in the framework's words ("Waiting for the DataLoader (...)")
  double avg_ms = 0;  // per step
  double percent = 0;  // of step time
};

// One host input class that applies to the profile's framework (the rest are hidden).
struct HostBreakdownRow {
  std::string category;  // a kHostBreakdownKeys key
  std::string label;     // for people ("DataLoader iteration (enumerate(DataLoader)...__next__)")
  double time_ms = 0;    // self time of the class's host ops over the whole profile
};

struct InputOpRow {
  std::string name;      // host: the op; device: the op that issued the copy
  std::string type;      // host: op type; device: the copy event ("Memcpy HtoD (Pinned -> Device)")
  std::string category;  // host: a kHostBreakdownKeys key; device: kDeviceCopyCategory
  bool on_device = false;
  int64_t count = 0;
  double total_time_ms = 0;
  // Of all host op self time (idle excluded), as XProf; host rows only.
  std::optional<double> total_time_percent;
  double self_time_ms = 0;  // device rows: == total (a copy has no children)
  std::optional<double> self_time_percent;  // host rows only
  // Self time over the summed step time (not overlap-resolved, and time outside steps
  // counts: the step breakdown's input share is the exact number); nullopt without steps.
  std::optional<double> step_time_percent;
};

// What tf_data_bottleneck_analysis found, when it found the run input bound on one stage.
struct PipelineBottleneckLink {
  std::string pipeline;        // "Host:0"
  std::string stage;           // "Iterator::Batch::Map"
  std::string kind;            // BottleneckKindName
  double share_percent = 0;    // of the blocking time in the slowest calls
  double self_time_per_call_us = 0;
  std::string suggestion;
  // "Input bound — the bottleneck is stage X (...)": one line for people.
  std::string statement;
};
// The link, or nullopt when the profile has no iterator events, is not input bound by
// that analysis, or no stage blocked.
std::optional<PipelineBottleneckLink> FindPipelineBottleneck(const ProfileModel& model);

struct InputPipelineAnalysis {
  StepTimeSummary summary;
  std::vector<StepTimeRow> steps;
  std::vector<InputShareRow> input_share;  // empty without steps
  // Total self time over the profile per host input category (kHostBreakdownKeys order).
  std::array<double, kNumInputOpCategories> host_breakdown_ms{};
  std::vector<HostBreakdownRow> host_breakdown;  // the categories that apply, in key order
  std::vector<InputOpRow> input_ops;  // host ops by self time, then device copies by time
  bool uses_tf_data = false;
  int64_t get_next_count = 0;  // input fetches: IteratorGetNext* and DataLoader __next__
  int64_t data_loader_next_count = 0;  // of those, PyTorch DataLoader __next__
  int64_t get_next_outside_steps = 0;
  std::string recommendation;
  std::optional<PipelineBottleneckLink> pipeline_bottleneck;  // tf_data_bottleneck_analysis's
  std::vector<std::string> diagnostics;  // the model's, plus this tool's
};

InputPipelineAnalysis ComputeInputPipelineAnalysis(const ProfileModel& model);

void WriteResultJson(const InputPipelineAnalysis& analysis, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const InputPipelineAnalysis& analysis);
std::string FormatResultText(const InputPipelineAnalysis& analysis, const ToolOptions& options);

// Writes the summary fields shared by overview_page and input_pipeline_analyzer JSON
// ("steps", "avg_step_time_ms", "input_bound_*", ...) into the current object.
void WriteStepSummaryJson(const StepTimeSummary& summary, output::JsonWriter* writer);
// The "step_time_breakdown_ms" object: average ms per step by category key.
void WriteStepBreakdownJson(const StepTimeSummary& summary, output::JsonWriter* writer);
// "{mean, stddev, min, max}" in the current value position.
void WriteSummaryStatsJson(const SummaryStats& stats, output::JsonWriter* writer);

std::unique_ptr<Tool> MakeInputPipelineTool();

}  // namespace stepscope::analysis
