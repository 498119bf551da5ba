#include "src/analysis/tools/input_pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/analysis/output/text_table.h"
#include "src/analysis/tools/tool_util.h"

namespace stepscope::analysis {
namespace {

// kHostBreakdownKeys is indexed by the model's InputOpCategory.
static_assert(static_cast<int>(InputOpCategory::kDemandedFileRead) == 0 &&
              static_cast<int>(InputOpCategory::kAdvancedFileRead) == 1 &&
              static_cast<int>(InputOpCategory::kPreprocessing) == 2 &&
              static_cast<int>(InputOpCategory::kEnqueue) == 3 && static_cast<int>(InputOpCategory::kOther) == 4);

using output::Column;
using output::ColumnType;
using output::Table;

std::string Pct(double percent) { return output::FormatFixed(percent, 1) + " %"; }

std::string VerdictStatement(const StepTimeSummary& s) {
  switch (s.verdict) {
    case InputBoundVerdict::kHighly:
      return "HIGHLY input bound: " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Reduce input time first.";
    case InputBoundVerdict::kModerately:
      return "MODERATELY input bound: " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Reduce both the input time and the rest of the step.";
    case InputBoundVerdict::kNot:
      if (s.potentially_input_bound) {
        return "NOT input bound by the recorded input (" + Pct(s.input_percent) + "), but " +
               Pct(s.all_other_percent) +
               " of step time is explained by no recorded event; if that is uninstrumented input work "
               "(Python, file reads), the program is POTENTIALLY input bound.";
      }
      return "NOT input bound: only " + Pct(s.input_percent) +
             " of step time is spent waiting for input. Look at the rest of the step.";
    case InputBoundVerdict::kUnknown:
      break;
  }
  return "No steps were found, so the input share of the step cannot be computed. Mark each training step "
         "with stepscope::Step (or tf.profiler.experimental.Trace('train', step_num=n, _r=1)).";
}

std::string Recommendation(const InputPipelineAnalysis& a) {
  const StepTimeSummary& s = a.summary;
  if (s.verdict == InputBoundVerdict::kUnknown) return s.statement;
  if (s.verdict == InputBoundVerdict::kNot) {
    return s.potentially_input_bound
               ? "Annotate the code between the recorded ops (e.g. data loading in Python) to see whether the "
                 "unexplained time is input."
               : "Input is not the bottleneck; see the overview page for where step time goes.";
  }
  size_t top = 0;
  for (size_t i = 1; i < a.host_breakdown_ms.size(); ++i) {
    if (a.host_breakdown_ms[i] > a.host_breakdown_ms[top]) top = i;
  }
  if (a.input_ops.empty() || a.host_breakdown_ms[top] <= 0) {
    return "The input stage is not instrumented, so the profile cannot say which part is slow: annotate it "
           "(stepscope::ScopedIterator with tf.data-style names), then prefetch so input overlaps compute, "
           "read and preprocess with several threads, and cache what does not change between epochs.";
  }
  switch (static_cast<InputOpCategory>(top)) {
    case InputOpCategory::kDemandedFileRead:
      return "Most input time reads files on demand: read ahead (interleave several files in parallel, "
             "prefetch), use fewer larger files, or cache the dataset in memory.";
    case InputOpCategory::kAdvancedFileRead:
      return "Most input time reads files, already ahead of use: read in parallel from more files, or cache "
             "the dataset in memory if it fits.";
    case InputOpCategory::kPreprocessing:
      return "Most input time is preprocessing: run it on several threads (num_parallel_calls / input "
             "threads), prefetch so it overlaps the step, cache results that repeat, or move fixed work "
             "offline.";
    case InputOpCategory::kEnqueue:
      return "Most input time copies batches to the device: prefetch to the device so copies overlap compute, "
             "and use pinned host memory.";
    case InputOpCategory::kOther:
      break;
  }
  return "Prefetch so input overlaps compute, parallelise reading and preprocessing, and cache what repeats.";
}

Table InputOpsTable(const InputPipelineAnalysis& a) {
  Table ops;
  ops.name = "input_ops";
  ops.title = "Host input ops";
  ops.columns = {{"name", "Input op", ColumnType::kString, 2, 60},
                 {"type", "Type", ColumnType::kString, 2, 24},
                 {"category", "Category", ColumnType::kString},
                 {"count", "Count", ColumnType::kInt},
                 {"total_time_ms", "Total (ms)", ColumnType::kDouble},
                 {"total_time_percent", "Total %", ColumnType::kDouble, 1},
                 {"self_time_ms", "Self (ms)", ColumnType::kDouble},
                 {"self_time_percent", "Self %", ColumnType::kDouble, 1}};
  for (const InputOpRow& r : a.input_ops) {
    ops.AddRow({r.name, r.type, r.category, r.count, r.total_time_ms, r.total_time_percent, r.self_time_ms,
                r.self_time_percent});
  }
  return ops;
}

Table HostBreakdownTable(const InputPipelineAnalysis& a) {
  Table breakdown;
  breakdown.name = "host_breakdown";
  breakdown.title = "Host-side input time (ms, whole profile)";
  breakdown.columns = {{"category", "Category"}, {"time_ms", "Time (ms)", ColumnType::kDouble}};
  for (int c = 0; c < kNumInputOpCategories; ++c) {
    breakdown.AddRow({std::string(kHostBreakdownKeys[c]), a.host_breakdown_ms[c]});
  }
  return breakdown;
}

}  // namespace

std::string_view InputBoundVerdictName(InputBoundVerdict verdict) {
  switch (verdict) {
    case InputBoundVerdict::kHighly: return "highly";
    case InputBoundVerdict::kModerately: return "moderately";
    case InputBoundVerdict::kNot: return "not";
    case InputBoundVerdict::kUnknown: return "unknown";
  }
  return "unknown";
}

SummaryStats ComputeSummaryStats(const std::vector<double>& values) {
  SummaryStats stats;
  stats.count = static_cast<int64_t>(values.size());
  if (values.empty()) return stats;
  double sum = 0;
  stats.min = values[0];
  stats.max = values[0];
  for (double v : values) {
    sum += v;
    stats.min = std::min(stats.min, v);
    stats.max = std::max(stats.max, v);
  }
  stats.mean = sum / values.size();
  double sq = 0;
  for (double v : values) sq += (v - stats.mean) * (v - stats.mean);
  stats.stddev = std::sqrt(sq / values.size());
  return stats;
}

StepTimeSummary SummarizeSteps(const ProfileModel& model) {
  StepTimeSummary s;
  s.step_count = static_cast<int64_t>(model.steps.size());
  std::vector<double> step_ms, input_ms;
  int64_t input_ps = 0;
  for (const StepInfo& step : model.steps) {
    s.total_step_time_ps += step.duration_ps;
    s.total.Add(step.breakdown);
    input_ps += step.breakdown.input_ps();
    step_ms.push_back(PsToMs(step.duration_ps));
    input_ms.push_back(PsToMs(step.breakdown.input_ps()));
  }
  s.step_time_ms = ComputeSummaryStats(step_ms);
  s.input_time_ms = ComputeSummaryStats(input_ms);
  if (s.step_count > 0) s.avg_step_time_ms = PsToMs(s.total_step_time_ps) / s.step_count;
  const double total = static_cast<double>(s.total_step_time_ps);
  for (int c = 0; c < kNumTimeCategories; ++c) {
    const int64_t ps = s.total.category_ps(static_cast<TimeCategory>(c));
    if (s.step_count > 0) s.avg_category_ms[c] = PsToMs(ps) / s.step_count;
    s.category_percent[c] = Percent(ps, total);
  }
  s.input_percent = Percent(input_ps, total);
  s.output_percent = Percent(s.total.ps(EventType::kDeviceToHost), total);
  s.device_compute_percent = Percent(s.total.category_ps(TimeCategory::kDeviceCompute), total);
  s.device_collectives_percent = Percent(s.total.ps(EventType::kDeviceCollectives), total);
  s.kernel_launch_percent = Percent(s.total.ps(EventType::kHostPrepare), total);
  s.all_other_percent = Percent(s.total.ps(EventType::kUnknownTime), total);
  if (model.has_device) {
    s.idle_percent = std::max(0.0, 100.0 - s.input_percent - s.output_percent - s.device_compute_percent -
                                       s.device_collectives_percent);
  }

  if (s.step_count == 0 || s.total_step_time_ps <= 0) {
    s.verdict = InputBoundVerdict::kUnknown;
    s.classification = "unknown";
  } else if (s.input_percent >= kHighlyInputBoundThresholdPercent) {
    s.verdict = InputBoundVerdict::kHighly;
    s.classification = "host";
  } else if (s.input_percent >= kModeratelyInputBoundThresholdPercent) {
    s.verdict = InputBoundVerdict::kModerately;
    s.classification = "both";
  } else {
    s.verdict = InputBoundVerdict::kNot;
    s.potentially_input_bound = s.all_other_percent >= kAllOtherThresholdPercent;
    s.classification = s.potentially_input_bound ? "both" : "device";
  }
  s.statement = VerdictStatement(s);

  const int64_t dc16 = s.total.ps(EventType::kDeviceCompute16);
  const int64_t dc = dc16 + s.total.ps(EventType::kDeviceCompute32);
  if (model.has_device && dc > 0) s.device_compute_16bit_percent = Percent(dc16, dc);
  return s;
}

std::vector<StepTimeRow> ComputeStepTimeRows(const ProfileModel& model) {
  std::vector<StepTimeRow> rows;
  rows.reserve(model.steps.size());
  for (const StepInfo& step : model.steps) {
    StepTimeRow row;
    row.step_number = step.step_number;
    row.name = step.name;
    row.step_time_ms = PsToMs(step.duration_ps);
    row.input_ms = PsToMs(step.breakdown.input_ps());
    for (int c = 0; c < kNumTimeCategories; ++c) {
      row.category_ms[c] = PsToMs(step.breakdown.category_ps(static_cast<TimeCategory>(c)));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

Table StepTimeTable(const std::vector<StepTimeRow>& rows) {
  Table t;
  t.name = "steps";
  t.title = "Step time per step (ms)";
  t.columns = {{"step_number", "Step", ColumnType::kInt},
               {"step_name", "Name", ColumnType::kString, 2, 24},
               {"step_time_ms", "Step", ColumnType::kDouble},
               {"input_bound_ms", "Input", ColumnType::kDouble}};
  for (int c = 0; c < kNumTimeCategories; ++c) {
    std::string key(TimeCategoryKey(static_cast<TimeCategory>(c)));
    t.columns.push_back({key + "_ms", key, ColumnType::kDouble});
  }
  for (const StepTimeRow& r : rows) {
    output::Row row;
    row.reserve(t.columns.size());
    row.emplace_back(r.step_number);
    row.emplace_back(r.name);
    row.emplace_back(r.step_time_ms);
    row.emplace_back(r.input_ms);
    for (double ms : r.category_ms) row.emplace_back(ms);
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
    const TimeCategory category = static_cast<TimeCategory>(c);
    t.AddRow({std::string(for_people ? TimeCategoryLabel(category) : TimeCategoryKey(category)), s.avg_category_ms[c],
              s.category_percent[c]});
  }
  return t;
}

InputPipelineAnalysis ComputeInputPipelineAnalysis(const ProfileModel& model) {
  InputPipelineAnalysis a;
  a.summary = SummarizeSteps(model);
  a.steps = ComputeStepTimeRows(model);
  const InputPipelineFacts& facts = model.input_pipeline;
  for (int c = 0; c < kNumInputOpCategories; ++c) a.host_breakdown_ms[c] = PsToMs(facts.category_self_time_ps[c]);
  // XProf divides by all host op time without idle; that is the host side's self-time sum.
  const double host_op_ps = static_cast<double>(model.host_ops.total_self_time_ps);
  for (const InputOp& op : facts.ops) {
    InputOpRow row;
    row.name = op.name;
    row.type = op.type;
    row.category = std::string(kHostBreakdownKeys[static_cast<int>(op.category)]);
    row.count = op.occurrences;
    row.total_time_ms = PsToMs(op.total_time_ps);
    row.total_time_percent = Percent(op.total_time_ps, host_op_ps);
    row.self_time_ms = PsToMs(op.self_time_ps);
    row.self_time_percent = Percent(op.self_time_ps, host_op_ps);
    a.input_ops.push_back(std::move(row));
  }
  std::stable_sort(a.input_ops.begin(), a.input_ops.end(),
                   [](const InputOpRow& x, const InputOpRow& y) { return x.self_time_ms > y.self_time_ms; });
  a.uses_tf_data = facts.uses_tf_data;
  a.get_next_count = facts.get_next_count;
  a.get_next_outside_steps = facts.get_next_outside_steps;
  a.diagnostics = model.diagnostics;
  if (a.get_next_outside_steps > 0) {
    a.diagnostics.push_back(std::to_string(a.get_next_outside_steps) + " of " + std::to_string(a.get_next_count) +
                            " input fetches (IteratorGetNext) happen outside any step, so their time is not "
                            "counted as input in the step breakdown");
  }
  a.recommendation = Recommendation(a);
  return a;
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
    w->Field(TimeCategoryKey(static_cast<TimeCategory>(c)), s.avg_category_ms[c]);
  }
  w->EndObject();
}

void WriteStepSummaryJson(const StepTimeSummary& s, output::JsonWriter* w) {
  w->Field("steps", s.step_count);
  w->Field("avg_step_time_ms", s.avg_step_time_ms);
  w->Field("input_bound_percent", s.input_percent);
  w->Field("input_bound_verdict", InputBoundVerdictName(s.verdict));
  w->Field("input_bound_potentially", s.potentially_input_bound);
  w->Field("input_bound_classification", s.classification);
  w->Field("input_bound_statement", s.statement);
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
  w->Field("input", a.summary.input_percent);
  w->Field("output", a.summary.output_percent);
  w->Field("device_compute", a.summary.device_compute_percent);
  w->Field("device_collectives", a.summary.device_collectives_percent);
  w->Field("kernel_launch", a.summary.kernel_launch_percent);
  w->Field("all_other", a.summary.all_other_percent);
  w->Key("idle");
  if (a.summary.idle_percent.has_value()) {
    w->Double(*a.summary.idle_percent);
  } else {
    w->Null();
  }
  w->EndObject();
  w->Key("host_breakdown_ms");
  w->BeginObject();
  for (int c = 0; c < kNumInputOpCategories; ++c) w->Field(kHostBreakdownKeys[c], a.host_breakdown_ms[c]);
  w->EndObject();
  w->Key("input_ops");
  output::WriteTableRowsJson(InputOpsTable(a), w);
  w->Key("step_details");
  output::WriteTableRowsJson(StepTimeTable(a.steps), w);
  w->Field("uses_tf_data", a.uses_tf_data);
  w->Field("get_next_count", a.get_next_count);
  w->Field("get_next_outside_steps", a.get_next_outside_steps);
  w->Field("recommendation", a.recommendation);
  w->Key("diagnostics");
  w->BeginArray();
  for (const std::string& d : a.diagnostics) w->String(d);
  w->EndArray();
  w->EndObject();
}

std::vector<Table> BuildTables(const InputPipelineAnalysis& a) {
  return {StepTimeTable(a.steps), InputOpsTable(a), HostBreakdownTable(a)};
}

std::string FormatResultText(const InputPipelineAnalysis& a, const ToolOptions& options) {
  const StepTimeSummary& s = a.summary;
  auto stats = [](const SummaryStats& st) {
    return "mean " + output::FormatFixed(st.mean, 2) + "  stddev " + output::FormatFixed(st.stddev, 2) + "  min " +
           output::FormatFixed(st.min, 2) + "  max " + output::FormatFixed(st.max, 2);
  };
  std::string out = output::FormatKeyValues(
      "Input pipeline analysis",
      {{"Steps", std::to_string(s.step_count)},
       {"Input bound", std::string(InputBoundVerdictName(s.verdict)) + " (" + Pct(s.input_percent) + " of step time)"},
       {"Step time (ms)", stats(s.step_time_ms)},
       {"Input per step (ms)", stats(s.input_time_ms)}});
  out += "  " + output::SanitizeForTerminal(s.statement) + "\n\n";
  if (s.step_count > 0) out += output::FormatTextTable(StepBreakdownTable(s, /*for_people=*/true)) + "\n";
  const output::TextTableOptions table_options{options.text_max_rows};
  for (const Table& t : BuildTables(a)) {
    if (t.name == "steps") continue;  // long; in JSON/CSV
    out += output::FormatTextTable(t, table_options) + "\n";
  }
  out += "Recommendation\n  " + output::SanitizeForTerminal(a.recommendation) + "\n";
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
  StatusOr<std::unique_ptr<ToolResult>> Run(const ProfileModel& model, const ToolOptions&) const override {
    return std::unique_ptr<ToolResult>(
        std::make_unique<StructToolResult<InputPipelineAnalysis>>(ComputeInputPipelineAnalysis(model)));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeInputPipelineTool() { return std::make_unique<InputPipelineTool>(); }

}  // namespace stepscope::analysis
