// Derivations: what more than one tool reads, derived from a model once.
//
// Tools compose through the model, never through each other: a number two tools need (the
// step summary, the input analysis, the memory peaks, the collectives, the op placement,
// the advisor's findings, ...) is derived here, and each tool is a function from the model
// (and these) to its result. No tool calls another tool's Compute* (checked by the
// layering_tool_composition test, tools/check_tool_composition.py).
//
// Each accessor computes its derivation on first use and returns the same object after
// that, for the life of the model: at most once per model, whichever thread asks first
// (std::call_once per derivation), so `stepscope analyze --tool all` and the server's
// concurrent requests on one cached model compute each once. The references stay valid
// while the model lives (a moved model takes its derivations along; a copy starts empty,
// derivation_cache.h). A model must not be changed after a derivation was read from it;
// the tools' public Compute* functions, which tests call on models they change between
// calls, compute in a cache of their own (WithFreshDerivations), and only Tool::Run (the
// CLI's and the server's path) reads the model's.
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "src/analysis/model/advice/advice.h"
#include "src/analysis/model/framework_guess.h"
#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/model/input_analysis.h"
#include "src/analysis/model/kernel_summary.h"
#include "src/analysis/model/memory_analysis.h"
#include "src/analysis/model/multi_gpu_analysis.h"
#include "src/analysis/model/op_placement.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/step_summary.h"
#include "src/analysis/model/tf_data_analysis.h"

namespace stepscope::analysis {

// DetectFramework.
const FrameworkGuess& FrameworkOf(const ProfileModel& model);
// SummarizeSteps and ComputeStepTimeRows.
const StepTimeSummary& StepSummaryOf(const ProfileModel& model);
const std::vector<StepTimeRow>& StepRowsOf(const ProfileModel& model);
// AnalyzeInputPipeline: input_pipeline_analyzer's result; the advisor's input advice.
const InputPipelineAnalysis& InputAnalysisOf(const ProfileModel& model);
// AnalyzeTfDataPipelines: tf_data_bottleneck_analysis's result; the input analysis's
// bottleneck stage.
const TfDataBottleneckResult& TfDataAnalysisOf(const ProfileModel& model);
// AnalyzeMemory over the whole profile (the model's step group, no time range):
// memory_profile's result without options; the advisor's memory findings.
const MemoryProfileResult& MemoryAnalysisOf(const ProfileModel& model);
// AnalyzeMultiGpu without user parameters: multi_gpu's result without options; the
// advisor's straggler and collective findings.
const MultiGpuResult& MultiGpuOf(const ProfileModel& model);
// SummarizeKernels: kernel_stats' summary; the advisor's kernel findings.
const KernelSummary& KernelSummaryOf(const ProfileModel& model);
// ComputeOpPlacement: framework_op_stats, overview page, advisor.
const OpPlacement& OpPlacementOf(const ProfileModel& model);
// ComputeHloOpMetrics and SummarizeHloOps (empty without XLA programs' op times): the HLO
// tools, the overview page, the advisor.
const std::vector<HloOpMetrics>& HloOpsOf(const ProfileModel& model);
const HloOpSummary& HloSummaryOf(const ProfileModel& model);
// EvaluateAdvice: the advisor's report; the overview page's recommendations.
const AdvisorReport& AdviceOf(const ProfileModel& model);

// Runs `compute` with the derivations of `model` read from a cache of their own, made for
// this call on this thread and dropped after it, not from the model's: what `compute`
// derives is computed afresh (each derivation still once within the call). For the tools'
// public Compute* functions: the model a caller passes may have changed since it was last
// analysed (tests build a model, analyse it, change it, analyse it again).
void RunWithFreshDerivations(const ProfileModel& model, const std::function<void()>& compute);
template <typename Compute>
auto WithFreshDerivations(const ProfileModel& model, Compute&& compute) {
  std::optional<decltype(compute())> result;
  RunWithFreshDerivations(model, [&] { result.emplace(compute()); });
  return std::move(*result);
}

}  // namespace stepscope::analysis
