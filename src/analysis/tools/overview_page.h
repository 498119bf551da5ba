// overview_page: the first page a user sees (TF Profiler's overview): performance
// summary (average step time and its breakdown, device compute precision), the step-time
// graph, top device ops, run environment, op placement and the recommendation for the
// next step.
//
// It computes nothing another tool shows: the step summary and input verdict, the op
// placement, the XLA summary and the recommendations are the model's derivations
// (src/analysis/model/derivations.h), computed once per model and shared with
// input_pipeline_analyzer, framework_op_stats, the HLO tools and the advisor; it shares
// their presentation (input_pipeline.h, framework_op_stats.h, advisor.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/device_models.h"
#include "src/analysis/tools/framework_op_stats.h"
#include "src/analysis/tools/hlo_stats.h"
#include "src/analysis/tools/input_pipeline.h"

namespace stepscope::analysis {

// The overview lists the ten most expensive device ops, as TensorBoard does.
inline constexpr size_t kTopDeviceOps = 10;

struct TopDeviceOp {
  int64_t rank = 0;
  std::string name;
  std::string type;
  std::string category;
  int64_t occurrences = 0;
  double self_time_ms = 0;
  double self_time_percent = 0;   // of all device op self time
  double cumulative_percent = 0;
};

// One sampled device counter (NVML's SM / memory utilisation, memory used, power, as
// stepscope's tracer records them), summarised: the guide's nvidia-smi log, read for you.
struct DeviceCounterRow {
  std::string host;
  std::string device;
  std::string counter;  // "sm_utilization_pct", ...
  int64_t samples = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double last = 0;
  double threshold = 0;           // 0 with at_or_above_percent -1: none
  double at_or_above_percent = -1;  // of the sampled span; -1 when the counter has no threshold
};

struct OverviewPage {
  StepTimeSummary summary;
  std::vector<StepTimeRow> steps;
  std::vector<TopDeviceOp> top_device_ops;
  RunEnvironment run_environment;
  // Sum of the active devices' core_count plane stat (SMs on NVIDIA, CUs on AMD); 0 when
  // the profile does not say. run_environment.device_core_count counts devices, as XProf.
  int64_t device_compute_units = 0;
  std::vector<DeviceModelCount> device_models;  // the device planes by model name
  std::vector<std::string> hostnames;
  bool has_device = false;
  OpPlacement placement;
  std::vector<DeviceCounterRow> device_counters;  // every device's sampled counters
  std::vector<Finding> recommendations;  // the advisor's findings, most important first
  std::string next_step;                 // one sentence: what to do first
  std::vector<std::string> diagnostics;
  // XLA profiles (programs in /host:metadata): FLOP and bandwidth utilisation of the HLO
  // ops against the device roofs (hlo_op_metrics.h); absent otherwise (no `xla` key).
  std::optional<HloOpSummary> xla;
};

OverviewPage ComputeOverviewPage(const ProfileModel& model);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----
// The step summary and step rows are input_pipeline_analyzer's declarations, the XLA summary
// hlo_stats', the findings the advisor's: each written by one declaration.

constexpr auto DescribeRecord(std::type_identity<TopDeviceOp>) {
  using R = TopDeviceOp;
  return output::Record(
      "TopDeviceOp", output::Field("rank", &R::rank, {.label = "Rank", .description = "1 = the most self time"}),
      output::Field("name", &R::name,
                    {.label = "Operation",
                     .description = "the framework op the kernels ran for, or the kernel / copy name",
                     .max_width = 60}),
      output::Field("type", &R::type, {.label = "Type", .max_width = 24}),
      output::Field("category", &R::category,
                    {.label = "Category",
                     .description = "`tensorflow`, `jax`, `pytorch` (the `aten::…` op that launched the kernels), "
                                    "`memcpy_h2d`, `device_kernel`, `other`, ..."}),
      output::Field("occurrences", &R::occurrences, {.label = "Count", .unit = "count"}),
      output::Field("self_time_ms", &R::self_time_ms, {.label = "Self (ms)", .unit = "ms", .decimals = 3}),
      output::Field("self_time_percent", &R::self_time_percent,
                    {.label = "Self %", .unit = "%", .description = "of all device op self time", .decimals = 1}),
      output::Field("cumulative_percent", &R::cumulative_percent,
                    {.label = "Cumulative %", .unit = "%", .description = "this row's and every row above it's",
                     .decimals = 1}));
}

constexpr auto DescribeRecord(std::type_identity<DeviceCounterRow>) {
  using R = DeviceCounterRow;
  return output::Record(
      "DeviceCounterRow", output::Field("host", &R::host, {.label = "Host"}),
      output::Field("device", &R::device, {.label = "Device", .description = "the device's plane"}),
      output::Field("counter", &R::counter,
                    {.label = "Counter",
                     .description = "`sm_utilization_pct`, `memory_utilization_pct`, `memory_used_bytes`, "
                                    "`power_watts` (as stepscope's tracer reads them from NVML)"}),
      output::Field("samples", &R::samples, {.label = "Samples", .unit = "count"}),
      output::Field("mean", &R::mean, {.label = "Mean", .unit = "value", .decimals = 1}),
      output::Field("min", &R::min, {.label = "Min", .unit = "value", .decimals = 1}),
      output::Field("max", &R::max, {.label = "Max", .unit = "value", .decimals = 1}),
      output::Field("last", &R::last, {.label = "Last", .unit = "value", .decimals = 1}),
      output::Field("threshold", &R::threshold,
                    {.label = "Threshold", .unit = "value",
                     .description = "80 for the utilisations, 90 % of the device's memory for memory used; 0 for "
                                    "counters without one",
                     .decimals = 1}),
      output::Field("at_or_above_percent", &R::at_or_above_percent,
                    {.label = "Time >= threshold %", .unit = "%",
                     .description = "share of the sampled span (each sample holding until the next) at or above the "
                                    "threshold; -1 for counters without one",
                     .decimals = 1}));
}

// A host of the run (table "hosts", and the run environment's "hosts").
constexpr auto DescribeRecord(std::type_identity<HostEnvironment>) {
  using R = HostEnvironment;
  return output::Record(
      "HostEnvironment", output::Field("hostname", &R::hostname, {.label = "Host"}),
      output::Field("logical_cores", &R::logical_cores, {.label = "Cores", .unit = "count", .description = "0 = not recorded"}),
      output::Field("process_id", &R::process_id, {.label = "PID", .description = "0 = not recorded"}),
      output::Field("host_memory_bytes", &R::host_memory_bytes,
                    {.label = "Memory (B)", .unit = "bytes", .description = "0 = not recorded"}),
      output::Field("dropped_events", &R::dropped_traces,
                    {.label = "Dropped", .unit = "count", .description = "events lost while recording"}));
}

// The run environment as the overview writes it: the model's, with the devices' compute
// units and models.
struct OverviewEnvironment {
  RunEnvironment env;
  int64_t device_compute_units = 0;
  std::vector<DeviceModelCount> device_models;
};
constexpr auto DescribeRecord(std::type_identity<OverviewEnvironment>) {
  using R = OverviewEnvironment;
  return output::Record(
      "OverviewEnvironment",
      output::Computed<R>("host_count", [](const R& r) { return static_cast<int64_t>(r.env.hosts.size()); },
                          {.unit = "count"}),
      output::Computed<R>("hosts", [](const R& r) -> const std::vector<HostEnvironment>& { return r.env.hosts; },
                          {.description = "one per host (as the table `hosts`)"}),
      output::Computed<R>("device_type", [](const R& r) -> const std::string& { return r.env.device_type; },
                          {.description = "`GPU`, `TPU`, `CPU`, or from Kineto traces `MTIA`, `XPU`, `HPU`, "
                                          "`PrivateUse1` (docs/model.md \"Run environment\")"}),
      output::Computed<R>("device_count", [](const R& r) { return r.env.device_count; },
                          {.unit = "count", .description = "device planes"}),
      output::Computed<R>("active_device_count", [](const R& r) { return r.env.active_device_count; },
                          {.unit = "count", .description = "device planes with activity"}),
      output::Computed<R>("device_core_count", [](const R& r) { return r.env.device_core_count; },
                          {.unit = "count", .description = "devices used, as XProf counts GPU \"cores\""}),
      output::Field("device_compute_units", &R::device_compute_units,
                    {.unit = "count",
                     .description = "sum of the active devices' `core_count` plane stat: SMs / compute units; 0 when "
                                    "not recorded"}),
      output::Field("device_models", &R::device_models, {.description = "the device planes by model name, most first"}),
      output::Computed<R>("dropped_events", [](const R& r) { return r.env.dropped_traces; },
                          {.unit = "count", .description = "events lost while recording, over all hosts"}));
}

// Share of device compute time in 16-bit ops and in the rest ("device_compute_precision").
struct ComputePrecision {
  std::optional<double> bit16_percent;
  std::optional<double> bit32_percent;
};
constexpr auto DescribeRecord(std::type_identity<ComputePrecision>) {
  using R = ComputePrecision;
  return output::Record(
      "ComputePrecision",
      output::Field("bit16_percent", &R::bit16_percent,
                    {.unit = "%", .description = "of device compute time, in 16-bit ops (see below); null without device compute"}),
      output::Field("bit32_percent", &R::bit32_percent,
                    {.unit = "%", .description = "the rest; null without device compute"}));
}

// The title of top_device_ops says how many.
static_assert(kTopDeviceOps == 10, "top_device_ops' title and description say 10");

// The step table's device columns and categories as they apply.
bool ShowColumn(const OverviewPage& page, std::string_view table, std::string_view column);

constexpr auto DescribeRecord(std::type_identity<OverviewPage>) {
  using R = OverviewPage;
  return output::Record(
      "OverviewPage", output::Constant("tool", "overview_page"), output::Inline(&R::summary),
      output::TableView<R>("step_time_breakdown",
                           [](const R& r) { return StepBreakdownRows(r.summary, /*for_people=*/false); },
                           kStepBreakdownTitle, {.description = "the categories that apply, by key"}),
      output::TableView<R>("steps", [](const R& r) { return StepRows(r.steps, r.summary); }, kStepsTableTitle,
                           {.description = "one row per step (as `step_time_graph`)"}),
      output::Computed<R>("step_time_breakdown_ms", [](const R& r) { return StepBreakdownMs(r.summary); },
                          kStepBreakdownMsInfo),
      output::Computed<R>("step_time_breakdown_percent", [](const R& r) { return StepBreakdownPercent(r.summary); },
                          {.unit = "%",
                           .description = "share of total step time per category (the keys of `step_time_breakdown_ms`)"}),
      output::Computed<R>("step_time_stats_ms", [](const R& r) { return r.summary.step_time_ms; }, kStepTimeStatsInfo),
      output::Computed<R>("device_compute_precision",
                          [](const R& r) {
                            const std::optional<double>& bit16 = r.summary.device_compute_16bit_percent;
                            return ComputePrecision{bit16, bit16 ? std::optional<double>(100.0 - *bit16) : std::nullopt};
                          },
                          {.description = "share of device compute time in 16-bit ops and in the rest"}),
      output::Computed<R>("step_time_graph", [](const R& r) { return StepRows(r.steps, r.summary); },
                          {.description = "one row per step (the CSV table `steps`)"}),
      output::TableField("top_device_ops", &R::top_device_ops, "Top 10 device ops by self time",
                         {.description = "the 10 device ops with the most self time"}),
      output::TableView<R>("hosts", [](const R& r) -> const std::vector<HostEnvironment>& { return r.run_environment.hosts; },
                           "Hosts", {.description = "one row per host (as `run_environment.hosts`)"}),
      output::Computed<R>("run_environment",
                          [](const R& r) { return OverviewEnvironment{r.run_environment, r.device_compute_units, r.device_models}; },
                          {.description = "the hosts and devices the profile ran on"}),
      output::Field("op_placement", &R::placement,
                    {.description = "framework op time on the host only and on the device (as framework_op_stats')"}),
      output::Field("xla", &R::xla,
                    {.description = "the HLO tools' common summary",
                     .when = "the profile has XLA programs"}),
      output::TableField("device_counters", &R::device_counters, "Device counters (sampled)",
                         {.description = "each device's sampled counters; empty for profiles without counters"}),
      output::Field("recommendations", &R::recommendations,
                    {.description = "the advisor's findings, most important first"}),
      output::Field("next_step", &R::next_step,
                    {.description = "what to do first: the top finding's title and advice; without findings, the "
                                    "input statement and the largest step-time category"}),
      output::Field("diagnostics", &R::diagnostics,
                    {.description = "problems in the data, in words (no step markers, dropped events, ...)"}));
}

std::string FormatResultText(const OverviewPage& page, const ToolOptions& options);

std::unique_ptr<Tool> MakeOverviewPageTool();

}  // namespace stepscope::analysis
