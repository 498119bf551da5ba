#include "src/analysis/tools/input_pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {
namespace {

using output::Column;
using output::ColumnType;
using output::Table;

std::string Pct(double percent) { return output::FormatFixed(percent, 1) + " %"; }

Table InputOpsTable(const InputPipelineAnalysis& a) {
  Table ops;
  ops.name = "input_ops";
  ops.title = "Input ops (host ops, and host-to-device copies on the device)";
  ops.columns = {{"name", "Input op", ColumnType::kString, 2, 60},
                 {"type", "Type", ColumnType::kString, 2, 32},
                 {"category", "Category", ColumnType::kString},
                 {"host_or_device", "Where", ColumnType::kString},
                 {"count", "Count", ColumnType::kInt},
                 {"total_time_ms", "Total (ms)", ColumnType::kDouble},
                 {"total_time_percent", "Total % of host op time", ColumnType::kDouble, 1},
                 {"self_time_ms", "Self (ms)", ColumnType::kDouble},
                 {"self_time_percent", "Self % of host op time", ColumnType::kDouble, 1},
                 {"step_time_percent", "Self % of step time", ColumnType::kDouble, 1}};
  for (const InputOpRow& r : a.input_ops) {
    ops.AddRow({r.name, r.type, r.category, std::string(r.on_device ? "device" : "host"), r.count, r.total_time_ms,
                output::OptionalCell(r.total_time_percent), r.self_time_ms, output::OptionalCell(r.self_time_percent),
                output::OptionalCell(r.step_time_percent)});
  }
  return ops;
}

Table InputShareTable(const InputPipelineAnalysis& a) {
  Table t;
  t.name = "input_share";
  t.title = "Input share of step time";
  t.columns = {{"kind", "Kind"},
               {"label", "What the step waited for", ColumnType::kString, 2, 70},
               {"avg_ms", "Avg per step (ms)", ColumnType::kDouble, 3},
               {"percent", "% of step time", ColumnType::kDouble, 1}};
  for (const InputShareRow& r : a.input_share) t.AddRow({r.kind, r.label, r.avg_ms, r.percent});
  return t;
}

Table HostBreakdownTable(const InputPipelineAnalysis& a) {
  Table breakdown;
  breakdown.name = "host_breakdown";
  breakdown.title = "Host-side input time (ms, whole profile)";
  breakdown.columns = {{"category", "Category"},
                       {"label", "Input work", ColumnType::kString, 2, 60},
                       {"time_ms", "Time (ms)", ColumnType::kDouble}};
  for (const HostBreakdownRow& r : a.host_breakdown) breakdown.AddRow({r.category, r.label, r.time_ms});
  return breakdown;
}

}  // namespace

Table StepTimeTable(const std::vector<StepTimeRow>& rows, const StepTimeSummary& s) {
  Table t;
  t.name = "steps";
  t.title = "Step time per step (ms)";
  t.columns = {{"step_number", "Step", ColumnType::kInt},
               {"step_name", "Name", ColumnType::kString, 2, 24},
               {"step_time_ms", "Step", ColumnType::kDouble},
               {"input_bound_ms", "Input", ColumnType::kDouble}};
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (!s.category_applies[c]) continue;
    std::string key(TimeCategoryKey(static_cast<TimeCategory>(c)));
    t.columns.push_back({key + "_ms", key, ColumnType::kDouble});
  }
  const bool launched = s.cadence.has_value();
  if (launched) {
    t.columns.push_back({"device_busy_ms", "Device busy (launched)", ColumnType::kDouble});
    t.columns.push_back({"device_lag_ms", "Device lag", ColumnType::kDouble});
  }
  for (const StepTimeRow& r : rows) {
    output::Row row;
    row.reserve(t.columns.size());
    row.emplace_back(r.step_number);
    row.emplace_back(r.name);
    row.emplace_back(r.step_time_ms);
    row.emplace_back(r.input_ms);
    for (int c = 0; c < kNumTimeCategories; ++c) {
      if (s.category_applies[c]) row.emplace_back(r.category_ms[c]);
    }
    if (launched) {
      row.emplace_back(r.device_busy_ms);
      row.emplace_back(r.device_lag_ms);
    }
    t.AddRow(std::move(row));
  }
  return t;
}

Table StepBreakdownTable(const StepTimeSummary& s, bool for_people) {
  Table t;
  t.name = "step_time_breakdown";
  t.title = "Average step time breakdown";
  t.columns = {{"category", "Category"},
               {"avg_ms", "Avg (ms)", ColumnType::kDouble, 3},
               {"percent", "% of step", ColumnType::kDouble, 1}};
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (!s.category_applies[c]) continue;
    const TimeCategory category = static_cast<TimeCategory>(c);
    t.AddRow({std::string(for_people ? TimeCategoryLabel(category) : TimeCategoryKey(category)), s.avg_category_ms[c],
              s.category_percent[c]});
  }
  return t;
}

InputPipelineAnalysis ComputeInputPipelineAnalysis(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return InputAnalysisOf(model); });
}

void WriteSummaryStatsJson(const SummaryStats& stats, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("mean", stats.mean);
  w->Field("stddev", stats.stddev);
  w->Field("min", stats.min);
  w->Field("max", stats.max);
  w->EndObject();
}

void WriteStepBreakdownJson(const StepTimeSummary& s, output::JsonWriter* w) {
  w->BeginObject();
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (s.category_applies[c]) w->Field(TimeCategoryKey(static_cast<TimeCategory>(c)), s.avg_category_ms[c]);
  }
  w->EndObject();
}

void WriteStepSummaryJson(const StepTimeSummary& s, output::JsonWriter* w) {
  WriteFrameworkJson(s.framework, w);
  w->Field("steps", s.step_count);
  w->Field("avg_step_time_ms", s.avg_step_time_ms);
  // Without steps there is no input share (null), not an input share of 0.
  w->Key("input_bound_percent");
  if (s.step_count > 0) {
    w->Double(s.input_percent);
  } else {
    w->Null();
  }
  w->Field("input_bound_verdict", InputBoundVerdictName(s.verdict));
  w->Field("input_bound_potentially", s.potentially_input_bound);
  w->Field("input_bound_classification", s.classification);
  w->Field("input_bound_statement", s.statement);
  w->Field("step_time_source", s.step_time_source);
  // The cadences and the device's lag: null where they are not measured.
  w->Key("step_cadence");
  if (!s.cadence) {
    w->Null();
    return;
  }
  w->BeginObject();
  w->Field("steps", s.cadence->steps);
  w->Field("host_interval_ms", PsToMs(s.cadence->host_interval_ps));
  w->Field("device_interval_ms", PsToMs(s.cadence->device_interval_ps));
  w->Field("lag_growth_per_step_ms", PsToMs(s.cadence->lag_growth_per_step_ps()));
  w->Field("device_bound", s.cadence->device_bound);
  w->Field("mean_device_lag_ms", PsToMs(s.cadence->mean_device_lag_ps));
  w->Field("max_device_lag_ms", PsToMs(s.cadence->max_device_lag_ps));
  w->Field("statement", s.cadence_statement);
  w->EndObject();
}

void WriteResultJson(const InputPipelineAnalysis& a, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "input_pipeline_analyzer");
  WriteStepSummaryJson(a.summary, w);
  w->Key("step_time_stats_ms");
  WriteSummaryStatsJson(a.summary.step_time_ms, w);
  w->Key("input_time_stats_ms");
  WriteSummaryStatsJson(a.summary.input_time_ms, w);
  w->Key("step_time_breakdown_ms");
  WriteStepBreakdownJson(a.summary, w);
  w->Key("bottleneck_percent");
  w->BeginObject();
  const auto& applies = a.summary.category_applies;
  auto field_if = [&](std::string_view key, TimeCategory category, double value) {
    if (applies[static_cast<int>(category)]) w->Field(key, value);
  };
  w->Field("input", a.summary.input_percent);
  field_if("output", TimeCategory::kOutput, a.summary.output_percent);
  field_if("device_compute", TimeCategory::kDeviceCompute, a.summary.device_compute_percent);
  field_if("device_collectives", TimeCategory::kDeviceCollectives, a.summary.device_collectives_percent);
  field_if("kernel_launch", TimeCategory::kKernelLaunch, a.summary.kernel_launch_percent);
  w->Field("all_other", a.summary.all_other_percent);
  w->Key("idle");
  if (a.summary.idle_percent.has_value()) {
    w->Double(*a.summary.idle_percent);
  } else {
    w->Null();
  }
  w->EndObject();
  w->Key("input_share");
  output::WriteTableRowsJson(InputShareTable(a), w);
  w->Key("host_breakdown_ms");
  w->BeginObject();
  for (const HostBreakdownRow& r : a.host_breakdown) w->Field(r.category, r.time_ms);
  w->EndObject();
  w->Key("host_breakdown");
  output::WriteTableRowsJson(HostBreakdownTable(a), w);
  w->Key("input_ops");
  output::WriteTableRowsJson(InputOpsTable(a), w);
  w->Key("step_details");
  output::WriteTableRowsJson(StepTimeTable(a.steps, a.summary), w);
  w->Field("uses_tf_data", a.uses_tf_data);
  w->Field("get_next_count", a.get_next_count);
  w->Field("data_loader_next_count", a.data_loader_next_count);
  w->Field("get_next_outside_steps", a.get_next_outside_steps);
  w->Field("recommendation", a.recommendation);
  // Only when tf_data_bottleneck_analysis names a stage (profiles without iterator ids
  // keep their JSON unchanged).
  if (a.pipeline_bottleneck.has_value()) {
    const PipelineBottleneckLink& link = *a.pipeline_bottleneck;
    w->Key("pipeline_bottleneck");
    w->BeginObject();
    w->Field("tool", "tf_data_bottleneck_analysis");
    w->Field("pipeline", link.pipeline);
    w->Field("stage", link.stage);
    w->Field("kind", link.kind);
    w->Field("share_percent", link.share_percent);
    w->Field("self_time_per_call_us", link.self_time_per_call_us);
    w->Field("suggestion", link.suggestion);
    w->Field("statement", link.statement);
    w->EndObject();
  }
  output::EndResultJson(a.diagnostics, w);
}

std::vector<Table> BuildTables(const InputPipelineAnalysis& a) {
  return {StepTimeTable(a.steps, a.summary), InputShareTable(a), InputOpsTable(a), HostBreakdownTable(a)};
}

std::string FormatResultText(const InputPipelineAnalysis& a, const ToolOptions& options) {
  const StepTimeSummary& s = a.summary;
  auto stats = [](const SummaryStats& st) {
    return "mean " + output::FormatFixed(st.mean, 2) + "  stddev " + output::FormatFixed(st.stddev, 2) + "  min " +
           output::FormatFixed(st.min, 2) + "  max " + output::FormatFixed(st.max, 2);
  };
  std::vector<std::pair<std::string, std::string>> rows = {{"Framework", FrameworkText(s.framework)},
                                                           {"Steps", std::to_string(s.step_count)}};
  if (s.step_count > 0) {
    rows.push_back({"Input bound", std::string(InputBoundVerdictName(s.verdict)) + " (" + Pct(s.input_percent) +
                                       " of step time)"});
    rows.push_back({"Step time (ms)", stats(s.step_time_ms)});
    rows.push_back({"Input per step (ms)", stats(s.input_time_ms)});
  } else {
    rows.push_back({"Input bound", "unknown (no steps)"});
  }
  std::string out = output::FormatKeyValues("Input pipeline analysis", rows);
  out += "  " + output::SanitizeForTerminal(s.statement) + "\n\n";
  if (s.step_count > 0) out += output::FormatTextTable(StepBreakdownTable(s, /*for_people=*/true)) + "\n";
  const output::TextTableOptions table_options{options.text_max_rows};
  for (const Table& t : BuildTables(a)) {
    if (t.name == "steps") continue;  // long; in JSON/CSV
    if (t.name == "input_share" && t.rows.empty()) continue;  // no steps: said above
    out += output::FormatTextTable(t, table_options) + "\n";
  }
  out += "Recommendation\n  " + output::SanitizeForTerminal(a.recommendation) + "\n";
  if (a.pipeline_bottleneck.has_value()) {
    out += "  " + output::SanitizeForTerminal(a.pipeline_bottleneck->statement) + "\n";
  }
  for (const std::string& d : a.diagnostics) out += "  note: " + output::SanitizeForTerminal(d) + "\n";
  return out;
}

namespace {

class InputPipelineTool final : public Tool {
 public:
  std::string_view id() const override { return "input_pipeline_analyzer"; }
  std::string_view description() const override {
    return "Is the program input bound? Input share of step time, step statistics, host input breakdown and "
           "input ops.";
  }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(InputAnalysisOf(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeInputPipelineTool() { return std::make_unique<InputPipelineTool>(); }

}  // namespace stepscope::analysis
