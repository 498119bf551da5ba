// tf_data_bottleneck_analysis: which stage of the input pipeline to fix, and how.
//
// The analysis is the model's (src/analysis/model/tf_data_analysis.h, derived once per
// model and also read by the input analysis); this file presents it: the model's result
// refers to stages and pipelines by index, the report names them (its rows are the tables
// and the JSON arrays), and its declaration gives the JSON, tables, TypeScript and docs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/tf_data_analysis.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

// The model's tf.data analysis (TfDataAnalysisOf).
TfDataBottleneckResult ComputeTfDataBottleneck(const ProfileModel& model);

// One pipeline (table "pipelines").
struct TfDataPipelineRow {
  std::string pipeline;
  std::string root;
  int64_t calls = 0;
  double avg_latency_us = 0;
  double min_latency_us = 0;
  double max_latency_us = 0;
  int64_t slow_calls = 0;
  std::optional<double> step_time_percent;
  bool iterator_bound = false;
  std::optional<std::string> bottleneck;
  std::optional<double> bottleneck_percent;
  std::optional<std::string> slowest_call_bottleneck;
  std::string suggestion;
};

// One stage, an iterator id (table "stages").
struct TfDataStageRow {
  std::optional<std::string> pipeline;  // absent: no root reached it
  std::string stage;
  std::string dataset;
  std::string_view kind;
  // Ids as text: tf.data's are addresses, beyond what a JSON reader's doubles hold.
  std::string id;
  std::optional<std::string> parent_id;
  std::optional<int64_t> setting;
  int64_t calls = 0;
  double avg_latency_us = 0;
  double self_ms = 0;
  double blocking_self_ms = 0;
  int64_t blocking_calls = 0;
  double slow_blocking_self_ms = 0;
  bool bottleneck = false;
};

// One level of the slowest call (table "critical_path").
struct TfDataCriticalPathRow {
  std::string pipeline;
  int64_t depth = 0;
  std::string stage;
  std::string thread;
  double duration_us = 0;
  double wait_us = 0;
  double self_us = 0;
};

// The most costly pipeline's bottleneck stage, when it is input bound ("bottleneck").
struct TfDataBottleneckStage {
  std::string pipeline;
  std::string stage;
  std::string dataset;
  std::string_view kind;
  double share_percent = 0;
  double self_ms = 0;
  int64_t calls = 0;
  std::string suggestion;
};

// The tool's result: the model's analysis with its stages and pipelines named.
struct TfDataBottleneckReport {
  bool iterator_bound = false;
  std::optional<double> step_input_wait_percent;
  std::optional<TfDataBottleneckStage> bottleneck;
  std::string statement;
  std::vector<TfDataPipelineRow> pipelines;
  std::vector<TfDataStageRow> stages;
  std::vector<TfDataCriticalPathRow> critical_path;
  PipelineEventCounts counts;
  std::vector<std::string> diagnostics;
};

TfDataBottleneckReport TfDataBottleneckReportOf(const TfDataBottleneckResult& result);

// ---- The report's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

namespace tf_data_fields {
inline constexpr output::FieldInfo kPipeline{
    .label = "Pipeline", .description = "`Host:N` (`Device:N` for a MultiDeviceIterator's per-device prefetch)"};
inline constexpr output::FieldInfo kCalls{.label = "Calls", .unit = "count"};
inline constexpr output::FieldInfo kAvgUs{.label = "Avg (µs)", .unit = "us", .decimals = 1};
inline constexpr output::FieldInfo kStage{.label = "Stage", .description = "the iterator's long name", .max_width = 60};
inline constexpr output::FieldInfo kKind{
    .label = "Kind",
    .description = "the kind of fix it calls for: `file_source`, `memory_source`, `sequential_map`, `parallel_map`, "
                   "`sequential_transform`, `prefetch`, `cache`, `other`"};
}  // namespace tf_data_fields

constexpr auto DescribeRecord(std::type_identity<TfDataPipelineRow>) {
  using R = TfDataPipelineRow;
  namespace f = tf_data_fields;
  constexpr std::string_view kStageName = "a stage's long name; null when there is none";
  return output::Record(
      "TfDataPipelineRow", output::Field("pipeline", &R::pipeline, f::kPipeline),
      output::Field("root", &R::root, {.label = "Root iterator", .max_width = 40}),
      output::Field("calls", &R::calls, f::kCalls), output::Field("avg_latency_us", &R::avg_latency_us, f::kAvgUs),
      output::Field("min_latency_us", &R::min_latency_us, {.label = "Min (µs)", .unit = "us", .decimals = 1}),
      output::Field("max_latency_us", &R::max_latency_us, {.label = "Max (µs)", .unit = "us", .decimals = 1}),
      output::Field("slow_calls", &R::slow_calls,
                    {.label = "Calls > 50 µs", .unit = "count", .description = "calls slower than 50 µs"}),
      output::Field("step_time_percent", &R::step_time_percent,
                    {.label = "Iterator time (% of step)", .unit = "%",
                     .description = "iterator time: root-call time over step time; null without steps", .decimals = 1}),
      output::Field("iterator_bound", &R::iterator_bound,
                    {.label = "Iterator-bound",
                     .description = "the root calls take ≥ 5 % of the step time (without steps: a call over 50 µs)"}),
      output::Field("bottleneck", &R::bottleneck,
                    {.label = "Bottleneck stage", .description = kStageName, .max_width = 50}),
      output::Field("bottleneck_percent", &R::bottleneck_percent,
                    {.label = "Bottleneck share", .unit = "%",
                     .description = "the bottleneck's share of the slowest calls' blocking self time", .decimals = 1}),
      output::Field("slowest_call_bottleneck", &R::slowest_call_bottleneck,
                    {.label = "Slowest call's bottleneck",
                     .description = "XProf's pick: the slowest call's blocking stage with the most self time; null "
                                    "when there is none",
                     .max_width = 50}),
      output::Field("suggestion", &R::suggestion,
                    {.label = "Suggestion", .description = "with the numbers that back it; empty without a bottleneck", .max_width = 80}));
}

constexpr auto DescribeRecord(std::type_identity<TfDataStageRow>) {
  using R = TfDataStageRow;
  namespace f = tf_data_fields;
  constexpr output::FieldInfo kMs{.unit = "ms", .decimals = 3};
  return output::Record(
      "TfDataStageRow",
      output::Field("pipeline", &R::pipeline,
                    {.label = "Pipeline", .description = "null when no root call reached the stage"}),
      output::Field("stage", &R::stage, f::kStage),
      output::Field("dataset", &R::dataset, {.label = "Dataset", .description = "the last part of the long name"}),
      output::Field("kind", &R::kind, f::kKind),
      output::Field("id", &R::id,
                    {.label = "Iterator id",
                     .description = "a decimal string: tf.data's ids are addresses, beyond a double's 53 bits"}),
      output::Field("parent_id", &R::parent_id,
                    {.label = "Parent id",
                     .description = "the iterator consuming its output, as `id`; null when it names no recorded stage "
                                    "or is on a cycle"}),
      output::Field("setting", &R::setting,
                    {.label = "Workers / buffer", .unit = "count",
                     .description = "ParallelMap's `parallelism` / Prefetch's `buffer_limit`; null when not recorded"}),
      output::Field("calls", &R::calls, f::kCalls), output::Field("avg_latency_us", &R::avg_latency_us, f::kAvgUs),
      output::Field("self_ms", &R::self_ms, {.label = "Self (ms)", .unit = kMs.unit, .decimals = kMs.decimals}),
      output::Field("blocking_self_ms", &R::blocking_self_ms,
                    {.label = "Blocking self (ms)", .unit = kMs.unit,
                     .description = "self time of the calls that blocked a fetch", .decimals = kMs.decimals}),
      output::Field("blocking_calls", &R::blocking_calls, {.label = "Blocking calls", .unit = "count"}),
      output::Field("slow_blocking_self_ms", &R::slow_blocking_self_ms,
                    {.label = "In slowest calls (ms)", .unit = kMs.unit,
                     .description = "blocking self time within the slowest calls only", .decimals = kMs.decimals}),
      output::Field("bottleneck", &R::bottleneck, {.label = "Bottleneck", .description = "its pipeline's bottleneck"}));
}

constexpr auto DescribeRecord(std::type_identity<TfDataCriticalPathRow>) {
  using R = TfDataCriticalPathRow;
  namespace f = tf_data_fields;
  return output::Record(
      "TfDataCriticalPathRow", output::Field("pipeline", &R::pipeline, f::kPipeline),
      output::Field("depth", &R::depth, {.label = "Depth", .description = "0: the root call"}),
      output::Field("stage", &R::stage, f::kStage),
      output::Field("thread", &R::thread, {.label = "Thread", .max_width = 30}),
      output::Field("duration_us", &R::duration_us, {.label = "Call (µs)", .unit = "us", .decimals = 1}),
      output::Field("wait_us", &R::wait_us,
                    {.label = "Waited on (µs)", .unit = "us", .description = "how much of the parent call it overlapped",
                     .decimals = 1}),
      output::Field("self_us", &R::self_us, {.label = "Self (µs)", .unit = "us", .decimals = 1}));
}

constexpr auto DescribeRecord(std::type_identity<TfDataBottleneckStage>) {
  using R = TfDataBottleneckStage;
  namespace f = tf_data_fields;
  return output::Record(
      "TfDataBottleneckStage", output::Field("pipeline", &R::pipeline, f::kPipeline),
      output::Field("stage", &R::stage, {.description = "the stage's long name"}),
      output::Field("dataset", &R::dataset), output::Field("kind", &R::kind, f::kKind),
      output::Field("share_percent", &R::share_percent,
                    {.unit = "%", .description = "of the slowest calls' blocking self time"}),
      output::Field("self_ms", &R::self_ms, {.unit = "ms"}), output::Field("calls", &R::calls, {.unit = "count"}),
      output::Field("suggestion", &R::suggestion, {.description = "with the numbers that back it"}));
}

constexpr auto DescribeRecord(std::type_identity<PipelineEventCounts>) {
  using R = PipelineEventCounts;
  constexpr output::FieldInfo kCount{.unit = "count"};
  return output::Record(
      "PipelineEventCounts", output::Field("iterator_events", &R::iterator_events, kCount),
      output::Field("produce_events", &R::produce_events, kCount),
      output::Field("consume_events", &R::consume_events, kCount),
      output::Field("linked_producers", &R::linked_producers,
                    {.unit = "count", .description = "producer iterator calls linked to a consumer"}),
      output::Field("iterators_without_id", &R::iterators_without_id, kCount),
      output::Field("produce_without_element", &R::produce_without_element,
                    {.unit = "count", .description = "no element_id, or no iterator call inside"}),
      output::Field("produce_unconsumed", &R::produce_unconsumed,
                    {.unit = "count", .description = "produced elements no consume in the profile took"}),
      output::Field("consume_without_producer", &R::consume_without_producer,
                    {.unit = "count", .description = "consumed elements whose production was not recorded"}),
      output::Field("consume_outside_iterator", &R::consume_outside_iterator,
                    {.unit = "count", .description = "a consume with no enclosing iterator call"}),
      output::Field("duplicate_consumes", &R::duplicate_consumes,
                    {.unit = "count", .description = "a second consume of an already linked element"}),
      output::Field("revisited_calls", &R::revisited_calls,
                    {.unit = "count", .description = "links into calls already walked (cycles, shared producers)"}),
      output::Field("parent_cycles", &R::parent_cycles,
                    {.unit = "count", .description = "stages whose parent_id chain loops"}),
      output::Field("missing_parents", &R::missing_parents,
                    {.unit = "count", .description = "stages whose parent_id names no recorded stage"}),
      output::Field("conflicting_names", &R::conflicting_names,
                    {.unit = "count", .description = "one iterator id under two names"}),
      output::Field("unreached_calls", &R::unreached_calls,
                    {.unit = "count", .description = "iterator calls no root call reaches"}));
}

constexpr auto DescribeRecord(std::type_identity<TfDataBottleneckReport>) {
  using R = TfDataBottleneckReport;
  return output::Record(
      "TfDataBottleneckReport", output::Constant("tool", "tf_data_bottleneck_analysis"),
      output::Field("iterator_bound", &R::iterator_bound,
                    {.description = "the most costly pipeline's verdict: its root calls take ≥ 5 % of the step time "
                                    "(without steps: a call over 50 µs). Iterator time, not the steps' input wait: "
                                    "calls can run while the step does other work"}),
      output::Field("step_input_wait_percent", &R::step_input_wait_percent,
                    {.unit = "%",
                     .description = "the steps' input wait over their time (`input_pipeline_analyzer`'s "
                                    "`input_bound_percent`), stated beside the iterator time; null without steps"}),
      output::Field("bottleneck", &R::bottleneck,
                    {.description = "the most costly pipeline's bottleneck stage when it is input bound; else null"}),
      output::Field("statement", &R::statement, {.description = "one sentence with the numbers"}),
      output::TableField("pipelines", &R::pipelines, "Input pipelines (one per root iterator)",
                         {.description = "one row per pipeline, most costly first"}),
      output::TableField("stages", &R::stages, "Stages (iterators), by pipeline and blocking self time",
                         {.description = "one row per stage (iterator id)"}),
      output::TableField("critical_path", &R::critical_path,
                         "Critical path of the slowest call (the longest wait at each level)",
                         {.description = "per pipeline, the slowest call from the root down, each level the child it "
                                         "overlapped longest"}),
      output::Field("counts", &R::counts, {.description = "events read and problems counted"}),
      output::Field("diagnostics", &R::diagnostics, {.description = "the non-zero counts in words"}));
}

std::string FormatResultText(const TfDataBottleneckReport& report, const ToolOptions& options);

std::unique_ptr<Tool> MakeTfDataBottleneckTool();

}  // namespace stepscope::analysis
