#include "src/analysis/tools/input_pipeline.h"

#include <algorithm>

#include "src/analysis/model/derivations.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {
namespace {

std::string Pct(double percent) { return output::FormatFixed(percent, 1) + " %"; }

std::vector<std::pair<std::string, double>> ByAppliedCategory(const StepTimeSummary& s,
                                                              const std::array<double, kNumTimeCategories>& values) {
  std::vector<std::pair<std::string, double>> out;
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (s.category_applies[c]) out.emplace_back(TimeCategoryKey(static_cast<TimeCategory>(c)), values[c]);
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, double>> StepBreakdownMs(const StepTimeSummary& s) {
  return ByAppliedCategory(s, s.avg_category_ms);
}

std::vector<std::pair<std::string, double>> StepBreakdownPercent(const StepTimeSummary& s) {
  return ByAppliedCategory(s, s.category_percent);
}

std::vector<StepRow> StepRows(const std::vector<StepTimeRow>& rows, const StepTimeSummary& s) {
  std::vector<StepRow> out;
  out.reserve(rows.size());
  for (const StepTimeRow& r : rows) {
    StepRow row{r.step_number, r.name, r.step_time_ms, r.input_ms};
    for (int c = 0; c < kNumTimeCategories; ++c) {
      if (s.category_applies[c]) row.category_ms[c] = r.category_ms[c];
    }
    if (s.cadence.has_value()) {
      row.device_busy_ms = r.device_busy_ms;
      row.device_lag_ms = r.device_lag_ms;
    }
    out.push_back(std::move(row));
  }
  return out;
}

bool StepColumnShown(const StepTimeSummary& s, std::string_view column) {
  if (column == "device_busy_ms" || column == "device_lag_ms") return s.cadence.has_value();
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (column == std::string(TimeCategoryKey(static_cast<TimeCategory>(c))) + "_ms") return s.category_applies[c];
  }
  return true;
}

std::vector<StepBreakdownRow> StepBreakdownRows(const StepTimeSummary& s, bool for_people) {
  std::vector<StepBreakdownRow> rows;
  for (int c = 0; c < kNumTimeCategories; ++c) {
    if (!s.category_applies[c]) continue;
    const TimeCategory category = static_cast<TimeCategory>(c);
    rows.push_back({std::string(for_people ? TimeCategoryLabel(category) : TimeCategoryKey(category)),
                    s.avg_category_ms[c], s.category_percent[c]});
  }
  return rows;
}

output::Table StepBreakdownTable(const StepTimeSummary& s, bool for_people) {
  return output::RowsTable("step_time_breakdown", kStepBreakdownTitle, StepBreakdownRows(s, for_people));
}

BottleneckPercent BottleneckPercentOf(const StepTimeSummary& s) {
  auto if_applies = [&](TimeCategory category, double value) {
    return output::OptionalIf(s.category_applies[static_cast<int>(category)], value);
  };
  return {s.input_percent,
          if_applies(TimeCategory::kOutput, s.output_percent),
          if_applies(TimeCategory::kDeviceCompute, s.device_compute_percent),
          if_applies(TimeCategory::kDeviceCollectives, s.device_collectives_percent),
          if_applies(TimeCategory::kKernelLaunch, s.kernel_launch_percent),
          s.all_other_percent,
          s.idle_percent};
}

bool ShowColumn(const InputPipelineAnalysis& a, std::string_view table, std::string_view column) {
  return table != "steps" || StepColumnShown(a.summary, column);
}

InputPipelineAnalysis ComputeInputPipelineAnalysis(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return InputAnalysisOf(model); });
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
  // The input share, the input ops, then the host classes; the steps are long (in JSON/CSV).
  std::vector<output::Table> tables = output::RecordTables(a);
  std::erase_if(tables, [&](const output::Table& t) {
    return t.name == "steps" || (t.name == "input_share" && t.rows.empty());  // no steps: said above
  });
  std::stable_partition(tables.begin(), tables.end(), [](const output::Table& t) { return t.name != "host_breakdown"; });
  for (const output::Table& t : tables) out += output::FormatTextTable(t, table_options) + "\n";
  out += "Recommendation\n  " + output::SanitizeForTerminal(a.recommendation) + "\n";
  if (a.pipeline_bottleneck.has_value()) {
    out += "  " + output::SanitizeForTerminal(a.pipeline_bottleneck->statement) + "\n";
  }
  for (const std::string& d : a.diagnostics) out += "  note: " + output::SanitizeForTerminal(d) + "\n";
  return out;
}

namespace {

class InputPipelineTool final : public DeclaredTool<InputPipelineAnalysis> {
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
