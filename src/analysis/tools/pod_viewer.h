// pod_viewer: every worker's step time, stacked by breakdown category, step by step
// (TF Profiler's pod viewer, capability 17). Which worker lags, at which step, and why.
//
// Works on any multi-host model (a captured run, or imported multi-rank traces combined
// by the host combiner): steps are matched across hosts by step number
// (StepInfo::per_host). A single-host model gives one worker.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

// One worker in one step: a bar of the stacked chart.
struct PodWorkerStep {
  int64_t step_number = 0;
  int host_index = 0;
  std::string host;  // PodViewerResult::hosts[host_index]
  double step_time_ms = 0;
  // The step time less the time no event explains ("other"): the worker's own work in the
  // step. Where steps are windows of time (PodViewerResult::compared_by "busy_time"),
  // workers that step together have equal step times and differ in this.
  double busy_ms = 0;
  // This worker's compared time (step or busy time) minus the fastest worker's in the
  // same step.
  double lag_ms = 0;
  // XProf's input share: (wait for input + host-to-device) / step time.
  double input_percent = 0;
  std::array<double, kNumTimeCategories> category_ms{};  // indexed by TimeCategory
};

struct PodStep {
  int64_t step_number = 0;
  std::string name;
  int worker_count = 0;
  // The largest and smallest compared time of the step's workers (step or busy time,
  // PodViewerResult::compared_by).
  double max_step_time_ms = 0;
  double min_step_time_ms = 0;
  double spread_ms = 0;  // max - min
  int slowest_host_index = 0;
  std::string slowest_host;  // PodViewerResult::hosts[slowest_host_index]
  // The step's workers: PodViewerResult::step_workers from this index, worker_count of them.
  size_t first_worker = 0;
};

struct PodWorkerSummary {
  int host_index = 0;
  std::string host;
  int64_t steps = 0;
  double avg_step_time_ms = 0;
  std::array<double, kNumTimeCategories> avg_category_ms{};
  double input_percent = 0;  // over all of this worker's steps
  int64_t slowest_steps = 0;  // steps in which this worker was the slowest (multi-worker steps only)
  double avg_lag_ms = 0;
};

struct PodViewerResult {
  // What the workers are compared by: "step_time", or "busy_time" where steps are windows
  // of time (steps from step markers, docs/model.md "Steps"): synchronised workers then
  // share one iteration time, and the one with the most work in it, the least slack, is
  // the slowest. Spread, lag and the straggler use it.
  std::string compared_by = "step_time";
  std::vector<std::string> hosts;
  std::vector<PodStep> steps;  // by step number
  std::vector<PodWorkerStep> step_workers;  // by step, then host index
  std::vector<PodWorkerSummary> workers;  // by host index
  int64_t steps_on_all_hosts = 0;
  // Over steps that at least two workers ran (0 with one worker).
  double avg_spread_ms = 0;
  double max_spread_ms = 0;
  std::optional<int64_t> max_spread_step;
  // The worker that was slowest most often, when one stands out (>= kStragglerSharePercent
  // of the multi-worker steps); its share of those steps.
  std::optional<int> straggler_host_index;
  double straggler_slowest_percent = 0;
  std::string statement;  // one sentence with the numbers
  std::vector<std::string> diagnostics;
};

// The workers of `step` of `result` (a view into result.step_workers).
std::span<const PodWorkerStep> StepWorkers(const PodViewerResult& result, const PodStep& step);

// A worker that is slowest in at least half the steps is called out as the straggler;
// with N workers chance alone gives 1/N, so half is a clear signal from 3 workers up
// and, with 2, means "never the faster one" in most steps.
inline constexpr double kStragglerSharePercent = 50.0;

PodViewerResult ComputePodViewer(const ProfileModel& model);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

namespace pod_viewer_fields {

// TimeCategoryKey's keys as constants, in TimeCategory order: a table has one column per
// category, and a declared column's id is a constant (PodViewerTest checks they agree).
inline constexpr std::array<std::string_view, kNumTimeCategories> kCategoryKeys = {
    "compilation",        "input",          "output", "kernel_launch", "host_compute", "device_to_device",
    "device_collectives", "device_compute", "other"};

// Text joined at compile time, for the per-category ids and labels.
struct ConstantText {
  char text[40] = {};
  size_t size = 0;
  constexpr std::string_view view() const { return {text, size}; }
};
constexpr ConstantText Join(std::string_view a, std::string_view b, std::string_view c) {
  ConstantText out;
  for (std::string_view part : {a, b, c}) {
    for (char ch : part) out.text[out.size++] = ch;
  }
  return out;
}
// `<key>_ms` in the step_workers table, `avg_<key>_ms` in the workers table.
template <bool kAverage, size_t I>
inline constexpr ConstantText kCategoryId = Join(kAverage ? "avg_" : "", kCategoryKeys[I], "_ms");
template <size_t I>
inline constexpr ConstantText kCategoryLabel = Join(kCategoryKeys[I], " (ms)", "");

// Category I's time of a row whose `kMember` is indexed by TimeCategory.
template <typename R, auto kMember, size_t I>
struct CategoryMs {
  double operator()(const R& row) const { return (row.*kMember)[I]; }
};
template <typename R, auto kMember, bool kAverage, size_t... I>
constexpr auto CategoryColumns(std::string_view description, std::index_sequence<I...>) {
  return std::make_tuple(output::Computed<R>(
      kCategoryId<kAverage, I>.view(), CategoryMs<R, kMember, I>{},
      {.label = kCategoryLabel<I>.view(), .unit = "ms", .description = description})...);
}
// A record of the `fixed` fields, then one column per category from `kMember`.
template <typename R, auto kMember, bool kAverage, typename Fixed>
constexpr auto WithCategoryColumns(std::string_view name, Fixed fixed, std::string_view description) {
  return std::apply([name](auto... field) { return output::Record(name, field...); },
                    std::tuple_cat(fixed, CategoryColumns<R, kMember, kAverage>(
                                              description, std::make_index_sequence<kNumTimeCategories>())));
}

inline constexpr output::FieldInfo kHost{.label = "Worker", .max_width = 40};
inline constexpr output::FieldInfo kHostIndex{.label = "#", .description = "the worker's index in `hosts`"};
inline constexpr output::FieldInfo kInputPercent{
    .label = "Input %", .unit = "%", .description = "wait for input + host-to-device, of the step time", .decimals = 1};

}  // namespace pod_viewer_fields

constexpr auto DescribeRecord(std::type_identity<PodWorkerSummary>) {
  using R = PodWorkerSummary;
  namespace f = pod_viewer_fields;
  return f::WithCategoryColumns<R, &R::avg_category_ms, true>(
      "PodWorkerSummary",
      std::make_tuple(
          output::Field("host", &R::host, f::kHost), output::Field("host_index", &R::host_index, f::kHostIndex),
          output::Field("steps", &R::steps, {.label = "Steps", .unit = "count", .description = "steps it ran"}),
          output::Field("avg_step_time_ms", &R::avg_step_time_ms, {.label = "Avg step (ms)", .unit = "ms"}),
          output::Field("avg_lag_ms", &R::avg_lag_ms,
                        {.label = "Avg lag (ms)", .unit = "ms",
                         .description = "mean of its lag behind the step's fastest worker"}),
          output::Field("slowest_steps", &R::slowest_steps,
                        {.label = "Slowest in", .unit = "count",
                         .description = "steps in which it was the slowest, multi-worker steps only"}),
          output::Field("input_percent", &R::input_percent,
                        {.label = "Input %", .unit = "%",
                         .description = "wait for input + host-to-device, of its step time over all its steps",
                         .decimals = 1})),
      "its average time per step in the category");
}

constexpr auto DescribeRecord(std::type_identity<PodStep>) {
  using R = PodStep;
  return output::Record(
      "PodStep", output::Field("step_number", &R::step_number, {.label = "Step"}),
      output::Field("step_name", &R::name, {.label = "Name", .max_width = 30}),
      output::Field("worker_count", &R::worker_count,
                    {.label = "Workers", .unit = "count", .description = "workers that recorded the step"}),
      output::Field("max_step_time_ms", &R::max_step_time_ms,
                    {.label = "Slowest (ms)", .unit = "ms",
                     .description = "the slowest worker's compared time (`summary.compared_by`)"}),
      output::Field("min_step_time_ms", &R::min_step_time_ms,
                    {.label = "Fastest (ms)", .unit = "ms", .description = "the fastest worker's"}),
      output::Field("spread_ms", &R::spread_ms, {.label = "Spread (ms)", .unit = "ms", .description = "slowest - fastest"}),
      output::Field("slowest_host", &R::slowest_host, {.label = "Slowest worker", .max_width = 40}));
}

constexpr auto DescribeRecord(std::type_identity<PodWorkerStep>) {
  using R = PodWorkerStep;
  namespace f = pod_viewer_fields;
  return f::WithCategoryColumns<R, &R::category_ms, false>(
      "PodWorkerStep",
      std::make_tuple(
          output::Field("step_number", &R::step_number, {.label = "Step"}), output::Field("host", &R::host, f::kHost),
          output::Field("host_index", &R::host_index, f::kHostIndex),
          output::Field("step_time_ms", &R::step_time_ms, {.label = "Step (ms)", .unit = "ms"}),
          output::Field("lag_ms", &R::lag_ms,
                        {.label = "Lag (ms)", .unit = "ms",
                         .description = "its compared time minus the step's fastest worker's"}),
          output::Field("input_percent", &R::input_percent, f::kInputPercent)),
      "its time in the category in the step; the categories add up to `step_time_ms`");
}

// The result's figures over all workers (its "summary" object).
struct PodSummary {
  const PodViewerResult* result = nullptr;
};
constexpr auto DescribeRecord(std::type_identity<PodSummary>) {
  using S = PodSummary;
  return output::Record(
      "PodSummary",
      output::Computed<S>("avg_spread_ms", [](const S& s) { return s.result->avg_spread_ms; },
                          {.unit = "ms",
                           .description = "slowest minus fastest worker, over steps run by at least 2 workers; 0 "
                                          "with one worker"}),
      output::Computed<S>("max_spread_ms", [](const S& s) { return s.result->max_spread_ms; },
                          {.unit = "ms", .description = "the largest of those"}),
      output::Computed<S>("max_spread_step", [](const S& s) { return s.result->max_spread_step; },
                          {.description = "its step; null when none"}),
      output::Computed<S>("straggler_host",
                          [](const S& s) {
                            const std::optional<int>& index = s.result->straggler_host_index;
                            if (!index) return std::optional<std::string_view>();
                            return std::optional<std::string_view>(s.result->hosts[static_cast<size_t>(*index)]);
                          },
                          {.description = "the worker slowest in at least 50 % of those steps; else null"}),
      output::Computed<S>("straggler_slowest_percent", [](const S& s) { return s.result->straggler_slowest_percent; },
                          {.unit = "%", .description = "its share of those steps"}),
      output::Computed<S>("compared_by", [](const S& s) { return std::string_view(s.result->compared_by); },
                          {.description = "`step_time`, or `busy_time` where steps are windows of time "
                                          "(`step_time_source` `step_starts` / `device_completions`): workers "
                                          "that step together share one iteration time, so they are compared "
                                          "by their busy time, the step time less `other`, and the one with "
                                          "the least slack is the slowest; spread, lag and straggler use it"}),
      output::Computed<S>("statement", [](const S& s) { return std::string_view(s.result->statement); },
                          {.description = "one sentence with the numbers"}));
}

constexpr auto DescribeRecord(std::type_identity<PodViewerResult>) {
  using R = PodViewerResult;
  return output::Record(
      "PodViewerResult", output::Constant("tool", "pod_viewer"),
      output::Computed<R>("host_count", [](const R& r) { return static_cast<int64_t>(r.hosts.size()); },
                          {.unit = "count"}),
      output::Field("hosts", &R::hosts, {.description = "the workers, in host order (`host_index` indexes it)"}),
      output::Computed<R>("step_count", [](const R& r) { return static_cast<int64_t>(r.steps.size()); },
                          {.unit = "count", .description = "steps seen on at least one worker"}),
      output::Field("steps_on_all_hosts", &R::steps_on_all_hosts,
                    {.unit = "count", .description = "steps every worker recorded (capture windows may differ)"}),
      output::Computed<R>("categories", [](const R&) { return std::vector<std::string_view>(
                                                           pod_viewer_fields::kCategoryKeys.begin(),
                                                           pod_viewer_fields::kCategoryKeys.end()); },
                          {.description = "the stack order of the bars: the category keys of "
                                          "`step_time_breakdown_ms`, as in the tables' per-category columns"}),
      output::Computed<R>("summary", [](const R& r) { return PodSummary{&r}; },
                          {.description = "how far apart the workers are, and the straggler"}),
      output::TableField("workers", &R::workers, "Workers", {.description = "per worker, by host index"}),
      output::TableField("steps", &R::steps, "Steps", {.description = "per step, by step number"}),
      output::TableField("step_workers", &R::step_workers, "Step time per worker",
                         {.description = "one bar per (step, worker), by step then host"}),
      output::Field("diagnostics", &R::diagnostics,
                    {.description = "the model's, plus: steps not recorded on every worker, workers without steps"}));
}

std::string FormatResultText(const PodViewerResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakePodViewerTool();

}  // namespace stepscope::analysis
