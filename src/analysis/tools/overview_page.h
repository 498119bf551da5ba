// overview_page: the first page a user sees (TF Profiler's overview): performance
// summary (average step time and its breakdown, device compute precision), the step-time
// graph, top device ops, run environment, op placement and the recommendation for the
// next step.
//
// It computes nothing another tool shows: the step summary and input verdict, the op
// placement, the XLA summary and the recommendations are the model's derivations
// (src/analysis/model/derivations.h), computed once per model and shared with
// input_pipeline_analyzer, framework_op_stats, the HLO tools and the advisor; it shares
// their presentation (input_pipeline.h, framework_op_stats.h, advisor.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/device_models.h"
#include "src/analysis/tools/framework_op_stats.h"
#include "src/analysis/tools/input_pipeline.h"

namespace stepscope::analysis {

// The overview lists the ten most expensive device ops, as TensorBoard does.
inline constexpr size_t kTopDeviceOps = 10;

struct TopDeviceOp {
  int64_t rank = 0;
  std::string name;
  std::string type;
  std::string category;
  int64_t occurrences = 0;
  double self_time_ms = 0;
  double self_time_percent = 0;   // of all device op self time
  double cumulative_percent = 0;
};

// One sampled device counter (NVML's SM / memory utilisation, memory used, power, as
// stepscope's tracer records them), summarised: the guide's nvidia-smi log, read for you.
struct DeviceCounterRow {
  std::string host;
  std::string device;
  std::string counter;  // "sm_utilization_pct", ...
  int64_t samples = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  double last = 0;
  double threshold = 0;           // 0 with at_or_above_percent -1: none
  double at_or_above_percent = -1;  // of the sampled span; -1 when the counter has no threshold
};

struct OverviewPage {
  StepTimeSummary summary;
  std::vector<StepTimeRow> steps;
  std::vector<TopDeviceOp> top_device_ops;
  RunEnvironment run_environment;
  // Sum of the active devices' core_count plane stat (SMs on NVIDIA, CUs on AMD); 0 when
  // the profile does not say. run_environment.device_core_count counts devices, as XProf.
  int64_t device_compute_units = 0;
  std::vector<DeviceModelCount> device_models;  // the device planes by model name
  std::vector<std::string> hostnames;
  bool has_device = false;
  OpPlacement placement;
  std::vector<DeviceCounterRow> device_counters;  // every device's sampled counters
  std::vector<Finding> recommendations;  // the advisor's findings, most important first
  std::string next_step;                 // one sentence: what to do first
  std::vector<std::string> diagnostics;
  // XLA profiles (programs in /host:metadata): FLOP and bandwidth utilisation of the HLO
  // ops against the device roofs (hlo_op_metrics.h); absent otherwise (no `xla` key).
  std::optional<HloOpSummary> xla;
};

OverviewPage ComputeOverviewPage(const ProfileModel& model);

void WriteResultJson(const OverviewPage& page, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const OverviewPage& page);
std::string FormatResultText(const OverviewPage& page, const ToolOptions& options);

std::unique_ptr<Tool> MakeOverviewPageTool();

}  // namespace stepscope::analysis
