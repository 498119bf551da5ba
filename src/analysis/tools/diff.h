// diff: did my change help? Two analysed profiles side by side — run A (before) and run B
// (after): step time, each step-time category, the input share and verdict, and the ops
// and kernels whose time changed most, matched by name, with the ones only one run has.
//
// A pure function of two ProfileModels (`stepscope diff`, GET /api/compare and the UI's
// Compare page all call CompareProfiles), built from what the single-run tools compute:
// SummarizeSteps for steps, categories and the verdict, the models' op tables and kernel
// reports for ops and kernels. Nothing here reads files or knows where a model came from.
//
// The result is declared once (DescribeRecord below): the JSON keys, the CSV headers,
// /api/compare/tables, the UI's types (ui/src/generated/tools.ts) and the reference in
// docs/tools.md all follow from that one declaration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/device_models.h"
#include "src/analysis/tools/input_pipeline.h"

namespace stepscope::analysis {

// Text output and the UI show this many changed ops and kernels by default; JSON and CSV
// carry every matched name.
inline constexpr size_t kDiffTopChanges = 10;

// Op and kernel times are compared per step when both runs have steps: two captures of
// different length (40 steps before, 60 after) would otherwise differ by their length.
enum class DiffTimeBasis { kPerStep, kTotal };
std::string_view DiffTimeBasisName(DiffTimeBasis basis);  // "per_step", "total"

// How a name matched: in both runs, only in B (added) or only in A (removed).
enum class DiffChange { kMatched, kAdded, kRemoved };
std::string_view DiffChangeName(DiffChange change);  // "matched", "added", "removed"

// One profile as the comparison names it.
struct DiffSide {
  std::string label;  // what the user pointed at: run name, or file path
  std::vector<std::string> hosts;
  std::string framework;  // FrameworkKey
  int64_t steps = 0;
  std::string device_type;  // RunEnvironment::device_type
  std::vector<DeviceModelCount> devices;  // the device planes by model (CountDeviceModels)
};

constexpr auto DescribeRecord(std::type_identity<DiffSide>) {
  using R = DiffSide;
  return output::Record(
      "DiffSide",
      output::Field("label", &R::label, {.description = "`run R (host H)` or the file path: what the user pointed at"}),
      output::Field("hosts", &R::hosts, {.description = "the hosts of the profile"}),
      output::Field("framework", &R::framework, {.description = "the framework the profile comes from (FrameworkKey)"}),
      output::Field("steps", &R::steps, {.unit = "count", .description = "steps of the profile"}),
      output::Field("device_type", &R::device_type, {.description = "`GPU`, `TPU`, ...; empty for a host-only profile"}),
      output::Field("devices", &R::devices,
                    {.description = "the device planes by model, as the overview's `device_models`"}));
}

// A number of both runs. `delta` = b - a; `delta_percent` = 100 * delta / a, absent when
// a is 0 or the metric is itself a percentage (its delta is in points then).
struct DiffMetric {
  std::string key;    // "step_time_mean_ms"
  std::string label;  // "Mean step time"
  std::string unit;   // "ms", "%", "count"
  std::optional<double> a;  // absent: does not apply to that run (no steps, no device)
  std::optional<double> b;
  std::optional<double> delta;
  std::optional<double> delta_percent;
};

// The summary table's a, b and delta are in the row's `unit`: no column unit of their own.
constexpr auto DescribeRecord(std::type_identity<DiffMetric>) {
  using R = DiffMetric;
  return output::Record(
      "DiffMetric",
      output::Field("metric", &R::key, {.label = "Metric key", .description = "`step_time_mean_ms`, ..."}),
      output::Field("label", &R::label, {.label = "Metric"}),
      output::Field("unit", &R::unit, {.label = "Unit", .description = "`ms`, `ms/step`, `%` or `count`"}),
      output::Field("a", &R::a, {.label = "A", .description = "A's value; null where it does not apply (no steps, no device)",
                                 .decimals = 3}),
      output::Field("b", &R::b, {.label = "B", .description = "B's value; null where it does not apply", .decimals = 3}),
      output::Field("delta", &R::delta,
                    {.label = "Change (B - A)", .description = "b - a; in points for a `%` metric", .decimals = 3}),
      output::Field("delta_percent", &R::delta_percent,
                    {.label = "Change %", .unit = "%",
                     .description = "100 × delta / a; null for a `%` metric and when a is 0", .decimals = 1}));
}

// One step-time category: average ms per step and share of the step, in both runs.
struct DiffCategory {
  std::string category;  // TimeCategoryKey
  std::string label;     // TimeCategoryLabel
  double a_ms = 0;
  double b_ms = 0;
  double delta_ms = 0;
  std::optional<double> delta_percent;  // of a_ms; absent when a_ms is 0
  double a_percent = 0;  // share of A's step time
  double b_percent = 0;
};

constexpr auto DescribeRecord(std::type_identity<DiffCategory>) {
  using R = DiffCategory;
  return output::Record(
      "DiffCategory",
      output::Field("category", &R::category, {.label = "Category key", .description = "the step-time category"}),
      output::Field("label", &R::label, {.label = "Category"}),
      output::Field("a_ms", &R::a_ms, {.label = "A (ms)", .unit = "ms", .description = "A's average per step",
                                       .decimals = 3}),
      output::Field("b_ms", &R::b_ms, {.label = "B (ms)", .unit = "ms", .description = "B's average per step",
                                       .decimals = 3}),
      output::Field("delta_ms", &R::delta_ms, {.label = "Change (ms)", .unit = "ms", .description = "b_ms - a_ms",
                                               .decimals = 3}),
      output::Field("delta_percent", &R::delta_percent,
                    {.label = "Change %", .unit = "%", .description = "of a_ms; null when a_ms is 0", .decimals = 1}),
      output::Field("a_percent", &R::a_percent,
                    {.label = "A % of step", .unit = "%", .description = "share of A's step time", .decimals = 1}),
      output::Field("b_percent", &R::b_percent,
                    {.label = "B % of step", .unit = "%", .description = "share of B's step time", .decimals = 1}));
}

// One run's input verdict (SummarizeSteps).
struct DiffInputVerdict {
  std::string side;   // "a" or "b"
  std::string label;  // DiffSide::label
  std::optional<double> input_bound_percent;  // absent without steps
  double input_ms = 0;  // mean per-step input time
  std::string verdict;         // InputBoundVerdictName
  std::string classification;  // "host", "both", "device", "unknown"
  std::string statement;
};

constexpr auto DescribeRecord(std::type_identity<DiffInputVerdict>) {
  using R = DiffInputVerdict;
  return output::Record(
      "DiffInputVerdict",
      output::Field("side", &R::side, {.label = "Run", .description = "`a` or `b`"}),
      output::Field("label", &R::label, {.label = "Profile", .description = "the side's label", .max_width = 40}),
      output::Field("input_bound_percent", &R::input_bound_percent,
                    {.label = "Input %", .unit = "%", .description = "input share of step time; null without steps",
                     .decimals = 1}),
      output::Field("input_ms", &R::input_ms,
                    {.label = "Input (ms/step)", .unit = "ms", .description = "mean input time per step", .decimals = 3}),
      output::Field("verdict", &R::verdict,
                    {.label = "Input bound", .description = "`highly`, `moderately`, `not` or `unknown`"}),
      output::Field("classification", &R::classification,
                    {.label = "Bottleneck", .description = "`host`, `both`, `device` or `unknown`"}),
      output::Field("statement", &R::statement,
                    {.label = "Why", .description = "as `input_pipeline_analyzer` words it", .max_width = 80}));
}

// An op (by side and name) or a kernel (by name) in either run.
struct DiffItem {
  std::string name;
  std::string kind;  // ops: "host" or "device"; kernels: "kernel"
  std::string type;  // ops: the op type (A's when both have it); kernels: empty
  DiffChange change = DiffChange::kMatched;
  double a_ms = 0;  // self time (ops) or total kernel time (kernels), on the time basis
  double b_ms = 0;
  double delta_ms = 0;
  std::optional<double> delta_percent;  // of a_ms; absent when a_ms is 0 (added)
  int64_t a_count = 0;  // occurrences / launches over the whole profile
  int64_t b_count = 0;
};

// An op and a kernel compare the same way (DiffItem), but each names its quantities as the
// single-run tools do (an op's self time and occurrences, a kernel's total time and
// launches): one declaration each. Their times are on the result's time basis, per step
// or over the whole profile, so the unit is ms either way and `time_basis` says which.
struct DiffOp : DiffItem {};
struct DiffKernel : DiffItem {};

namespace diff_fields {
inline constexpr output::FieldInfo kChange = {
    .label = "In", .description = "`matched` (in both runs), `added` (only in B) or `removed` (only in A)"};
inline constexpr output::FieldInfo kDeltaMs = {
    .label = "Change", .unit = "ms", .description = "b - a, on the time basis", .decimals = 3};
inline constexpr output::FieldInfo kDeltaPercent = {
    .label = "Change %", .unit = "%", .description = "of A's time; null when A has none (added)", .decimals = 1};
inline std::string_view ChangeOf(const DiffItem& item) { return DiffChangeName(item.change); }
}  // namespace diff_fields

constexpr auto DescribeRecord(std::type_identity<DiffOp>) {
  using R = DiffItem;
  namespace f = diff_fields;
  return output::Record(
      "DiffOp",
      output::Field("host_or_device", &R::kind, {.label = "Side", .description = "`host` or `device`"}),
      output::Field("name", &R::name, {.label = "Op", .max_width = 50}),
      output::Field("type", &R::type, {.label = "Type", .description = "the op type (A's when both have it)",
                                       .max_width = 24}),
      output::Computed<R>("change", f::ChangeOf, f::kChange),
      output::Field("a_self_time_ms", &R::a_ms,
                    {.label = "A self", .unit = "ms", .description = "A's self time on the time basis", .decimals = 3}),
      output::Field("b_self_time_ms", &R::b_ms,
                    {.label = "B self", .unit = "ms", .description = "B's self time on the time basis", .decimals = 3}),
      output::Field("delta_ms", &R::delta_ms, f::kDeltaMs),
      output::Field("delta_percent", &R::delta_percent, f::kDeltaPercent),
      output::Field("a_occurrences", &R::a_count,
                    {.label = "A count", .unit = "count", .description = "occurrences in A over the whole profile"}),
      output::Field("b_occurrences", &R::b_count,
                    {.label = "B count", .unit = "count", .description = "occurrences in B over the whole profile"}));
}

constexpr auto DescribeRecord(std::type_identity<DiffKernel>) {
  using R = DiffItem;
  namespace f = diff_fields;
  return output::Record(
      "DiffKernel",
      output::Field("kernel_name", &R::name, {.label = "Kernel", .max_width = 60}),
      output::Computed<R>("change", f::ChangeOf, f::kChange),
      output::Field("a_total_time_ms", &R::a_ms,
                    {.label = "A time", .unit = "ms", .description = "A's total kernel time on the time basis",
                     .decimals = 3}),
      output::Field("b_total_time_ms", &R::b_ms,
                    {.label = "B time", .unit = "ms", .description = "B's total kernel time on the time basis",
                     .decimals = 3}),
      output::Field("delta_ms", &R::delta_ms, f::kDeltaMs),
      output::Field("delta_percent", &R::delta_percent, f::kDeltaPercent),
      output::Field("a_launches", &R::a_count,
                    {.label = "A launches", .unit = "count", .description = "launches in A over the whole profile"}),
      output::Field("b_launches", &R::b_count,
                    {.label = "B launches", .unit = "count", .description = "launches in B over the whole profile"}));
}

struct ProfileDiff {
  DiffSide a;
  DiffSide b;
  DiffTimeBasis time_basis = DiffTimeBasis::kTotal;
  std::vector<DiffMetric> summary;
  std::vector<DiffCategory> breakdown;  // categories that apply to either run
  std::vector<DiffInputVerdict> input_verdicts;  // a, then b
  // Every matched, added and removed name, by |delta_ms| descending, then name.
  std::vector<DiffOp> ops;
  std::vector<DiffKernel> kernels;
  // One sentence with the headline numbers ("Mean step time 12.10 ms -> 6.05 ms (-50.0 %); ...").
  std::string statement;
  // "8× NVIDIA A100-SXM4-40GB → 2× Tesla V100-SXM2-16GB" when the runs' devices differ
  // (model, count or type); empty when they ran on the same devices.
  std::string device_change;
  std::vector<std::string> diagnostics;  // why a comparison may mislead (no steps, other framework, ...)
};

constexpr auto DescribeRecord(std::type_identity<ProfileDiff>) {
  using R = ProfileDiff;
  return output::Record(
      "ProfileDiff", output::Constant("tool", "diff"),
      output::Field("a", &R::a, {.description = "run A, before the change"}),
      output::Field("b", &R::b, {.description = "run B, after the change"}),
      output::Computed<R>("time_basis", [](const R& r) { return DiffTimeBasisName(r.time_basis); },
                          {.description = "`per_step` or `total`: what the op, kernel and host/device times are"}),
      output::Field("statement", &R::statement,
                    {.description = "mean step time before → after with its change, input share and both verdicts"}),
      output::Field("device_change", &R::device_change,
                    {.description = "`8× A100 → 2× V100` when the runs' devices differ by model, count or type; "
                                    "empty when they are the same"}),
      output::TableField("summary", &R::summary, "Run A vs run B",
                         {.description = "step time, input share and device/host times of both runs; a side "
                                         "without steps (or without a device) has null there"}),
      output::TableField("step_time_breakdown", &R::breakdown, "Average step time by category",
                         {.description = "each step-time category that applies to either run (both need steps)"}),
      output::TableField("input_verdicts", &R::input_verdicts, "Input share and verdict",
                         {.description = "A's, then B's"}),
      output::TableField("ops", &R::ops, "Ops by change in self time",
                         {.description = "every host and device op of either run, matched by side and name, "
                                         "largest |delta_ms| first"}),
      output::TableField("kernels", &R::kernels, "GPU kernels by change in time",
                         {.description = "GPU kernels matched by name (a kernel's reports for several ops or "
                                         "launch shapes summed), largest |delta_ms| first"}),
      output::Field("diagnostics", &R::diagnostics,
                    {.description = "why the comparison may mislead: a side without steps, other frameworks, "
                                    "devices or host counts"}));
}

struct DiffOptions {
  std::string label_a = "A";
  std::string label_b = "B";
};

// Compares `a` (before) with `b` (after).
ProfileDiff CompareProfiles(const ProfileModel& a, const ProfileModel& b, const DiffOptions& options = {});

// The text for people (tool.h); the JSON and the tables follow from the declaration.
std::string FormatResultText(const ProfileDiff& diff, const ToolOptions& options);

// The items of `items` (ops or kernels) with this change, at most `limit`, in the order of
// `items` (largest change first).
template <typename Item>
std::vector<Item> TopItems(const std::vector<Item>& items, DiffChange change, size_t limit) {
  std::vector<Item> out;
  for (const Item& item : items) {
    if (out.size() >= limit) break;
    if (item.change == change) out.push_back(item);
  }
  return out;
}

}  // namespace stepscope::analysis
