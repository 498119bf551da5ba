#include "src/analysis/tools/tf_data_bottleneck.h"

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {
namespace {

output::Cell StageName(const TfDataBottleneckResult& r, const std::optional<int>& stage) {
  return stage.has_value() ? output::Cell(r.stages[*stage].long_name) : output::Cell();
}

output::Table PipelinesTable(const TfDataBottleneckResult& r) {
  output::Table table;
  table.name = "pipelines";
  table.title = "Input pipelines (one per root iterator)";
  table.columns = {{"pipeline", "Pipeline", output::ColumnType::kString},
                   {"root", "Root iterator", output::ColumnType::kString, 0, 40},
                   {"calls", "Calls", output::ColumnType::kInt, 0, 0, "count"},
                   {"avg_latency_us", "Avg (µs)", output::ColumnType::kDouble, 1, 0, "us"},
                   {"min_latency_us", "Min (µs)", output::ColumnType::kDouble, 1, 0, "us"},
                   {"max_latency_us", "Max (µs)", output::ColumnType::kDouble, 1, 0, "us"},
                   {"slow_calls", "Calls > 50 µs", output::ColumnType::kInt, 0, 0, "count"},
                   {"step_time_percent", "Iterator time (% of step)", output::ColumnType::kDouble, 1, 0, "%"},
                   {"iterator_bound", "Iterator-bound", output::ColumnType::kBool},
                   {"bottleneck", "Bottleneck stage", output::ColumnType::kString, 0, 50},
                   {"bottleneck_percent", "Bottleneck share", output::ColumnType::kDouble, 1, 0, "%"},
                   {"slowest_call_bottleneck", "Slowest call's bottleneck", output::ColumnType::kString, 0, 50},
                   {"suggestion", "Suggestion", output::ColumnType::kString, 0, 80}};
  for (const PipelineStats& p : r.pipelines) {
    table.AddRow({p.name, r.stages[p.root_stage].long_name, p.calls, p.avg_latency_us(), PsToUs(p.min_latency_ps),
                  PsToUs(p.max_latency_ps), p.slow_calls, output::OptionalCell(p.step_time_percent), p.iterator_bound,
                  StageName(r, p.bottleneck_stage),
                  p.bottleneck_stage.has_value() ? output::Cell(p.bottleneck_share_percent) : output::Cell(),
                  StageName(r, p.slowest_call_bottleneck_stage), p.suggestion});
  }
  return table;
}

output::Table StagesTable(const TfDataBottleneckResult& r) {
  output::Table table;
  table.name = "stages";
  table.title = "Stages (iterators), by pipeline and blocking self time";
  table.columns = {{"pipeline", "Pipeline", output::ColumnType::kString},
                   {"stage", "Stage", output::ColumnType::kString, 0, 60},
                   {"dataset", "Dataset", output::ColumnType::kString},
                   {"kind", "Kind", output::ColumnType::kString},
                   // Ids as text: tf.data's are addresses, beyond what a JSON reader's doubles hold.
                   {"id", "Iterator id", output::ColumnType::kString},
                   {"parent_id", "Parent id", output::ColumnType::kString},
                   {"setting", "Workers / buffer", output::ColumnType::kInt, 0, 0, "count"},
                   {"calls", "Calls", output::ColumnType::kInt, 0, 0, "count"},
                   {"avg_latency_us", "Avg (µs)", output::ColumnType::kDouble, 1, 0, "us"},
                   {"self_ms", "Self (ms)", output::ColumnType::kDouble, 3, 0, "ms"},
                   {"blocking_self_ms", "Blocking self (ms)", output::ColumnType::kDouble, 3, 0, "ms"},
                   {"blocking_calls", "Blocking calls", output::ColumnType::kInt, 0, 0, "count"},
                   {"slow_blocking_self_ms", "In slowest calls (ms)", output::ColumnType::kDouble, 3, 0, "ms"},
                   {"bottleneck", "Bottleneck", output::ColumnType::kBool}};
  for (size_t s = 0; s < r.stages.size(); ++s) {
    const PipelineStageStats& stage = r.stages[s];
    const bool is_bottleneck = stage.pipeline >= 0 && r.pipelines[stage.pipeline].bottleneck_stage == static_cast<int>(s);
    table.AddRow({stage.pipeline >= 0 ? output::Cell(r.pipelines[stage.pipeline].name) : output::Cell(),
                  stage.long_name, stage.dataset_name, std::string(BottleneckKindName(stage.kind)),
                  std::to_string(stage.id),
                  stage.parent_known ? output::Cell(std::to_string(*stage.parent_id)) : output::Cell(),
                  stage.setting > 0 ? output::Cell(stage.setting) : output::Cell(), stage.calls,
                  stage.avg_latency_us(), PsToMs(stage.self_ps), PsToMs(stage.blocking_self_ps), stage.blocking_calls,
                  PsToMs(stage.slow_blocking_self_ps), is_bottleneck});
  }
  return table;
}

output::Table CriticalPathTable(const TfDataBottleneckResult& r) {
  output::Table table;
  table.name = "critical_path";
  table.title = "Critical path of the slowest call (the longest wait at each level)";
  table.columns = {{"pipeline", "Pipeline", output::ColumnType::kString},
                   {"depth", "Depth", output::ColumnType::kInt},
                   {"stage", "Stage", output::ColumnType::kString, 0, 60},
                   {"thread", "Thread", output::ColumnType::kString, 0, 30},
                   {"duration_us", "Call (µs)", output::ColumnType::kDouble, 1, 0, "us"},
                   {"wait_us", "Waited on (µs)", output::ColumnType::kDouble, 1, 0, "us"},
                   {"self_us", "Self (µs)", output::ColumnType::kDouble, 1, 0, "us"}};
  for (const CriticalPathStep& step : r.critical_path) {
    table.AddRow({r.pipelines[step.pipeline].name, static_cast<int64_t>(step.depth), r.stages[step.stage].long_name,
                  step.thread, PsToUs(step.duration_ps), PsToUs(step.wait_ps), PsToUs(step.self_ps)});
  }
  return table;
}

void WriteCountsJson(const PipelineEventCounts& c, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("iterator_events", c.iterator_events);
  w->Field("produce_events", c.produce_events);
  w->Field("consume_events", c.consume_events);
  w->Field("linked_producers", c.linked_producers);
  w->Field("iterators_without_id", c.iterators_without_id);
  w->Field("produce_without_element", c.produce_without_element);
  w->Field("produce_unconsumed", c.produce_unconsumed);
  w->Field("consume_without_producer", c.consume_without_producer);
  w->Field("consume_outside_iterator", c.consume_outside_iterator);
  w->Field("duplicate_consumes", c.duplicate_consumes);
  w->Field("revisited_calls", c.revisited_calls);
  w->Field("parent_cycles", c.parent_cycles);
  w->Field("missing_parents", c.missing_parents);
  w->Field("conflicting_names", c.conflicting_names);
  w->Field("unreached_calls", c.unreached_calls);
  w->EndObject();
}

class TfDataBottleneckTool final : public Tool {
 public:
  std::string_view id() const override { return "tf_data_bottleneck_analysis"; }
  std::string_view description() const override {
    return "Which input pipeline stage is the bottleneck: per pipeline latency, stages, critical path, suggestion.";
  }
  // Listed when the host ran tf.data-style iterators (TensorFlow's, or the pipeline API's).
  bool IsAvailable(const ProfileModel& model) const override { return model.input_pipeline.uses_tf_data; }
  std::string_view requirement() const override { return "input pipeline iterator events (Iterator::...)"; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(TfDataAnalysisOf(model));
  }
};

}  // namespace

TfDataBottleneckResult ComputeTfDataBottleneck(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return TfDataAnalysisOf(model); });
}

void WriteResultJson(const TfDataBottleneckResult& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "tf_data_bottleneck_analysis");
  w->Field("iterator_bound", r.iterator_bound);
  w->Field("step_input_wait_percent", r.step_input_wait_percent);
  w->Key("bottleneck");
  if (r.bottleneck_stage.has_value()) {
    const PipelineStageStats& stage = r.stages[*r.bottleneck_stage];
    const PipelineStats& p = r.pipelines[0];
    w->BeginObject();
    w->Field("pipeline", p.name);
    w->Field("stage", stage.long_name);
    w->Field("dataset", stage.dataset_name);
    w->Field("kind", BottleneckKindName(stage.kind));
    w->Field("share_percent", p.bottleneck_share_percent);
    w->Field("self_ms", PsToMs(stage.self_ps));
    w->Field("calls", stage.calls);
    w->Field("suggestion", p.suggestion);
    w->EndObject();
  } else {
    w->Null();
  }
  w->Field("statement", r.statement);
  output::WriteTablesJson(BuildTables(r), w);
  w->Key("counts");
  WriteCountsJson(r.counts, w);
  output::EndResultJson(r.diagnostics, w);
}

std::vector<output::Table> BuildTables(const TfDataBottleneckResult& r) {
  return {PipelinesTable(r), StagesTable(r), CriticalPathTable(r)};
}

std::string FormatResultText(const TfDataBottleneckResult& r, const ToolOptions& options) {
  std::string out = r.statement + "\n";
  if (!r.pipelines.empty() && !r.pipelines[0].suggestion.empty()) out += "Suggestion: " + r.pipelines[0].suggestion + "\n";
  return out + output::FormatResultTextEnd(BuildTables(r), r.diagnostics, options.text_max_rows);
}

std::unique_ptr<Tool> MakeTfDataBottleneckTool() { return std::make_unique<TfDataBottleneckTool>(); }

}  // namespace stepscope::analysis
