// input_pipeline_analyzer: is the program input bound, by how much, and where the input
// time goes on the host (TF Profiler's input-pipeline analyzer).
//
// The analysis is the model's (src/analysis/model/input_analysis.h, derived once per model);
// this tool presents it. The step-time summary it starts from is the model's too
// (src/analysis/model/step_summary.h); the presentation of that summary shared with the
// overview page (step table, breakdown table, summary JSON) lives here.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/input_analysis.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/step_summary.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/framework.h"

namespace stepscope::analysis {

// Table "steps": step_number, step_name, step_time_ms, input_bound_ms (the time the
// input-bound percent counts: wait for input + host-to-device), then one
// "<category>_ms" column per TimeCategory that applies (StepTimeSummary), then, where the
// cadence is measured, device_busy_ms and device_lag_ms of the work each step launched.
output::Table StepTimeTable(const std::vector<StepTimeRow>& rows, const StepTimeSummary& s);
// Table "step_time_breakdown": category, avg_ms, percent per TimeCategory that applies.
// The category cell is its key ("other"), or with `for_people` its label ("other (no
// recorded event)").
output::Table StepBreakdownTable(const StepTimeSummary& s, bool for_people);

// The model's input analysis (InputAnalysisOf), as this tool's result.
InputPipelineAnalysis ComputeInputPipelineAnalysis(const ProfileModel& model);

void WriteResultJson(const InputPipelineAnalysis& analysis, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const InputPipelineAnalysis& analysis);
std::string FormatResultText(const InputPipelineAnalysis& analysis, const ToolOptions& options);

// Writes the summary fields shared by overview_page and input_pipeline_analyzer JSON
// ("steps", "avg_step_time_ms", "input_bound_*", ...) into the current object.
void WriteStepSummaryJson(const StepTimeSummary& summary, output::JsonWriter* writer);
// The "step_time_breakdown_ms" object: average ms per step by category key.
void WriteStepBreakdownJson(const StepTimeSummary& summary, output::JsonWriter* writer);
// "{mean, stddev, min, max}" in the current value position.
void WriteSummaryStatsJson(const SummaryStats& stats, output::JsonWriter* writer);

std::unique_ptr<Tool> MakeInputPipelineTool();

}  // namespace stepscope::analysis
