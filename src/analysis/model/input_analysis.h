// The input analysis: how much of the step waits for input and in what (the step input
// share), the host input classes and ops, the device copies, the framework's advice and
// the tf.data bottleneck stage. Derived once per model (derivations.h: InputAnalysisOf)
// and read by input_pipeline_analyzer and the advisor (and through it the overview page).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/step_summary.h"

namespace stepscope::analysis {

// The host-side input breakdown keys, indexed by InputOpCategory ("enqueue_to_device" is
// MemcpyHToD / InfeedEnqueue / device_put; "data_loader" and "pin_memory" are PyTorch's).
inline constexpr std::array<std::string_view, kNumInputOpCategories> kHostBreakdownKeys = {
    "demanded_file_read", "advanced_file_read", "preprocessing", "enqueue_to_device", "other",
    "data_loader",        "pin_memory"};
// The category of an input op row for a host-to-device copy on the device.
inline constexpr std::string_view kDeviceCopyCategory = "host_to_device";

// The input share of step time split by what the step waited for: the two fine types of
// the step breakdown that the input-bound percent adds up, so the rows' percents sum to
// StepTimeSummary::input_percent.
struct InputShareRow {
  std::string kind;   // "wait_for_input" (kHostWaitInput) or "host_to_device" (kHostToDevice)
  std::string label;  // in the framework's words ("Waiting for the DataLoader (...)")
  double avg_ms = 0;  // per step
  double percent = 0;  // of step time
};

// One host input class that applies to the profile's framework (the rest are hidden).
struct HostBreakdownRow {
  std::string category;  // a kHostBreakdownKeys key
  std::string label;     // for people ("DataLoader iteration (enumerate(DataLoader)...__next__)")
  double time_ms = 0;    // self time of the class's host ops over the whole profile
};

struct InputOpRow {
  std::string name;      // host: the op; device: the op that issued the copy
  std::string type;      // host: op type; device: the copy event ("Memcpy HtoD (Pinned -> Device)")
  std::string category;  // host: a kHostBreakdownKeys key; device: kDeviceCopyCategory
  bool on_device = false;
  int64_t count = 0;
  double total_time_ms = 0;
  // Of all host op self time (idle excluded), as XProf; host rows only.
  std::optional<double> total_time_percent;
  double self_time_ms = 0;  // device rows: == total (a copy has no children)
  std::optional<double> self_time_percent;  // host rows only
  // Self time over the summed step time (not overlap-resolved, and time outside steps
  // counts: the step breakdown's input share is the exact number); nullopt without steps.
  std::optional<double> step_time_percent;
};

// What tf_data_bottleneck_analysis found, when it found the run input bound on one stage.
struct PipelineBottleneckLink {
  std::string pipeline;        // "Host:0"
  std::string stage;           // "Iterator::Batch::Map"
  std::string kind;            // BottleneckKindName
  double share_percent = 0;    // of the blocking time in the slowest calls
  double self_time_per_call_us = 0;
  std::string suggestion;
  // "Input bound — the bottleneck is stage X (...)": one line for people.
  std::string statement;
};
// The link, or nullopt when the profile has no iterator events, is not input bound by
// that analysis, or no stage blocked.
std::optional<PipelineBottleneckLink> FindPipelineBottleneck(const ProfileModel& model);

struct InputPipelineAnalysis {
  StepTimeSummary summary;
  std::vector<StepTimeRow> steps;
  std::vector<InputShareRow> input_share;  // empty without steps
  // Total self time over the profile per host input category (kHostBreakdownKeys order).
  std::array<double, kNumInputOpCategories> host_breakdown_ms{};
  std::vector<HostBreakdownRow> host_breakdown;  // the categories that apply, in key order
  std::vector<InputOpRow> input_ops;  // host ops by self time, then device copies by time
  bool uses_tf_data = false;
  int64_t get_next_count = 0;  // input fetches: IteratorGetNext* and DataLoader __next__
  int64_t data_loader_next_count = 0;  // of those, PyTorch DataLoader __next__
  int64_t get_next_outside_steps = 0;
  std::string recommendation;
  std::optional<PipelineBottleneckLink> pipeline_bottleneck;  // tf_data_bottleneck_analysis's
  std::vector<std::string> diagnostics;  // the model's, plus this tool's
};

// Computes the analysis (the tf.data bottleneck from the model's cached tf.data analysis).
// Tools read the cached one: InputAnalysisOf(model).
InputPipelineAnalysis AnalyzeInputPipeline(const ProfileModel& model);

}  // namespace stepscope::analysis
