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
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

// One worker in one step: a bar of the stacked chart.
struct PodWorkerStep {
  int64_t step_number = 0;
  int host_index = 0;
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
  std::vector<PodWorkerStep> workers;  // in host order; only hosts that have the step
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

// A worker that is slowest in at least half the steps is called out as the straggler;
// with N workers chance alone gives 1/N, so half is a clear signal from 3 workers up
// and, with 2, means "never the faster one" in most steps.
inline constexpr double kStragglerSharePercent = 50.0;

PodViewerResult ComputePodViewer(const ProfileModel& model);

void WriteResultJson(const PodViewerResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const PodViewerResult& result);
std::string FormatResultText(const PodViewerResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakePodViewerTool();

}  // namespace stepscope::analysis
