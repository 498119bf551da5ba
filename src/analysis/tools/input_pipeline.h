// input_pipeline_analyzer: is the program input bound, by how much, and where the input
// time goes on the host (TF Profiler's input-pipeline analyzer).
//
// The analysis is the model's (src/analysis/model/input_analysis.h, derived once per model);
// this tool declares how it is presented. The step-time summary it starts from is the
// model's too (src/analysis/model/step_summary.h); the declarations of that summary shared
// with the overview page (the summary fields, step rows, breakdown rows) live here.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/analysis/model/input_analysis.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/step_summary.h"
#include "src/analysis/model/units.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/framework.h"

namespace stepscope::analysis {

// The model's input analysis (InputAnalysisOf), as this tool's result.
InputPipelineAnalysis ComputeInputPipelineAnalysis(const ProfileModel& model);

// ---- The step summary, shared with overview_page. ----

// `{mean, stddev, min, max}`.
constexpr auto DescribeRecord(std::type_identity<SummaryStats>) {
  using R = SummaryStats;
  return output::Record(
      "SummaryStats", output::Field("mean", &R::mean, {.unit = "ms"}),
      output::Field("stddev", &R::stddev, {.unit = "ms", .description = "population standard deviation"}),
      output::Field("min", &R::min, {.unit = "ms"}), output::Field("max", &R::max, {.unit = "ms"}));
}

// The host's and the device's cadences with the sentence on them ("step_cadence").
struct StepCadenceSummary {
  StepCadence cadence;
  std::string statement;
};
constexpr auto DescribeRecord(std::type_identity<StepCadenceSummary>) {
  using R = StepCadenceSummary;
  return output::Record(
      "StepCadenceSummary",
      output::Computed<R>("steps", [](const R& r) { return r.cadence.steps; },
                          {.unit = "count", .description = "steps with both a host marker and device work"}),
      output::Computed<R>("host_interval_ms", [](const R& r) { return PsToMs(r.cadence.host_interval_ps); },
                          {.unit = "ms",
                           .description = "mean time between host step ends (with back-to-back markers, step starts)"}),
      output::Computed<R>("device_interval_ms", [](const R& r) { return PsToMs(r.cadence.device_interval_ps); },
                          {.unit = "ms", .description = "mean time between the ends of the steps' device work"}),
      output::Computed<R>("lag_growth_per_step_ms",
                          [](const R& r) { return PsToMs(r.cadence.lag_growth_per_step_ps()); },
                          {.unit = "ms", .description = "how much further the device falls behind each step"}),
      output::Computed<R>("device_bound", [](const R& r) { return r.cadence.device_bound; },
                          {.description = "the device's cadence is the step time"}),
      output::Computed<R>("mean_device_lag_ms", [](const R& r) { return PsToMs(r.cadence.mean_device_lag_ps); },
                          {.unit = "ms",
                           .description = "from a host step's end to the end of the device work it launched"}),
      output::Computed<R>("max_device_lag_ms", [](const R& r) { return PsToMs(r.cadence.max_device_lag_ps); },
                          {.unit = "ms"}),
      output::Field("statement", &R::statement,
                    {.description = "a sentence where the cadences differ by over 2 %; empty otherwise"}));
}

// Inlined into overview_page's and input_pipeline_analyzer's results.
constexpr auto DescribeRecord(std::type_identity<StepTimeSummary>) {
  using R = StepTimeSummary;
  return output::Record(
      "StepTimeSummary", output::Inline(&R::framework),
      output::Field("steps", &R::step_count, {.unit = "count", .description = "number of steps found"}),
      output::Field("avg_step_time_ms", &R::avg_step_time_ms, {.unit = "ms", .description = "mean step time"}),
      output::Computed<R>("input_bound_percent",
                          // Without steps there is no input share (null), not an input share of 0.
                          [](const R& r) { return output::OptionalIf(r.step_count > 0, r.input_percent); },
                          {.unit = "%",
                           .description = "(wait for input + host-to-device) / total step time × 100, as the TF "
                                          "Profiler computes it; null without steps"}),
      output::Computed<R>("input_bound_verdict", [](const R& r) { return InputBoundVerdictName(r.verdict); },
                          {.description = "`highly` (≥ 20 %), `moderately` (≥ 5 %), `not` (< 5 %); `unknown` only "
                                          "when there are no steps"}),
      output::Field("input_bound_potentially", &R::potentially_input_bound,
                    {.description = "the verdict is `not` but ≥ 3 % of step time is explained by no event "
                                    "(possibly uninstrumented input work)"}),
      output::Field("input_bound_classification", &R::classification,
                    {.description = "TF Profiler's classification: `host` (highly), `both` (moderately or "
                                    "potentially), `device` (not), `unknown`"}),
      output::Field("input_bound_statement", &R::statement,
                    {.description = "one sentence explaining the verdict with its numbers"}),
      output::Field("step_time_source", &R::step_time_source,
                    {.description = "what a step's time is (docs/model.md \"Steps\"): `step_starts`, "
                                    "`device_completions`, `host_marker` or `device_marker`"}),
      output::Computed<R>("step_cadence",
                          [](const R& r) {
                            return r.cadence ? std::optional<StepCadenceSummary>({*r.cadence, r.cadence_statement})
                                             : std::nullopt;
                          },
                          {.description = "steps from step markers with device work: the host's and the device's "
                                          "cadences and the device's lag; null otherwise"}));
}

// Average ms per step, and share of step time, by category key, for the categories that
// apply ("step_time_breakdown_ms", "step_time_breakdown_percent").
std::vector<std::pair<std::string, double>> StepBreakdownMs(const StepTimeSummary& summary);
std::vector<std::pair<std::string, double>> StepBreakdownPercent(const StepTimeSummary& summary);
inline constexpr output::FieldInfo kStepBreakdownMsInfo{
    .unit = "ms",
    .description = "average ms per step by category (`compilation`, `input`, `output`, `kernel_launch`, "
                   "`host_compute`, `device_to_device`, `device_collectives`, `device_compute`, `other`), summing to "
                   "`avg_step_time_ms`; categories that cannot occur in the profile are left out"};
inline constexpr output::FieldInfo kStepTimeStatsInfo{.description = "step time over the steps"};

// One step: the overview's step-time graph and this tool's step table.
struct StepRow {
  int64_t step_number = 0;
  std::string step_name;
  double step_time_ms = 0;
  double input_bound_ms = 0;
  std::array<std::optional<double>, kNumTimeCategories> category_ms{};  // absent: the category does not apply
  std::optional<double> device_busy_ms;  // absent: no cadence measured
  std::optional<double> device_lag_ms;
};
std::vector<StepRow> StepRows(const std::vector<StepTimeRow>& rows, const StepTimeSummary& summary);
// Whether a column of the step table is shown: the categories that apply, and the device
// columns where the cadence is measured (as in the rows' JSON).
bool StepColumnShown(const StepTimeSummary& summary, std::string_view column);

namespace step_fields {
inline constexpr std::string_view kCategoryApplies =
    "the category applies to the profile (it is a key of `step_time_breakdown_ms`)";
template <TimeCategory kCategory>
constexpr auto CategoryColumn(std::string_view id, std::string_view label) {
  return output::Computed<StepRow>(
      id, [](const StepRow& r) { return r.category_ms[static_cast<int>(kCategory)]; },
      {.label = label, .unit = "ms", .description = "the step's time in this category", .when = kCategoryApplies});
}
}  // namespace step_fields

constexpr auto DescribeRecord(std::type_identity<StepRow>) {
  using R = StepRow;
  using C = TimeCategory;
  using step_fields::CategoryColumn;
  constexpr std::string_view kCadence = "`step_cadence` is measured";
  return output::Record(
      "StepRow", output::Field("step_number", &R::step_number, {.label = "Step", .description = "the marker's step number"}),
      output::Field("step_name", &R::step_name, {.label = "Name", .description = "e.g. `train 5`", .max_width = 24}),
      output::Field("step_time_ms", &R::step_time_ms, {.label = "Step", .unit = "ms", .description = "the step's duration"}),
      output::Field("input_bound_ms", &R::input_bound_ms,
                    {.label = "Input", .unit = "ms",
                     .description = "the step's wait for input + host-to-device (what `input_bound_percent` counts)"}),
      CategoryColumn<C::kCompilation>("compilation_ms", "compilation"), CategoryColumn<C::kInput>("input_ms", "input"),
      CategoryColumn<C::kOutput>("output_ms", "output"),
      CategoryColumn<C::kKernelLaunch>("kernel_launch_ms", "kernel_launch"),
      CategoryColumn<C::kHostCompute>("host_compute_ms", "host_compute"),
      CategoryColumn<C::kDeviceToDevice>("device_to_device_ms", "device_to_device"),
      CategoryColumn<C::kDeviceCollectives>("device_collectives_ms", "device_collectives"),
      CategoryColumn<C::kDeviceCompute>("device_compute_ms", "device_compute"),
      CategoryColumn<C::kOther>("other_ms", "other"),
      output::Field("device_busy_ms", &R::device_busy_ms,
                    {.label = "Device busy (launched)", .unit = "ms",
                     .description = "the busy time (union over streams and devices) of the device work the step "
                                    "launched, wherever it ran",
                     .when = kCadence}),
      output::Field("device_lag_ms", &R::device_lag_ms,
                    {.label = "Device lag", .unit = "ms",
                     .description = "how far the end of the device work the step launched lies after the host "
                                    "step's end",
                     .when = kCadence}));
}

// One row of the average step's breakdown (table "step_time_breakdown").
struct StepBreakdownRow {
  std::string category;  // the key ("other"), or for people its label ("other (no recorded event)")
  double avg_ms = 0;
  double percent = 0;
};
constexpr auto DescribeRecord(std::type_identity<StepBreakdownRow>) {
  using R = StepBreakdownRow;
  return output::Record(
      "StepBreakdownRow", output::Field("category", &R::category, {.label = "Category", .description = "the category's key"}),
      output::Field("avg_ms", &R::avg_ms, {.label = "Avg (ms)", .unit = "ms", .description = "per step", .decimals = 3}),
      output::Field("percent", &R::percent, {.label = "% of step", .unit = "%", .decimals = 1}));
}
// The categories that apply; the category is its key, or with `for_people` its label.
std::vector<StepBreakdownRow> StepBreakdownRows(const StepTimeSummary& summary, bool for_people);
// The rows as the table "step_time_breakdown".
output::Table StepBreakdownTable(const StepTimeSummary& summary, bool for_people);
inline constexpr std::string_view kStepsTableTitle = "Step time per step (ms)";
inline constexpr std::string_view kStepBreakdownTitle = "Average step time breakdown";

// ---- This tool's own records. ----

constexpr auto DescribeRecord(std::type_identity<InputShareRow>) {
  using R = InputShareRow;
  return output::Record(
      "InputShareRow",
      output::Field("kind", &R::kind,
                    {.label = "Kind",
                     .description = "`wait_for_input` (IteratorGetNext / DataLoader `__next__` / input stages) or "
                                    "`host_to_device` (copies to the device)"}),
      output::Field("label", &R::label,
                    {.label = "What the step waited for", .description = "in the framework's words", .max_width = 70}),
      output::Field("avg_ms", &R::avg_ms, {.label = "Avg per step (ms)", .unit = "ms", .decimals = 3}),
      output::Field("percent", &R::percent,
                    {.label = "% of step time", .unit = "%",
                     .description = "the rows add up to `input_bound_percent`", .decimals = 1}));
}

constexpr auto DescribeRecord(std::type_identity<HostBreakdownRow>) {
  using R = HostBreakdownRow;
  return output::Record(
      "HostBreakdownRow",
      output::Field("category", &R::category, {.label = "Category", .description = "a `host_breakdown_ms` key"}),
      output::Field("label", &R::label, {.label = "Input work", .description = "for people", .max_width = 60}),
      output::Field("time_ms", &R::time_ms,
                    {.label = "Time (ms)", .unit = "ms", .description = "self time of the class's host ops over the profile"}));
}

constexpr auto DescribeRecord(std::type_identity<InputOpRow>) {
  using R = InputOpRow;
  constexpr std::string_view kHostRowsOnly = "of all host op self time, idle excluded, as the TF Profiler; null for device rows";
  return output::Record(
      "InputOpRow",
      output::Field("name", &R::name,
                    {.label = "Input op",
                     .description = "host: the op; device: the op that issued the copy (e.g. `aten::copy_`)",
                     .max_width = 60}),
      output::Field("type", &R::type,
                    {.label = "Type",
                     .description = "host: the op's type; device: the copy event and its source memory (e.g. "
                                    "`MemcpyHtoD (from pinned memory)`)",
                     .max_width = 32}),
      output::Field("category", &R::category,
                    {.label = "Category", .description = "host: a `host_breakdown_ms` key; device: `host_to_device`"}),
      output::Computed<R>("host_or_device", [](const R& r) { return std::string_view(r.on_device ? "device" : "host"); },
                          {.label = "Where", .description = "`host` or `device`"}),
      output::Field("count", &R::count, {.label = "Count", .unit = "count"}),
      output::Field("total_time_ms", &R::total_time_ms, {.label = "Total (ms)", .unit = "ms"}),
      output::Field("total_time_percent", &R::total_time_percent,
                    {.label = "Total % of host op time", .unit = "%", .description = kHostRowsOnly, .decimals = 1}),
      output::Field("self_time_ms", &R::self_time_ms, {.label = "Self (ms)", .unit = "ms", .description = "device rows: = total"}),
      output::Field("self_time_percent", &R::self_time_percent,
                    {.label = "Self % of host op time", .unit = "%", .description = kHostRowsOnly, .decimals = 1}),
      output::Field("step_time_percent", &R::step_time_percent,
                    {.label = "Self % of step time", .unit = "%",
                     .description = "self time over the summed step time: not overlap-resolved and counting time "
                                    "outside steps, so it need not add up to the input share; null without steps",
                     .decimals = 1}));
}

constexpr auto DescribeRecord(std::type_identity<PipelineBottleneckLink>) {
  using R = PipelineBottleneckLink;
  return output::Record(
      "PipelineBottleneckLink", output::Constant("tool", "tf_data_bottleneck_analysis"),
      output::Field("pipeline", &R::pipeline, {.description = "e.g. `Host:0`"}),
      output::Field("stage", &R::stage, {.description = "the stage's long name, e.g. `Iterator::Batch::Map`"}),
      output::Field("kind", &R::kind, {.description = "the kind of fix it calls for (`tf_data_bottleneck_analysis`' `kind`)"}),
      output::Field("share_percent", &R::share_percent,
                    {.unit = "%", .description = "of the blocking time in the slowest calls"}),
      output::Field("self_time_per_call_us", &R::self_time_per_call_us, {.unit = "us"}),
      output::Field("suggestion", &R::suggestion),
      output::Field("statement", &R::statement,
                    {.description = "\"Input bound — the bottleneck is stage X of pipeline Host:0 (…)\""}));
}

// XProf's bottleneck numbers, % of total step time ("bottleneck_percent").
struct BottleneckPercent {
  double input = 0;
  std::optional<double> output;  // absent: the category does not apply
  std::optional<double> device_compute;
  std::optional<double> device_collectives;
  std::optional<double> kernel_launch;
  double all_other = 0;
  std::optional<double> idle;  // null without a device
};
BottleneckPercent BottleneckPercentOf(const StepTimeSummary& summary);
constexpr auto DescribeRecord(std::type_identity<BottleneckPercent>) {
  using R = BottleneckPercent;
  constexpr output::FieldInfo kApplies{.unit = "%", .when = step_fields::kCategoryApplies};
  return output::Record(
      "BottleneckPercent", output::Field("input", &R::input, {.unit = "%"}), output::Field("output", &R::output, kApplies),
      output::Field("device_compute", &R::device_compute, kApplies),
      output::Field("device_collectives", &R::device_collectives, kApplies),
      output::Field("kernel_launch", &R::kernel_launch, kApplies),
      output::Field("all_other", &R::all_other, {.unit = "%", .description = "time no event explains"}),
      output::Field("idle", &R::idle,
                    {.unit = "%",
                     .description = "max(0, 100 − input − output − device compute − collectives): the device's idle "
                                    "share; null without a device"}));
}

// The step table and the tables' device columns: the categories that apply.
bool ShowColumn(const InputPipelineAnalysis& analysis, std::string_view table, std::string_view column);

constexpr auto DescribeRecord(std::type_identity<InputPipelineAnalysis>) {
  using R = InputPipelineAnalysis;
  return output::Record(
      "InputPipelineAnalysis", output::Constant("tool", "input_pipeline_analyzer"), output::Inline(&R::summary),
      output::TableView<R>("steps", [](const R& r) { return StepRows(r.steps, r.summary); }, kStepsTableTitle,
                           {.description = "one row per step (as `step_details`)"}),
      output::Computed<R>("step_time_stats_ms", [](const R& r) { return r.summary.step_time_ms; }, kStepTimeStatsInfo),
      output::Computed<R>("input_time_stats_ms", [](const R& r) { return r.summary.input_time_ms; },
                          {.description = "the per-step input time (`input_bound_ms`): the device-side \"time waiting "
                                          "for input\" per step"}),
      output::Computed<R>("step_time_breakdown_ms", [](const R& r) { return StepBreakdownMs(r.summary); },
                          kStepBreakdownMsInfo),
      output::Computed<R>("bottleneck_percent", [](const R& r) { return BottleneckPercentOf(r.summary); },
                          {.description = "TF Profiler's bottleneck numbers, % of total step time"}),
      output::TableField("input_share", &R::input_share, "Input share of step time",
                         {.description = "what the step waited for; empty without steps"}),
      output::Computed<R>("host_breakdown_ms",
                          [](const R& r) {
                            std::vector<std::pair<std::string, double>> ms;
                            for (const HostBreakdownRow& row : r.host_breakdown) ms.emplace_back(row.category, row.time_ms);
                            return ms;
                          },
                          {.unit = "ms",
                           .description = "self time of the host input ops over the whole profile by class, for the "
                                          "classes that apply to the framework (see below)"}),
      output::TableField("host_breakdown", &R::host_breakdown, "Host-side input time (ms, whole profile)",
                         {.description = "the same classes as rows"}),
      output::TableField("input_ops", &R::input_ops, "Input ops (host ops, and host-to-device copies on the device)",
                         {.description = "host input ops by self time, then host-to-device copies on the device by time"}),
      output::Computed<R>("step_details", [](const R& r) { return StepRows(r.steps, r.summary); },
                          {.description = "one row per step (the CSV table `steps`)"}),
      output::Field("uses_tf_data", &R::uses_tf_data, {.description = "any `Iterator::…` op recorded"}),
      output::Field("get_next_count", &R::get_next_count,
                    {.unit = "count",
                     .description = "input fetches (`IteratorGetNext*`, and PyTorch's `enumerate(DataLoader)#…__next__`)"}),
      output::Field("data_loader_next_count", &R::data_loader_next_count,
                    {.unit = "count", .description = "of `get_next_count`, the PyTorch DataLoader's"}),
      output::Field("get_next_outside_steps", &R::get_next_outside_steps,
                    {.unit = "count",
                     .description = "input fetches outside every step (their wait is then missing from the breakdown)"}),
      output::Field("recommendation", &R::recommendation,
                    {.description = "what to do about the input pipeline, in the framework's own knobs"}),
      output::Field("pipeline_bottleneck", &R::pipeline_bottleneck,
                    {.description = "the stage `tf_data_bottleneck_analysis` names; the advisor's `input_bound` finding "
                                    "then names it too",
                     .when = "`tf_data_bottleneck_analysis` finds the run input bound on one stage"}),
      output::Field("diagnostics", &R::diagnostics, {.description = "the model's diagnostics plus this tool's"}));
}

std::string FormatResultText(const InputPipelineAnalysis& analysis, const ToolOptions& options);

std::unique_ptr<Tool> MakeInputPipelineTool();

}  // namespace stepscope::analysis
