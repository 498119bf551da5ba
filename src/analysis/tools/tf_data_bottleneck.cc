#include "src/analysis/tools/tf_data_bottleneck.h"

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {
namespace {

std::optional<std::string> StageName(const TfDataBottleneckResult& r, const std::optional<int>& stage) {
  return stage.has_value() ? std::optional<std::string>(r.stages[*stage].long_name) : std::nullopt;
}

TfDataPipelineRow PipelineRow(const TfDataBottleneckResult& r, const PipelineStats& p) {
  return {p.name,
          r.stages[p.root_stage].long_name,
          p.calls,
          p.avg_latency_us(),
          PsToUs(p.min_latency_ps),
          PsToUs(p.max_latency_ps),
          p.slow_calls,
          p.step_time_percent,
          p.iterator_bound,
          StageName(r, p.bottleneck_stage),
          output::OptionalIf(p.bottleneck_stage.has_value(), p.bottleneck_share_percent),
          StageName(r, p.slowest_call_bottleneck_stage),
          p.suggestion};
}

TfDataStageRow StageRow(const TfDataBottleneckResult& r, size_t s) {
  const PipelineStageStats& stage = r.stages[s];
  const bool reached = stage.pipeline >= 0;
  TfDataStageRow row;
  if (reached) row.pipeline = r.pipelines[stage.pipeline].name;
  row.stage = stage.long_name;
  row.dataset = stage.dataset_name;
  row.kind = BottleneckKindName(stage.kind);
  row.id = std::to_string(stage.id);
  if (stage.parent_known) row.parent_id = std::to_string(*stage.parent_id);
  if (stage.setting > 0) row.setting = stage.setting;
  row.calls = stage.calls;
  row.avg_latency_us = stage.avg_latency_us();
  row.self_ms = PsToMs(stage.self_ps);
  row.blocking_self_ms = PsToMs(stage.blocking_self_ps);
  row.blocking_calls = stage.blocking_calls;
  row.slow_blocking_self_ms = PsToMs(stage.slow_blocking_self_ps);
  row.bottleneck = reached && r.pipelines[stage.pipeline].bottleneck_stage == static_cast<int>(s);
  return row;
}

TfDataCriticalPathRow CriticalPathRow(const TfDataBottleneckResult& r, const CriticalPathStep& step) {
  return {r.pipelines[step.pipeline].name, static_cast<int64_t>(step.depth), r.stages[step.stage].long_name,
          step.thread, PsToUs(step.duration_ps), PsToUs(step.wait_ps), PsToUs(step.self_ps)};
}

// The most costly pipeline's bottleneck (bottleneck_stage is set only with a pipeline).
std::optional<TfDataBottleneckStage> BottleneckOf(const TfDataBottleneckResult& r) {
  if (!r.bottleneck_stage.has_value()) return std::nullopt;
  const PipelineStageStats& stage = r.stages[*r.bottleneck_stage];
  const PipelineStats& p = r.pipelines[0];
  return TfDataBottleneckStage{p.name,     stage.long_name, stage.dataset_name, BottleneckKindName(stage.kind),
                               p.bottleneck_share_percent, PsToMs(stage.self_ps), stage.calls, p.suggestion};
}

class TfDataBottleneckTool final : public DeclaredTool<TfDataBottleneckReport> {
 public:
  std::string_view id() const override { return "tf_data_bottleneck_analysis"; }
  std::string_view description() const override {
    return "Which input pipeline stage is the bottleneck: per pipeline latency, stages, critical path, suggestion.";
  }
  // Listed when the host ran tf.data-style iterators (TensorFlow's, or the pipeline API's).
  bool IsAvailable(const ProfileModel& model) const override { return model.input_pipeline.uses_tf_data; }
  std::string_view requirement() const override { return "input pipeline iterator events (Iterator::...)"; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(TfDataBottleneckReportOf(TfDataAnalysisOf(model)));
  }
};

}  // namespace

TfDataBottleneckResult ComputeTfDataBottleneck(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return TfDataAnalysisOf(model); });
}

TfDataBottleneckReport TfDataBottleneckReportOf(const TfDataBottleneckResult& r) {
  TfDataBottleneckReport report;
  report.iterator_bound = r.iterator_bound;
  report.step_input_wait_percent = r.step_input_wait_percent;
  report.bottleneck = BottleneckOf(r);
  report.statement = r.statement;
  for (const PipelineStats& p : r.pipelines) report.pipelines.push_back(PipelineRow(r, p));
  for (size_t s = 0; s < r.stages.size(); ++s) report.stages.push_back(StageRow(r, s));
  for (const CriticalPathStep& step : r.critical_path) report.critical_path.push_back(CriticalPathRow(r, step));
  report.counts = r.counts;
  report.diagnostics = r.diagnostics;
  return report;
}

std::string FormatResultText(const TfDataBottleneckReport& r, const ToolOptions& options) {
  std::string out = r.statement + "\n";
  if (!r.pipelines.empty() && !r.pipelines[0].suggestion.empty()) out += "Suggestion: " + r.pipelines[0].suggestion + "\n";
  return out + output::FormatResultTextEnd(output::RecordTables(r), r.diagnostics, options.text_max_rows);
}

std::unique_ptr<Tool> MakeTfDataBottleneckTool() { return std::make_unique<TfDataBottleneckTool>(); }

}  // namespace stepscope::analysis
