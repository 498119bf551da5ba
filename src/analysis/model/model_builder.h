// Internal to BuildProfileModel: the intermediate results passed between its phases.
//
// Phases (build_profile_model.cc runs them in this order, each once per host):
//   1. host_analysis:   event trees, stats, step groups (the file's or ours), host markers,
//                       correlation id -> group, correlation id -> launching framework op.
//   2. device_analysis: device activity, kernels, device ops, device markers and spans.
//   3. step_breakdown:  steps from markers (windows of time, or XProf's StepTime for
//                       TF's groups), host spans, sweep-line breakdown per step.
//   4. op_metrics:      host op table, input-pipeline facts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "src/analysis/model/collective_message.h"
#include "src/analysis/model/correlation_map.h"
#include "src/analysis/model/flat_map.h"
#include "src/analysis/model/hlo_kernels.h"
#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/columnar/pod_array.h"

namespace stepscope::analysis::internal {

inline constexpr int32_t kNoGroup = -1;
static_assert(CorrelationMap::kNone == kNoGroup);

// Bits of HostThreadFacts::flags.
enum EventFlag : uint8_t {
  kHasCorrelation = 1,  // carries correlation_id (a kernel launch when a device exists)
  kIsEager = 2,
  kIsStepMarker = 4,     // explicit or implicit step marker (not an op, not a span)
  kIsInputStage = 8,     // `_ipl_stage_name`: a root input-pipeline stage
  kIsOpScope = 16,       // a PyTorch record-function scope (Kineto `External id`), not a step root
  kGroupedByWindow = 32,  // grouped by the step-window rule (host_analysis.h), not by a marker's subtree
};

// Per host thread, parallel to the HostThread arrays (time order).
struct HostThreadFacts {
  std::vector<int32_t> group;  // dense group index, kNoGroup when none
  std::vector<uint8_t> flags;  // EventFlag bits
};

// Group ids as the model reports them (the file's group_id, or ours) <-> dense indices.
class GroupTable {
 public:
  int32_t Dense(int64_t group_id) {
    auto [it, inserted] = dense_.try_emplace(group_id, static_cast<int32_t>(ids_.size()));
    if (inserted) ids_.push_back(group_id);
    return it->second;
  }
  int32_t Find(int64_t group_id) const {
    auto it = dense_.find(group_id);
    return it == dense_.end() ? kNoGroup : it->second;
  }
  int64_t id(int32_t dense) const { return ids_[dense]; }
  int32_t size() const { return static_cast<int32_t>(ids_.size()); }

 private:
  std::unordered_map<int64_t, int32_t> dense_;
  std::vector<int64_t> ids_;
};

struct StepMarker {
  int32_t group = kNoGroup;  // dense
  int64_t begin_ps = 0;
  int64_t duration_ps = 0;
  bool on_device = false;
  std::string name;  // event name
  bool has_step_number = false;
  int64_t step_number = 0;
  std::string step_name;  // step_name stat, empty when absent
};

// A span contributing to a step's breakdown: an event (by its index over all planes, see
// EventIndexSpace) classified as an EventType, in a step group. 8 bytes, because there
// is one per kernel, copy and top-level host event.
class StepSpan {
 public:
  static constexpr uint32_t kTypeBits = 5;
  static constexpr uint32_t kMaxGroups = 1u << (32 - kTypeBits);
  // The group of a device event tied to no step (kept only where steps are windows of time).
  static constexpr int32_t kUntiedGroup = static_cast<int32_t>(kMaxGroups - 1);
  StepSpan() = default;
  StepSpan(int32_t group, EventType type, uint32_t global_event)
      : group_and_type_(static_cast<uint32_t>(group) << kTypeBits | static_cast<uint32_t>(type)),
        event_(global_event) {}
  int32_t group() const { return static_cast<int32_t>(group_and_type_ >> kTypeBits); }
  uint8_t type() const { return static_cast<uint8_t>(group_and_type_ & ((1u << kTypeBits) - 1)); }
  uint32_t global_event() const { return event_; }

 private:
  uint32_t group_and_type_ = 0;
  uint32_t event_ = 0;
};

// Numbers every event of the space with one uint32: plane p's events start at base(p).
class EventIndexSpace {
 public:
  explicit EventIndexSpace(const xspace::ColumnarXSpace& space) {
    uint64_t total = 0;
    for (const xspace::ColumnarPlane& plane : space.planes) {
      base_.push_back(static_cast<uint32_t>(total));
      total += plane.num_events();
    }
    fits_ = total < UINT32_MAX;
  }
  bool fits() const { return fits_; }  // false beyond 2^32 events in one XSpace
  uint32_t Global(uint32_t plane, uint32_t event) const { return base_[plane] + event; }
  // (plane, event) of a global index.
  std::pair<uint32_t, uint32_t> Local(uint32_t global) const {
    uint32_t plane = static_cast<uint32_t>(std::upper_bound(base_.begin(), base_.end(), global) - base_.begin() - 1);
    // Empty planes share a base with the next one; upper_bound already skipped them.
    return {plane, global - base_[plane]};
  }

 private:
  std::vector<uint32_t> base_;
  bool fits_ = true;
};

// A host op that launched device work, by name (a view into the columnar space's
// event metadata, which outlives the model build).
struct LaunchOp {
  std::string_view name;
  bool cpu_op_like = false;  // IsCpuOpLikeName(name): "aten::addmm", not "Optimizer.step#SGD.step"
};

// Values of HostAnalysis::correlation_to_group besides a plain dense group.
inline constexpr int32_t kLaunchWithoutGroup = -2;  // the launch exists but is in no group
inline constexpr int32_t kTiedByWindowBit = 1 << 30;  // the launch's group came from the step-window rule
static_assert(StepSpan::kMaxGroups <= static_cast<uint32_t>(kTiedByWindowBit));

struct HostAnalysis {
  std::vector<HostThread> threads;  // every line of every host plane
  std::vector<HostThreadFacts> facts;
  std::vector<StepMarker> markers;
  GroupTable groups;
  std::string step_source;  // "tf_grouped", "step_markers", "none"
  // Dense group of the host event that launched each correlation id, with
  // kTiedByWindowBit when the step-window rule gave it; kLaunchWithoutGroup for a launch
  // in no group.
  CorrelationMap correlation_to_group;
  // The framework op that launched each correlation id (PyTorch / Kineto: the innermost
  // record-function scope around the launch, cpu_op-like names preferred; docs/model.md
  // "Op metrics"), as an index into launch_ops. Empty when the file has no such scopes.
  CorrelationMap correlation_to_op;
  std::vector<LaunchOp> launch_ops;
  // Blocking runtime calls (IsHostSyncCallName) by (call, op around it), with each call's
  // span for counting the part in steps once steps exist.
  std::vector<HostSyncWait> sync_waits;
  std::vector<std::tuple<int64_t, int64_t, uint32_t>> sync_wait_spans;  // begin, end, index in sync_waits
  // The collective message (size, kind, ranks) of the innermost scope around each launch
  // that has one (PyTorch's record_param_comms / nccl:<collective>), as an index into
  // collective_messages. Empty when the file has none.
  CorrelationMap correlation_to_collective;
  std::vector<CollectiveMessage> collective_messages;
  // Launches (1 by correlation id) whose innermost typed scope's floating-point inputs are
  // all 16-bit (PyTorch's "Input type", input_precision.h): their kernels count as 16-bit
  // compute whatever their names say. Empty when the file records no input types.
  CorrelationMap launches_with_16bit_inputs;
  std::vector<std::string> diagnostics;
  // Set when the model is of one step (ModelOptions::step): the group id (as GroupTable::id
  // reports it) whose events alone count in ops, kernels, devices and input facts.
  std::optional<int64_t> only_group_id;
  // Whether an event of dense group `group` counts: always without only_group_id (then the
  // host threads' groups may already be freed: callers check only_group_id first).
  bool Counts(int32_t group) const {
    return !only_group_id || (group >= 0 && group < groups.size() && groups.id(group) == *only_group_id);
  }
};

struct DeviceAnalysis {
  std::vector<DeviceActivity> devices;
  std::vector<KernelStats> kernels;
  OpMetricsDb ops;
  std::vector<DeviceInputCopy> input_copies;  // H2D copies by op and copy name
  std::vector<StepMarker> markers;
  // Spans in generation order: one run per device stream / host thread, each run in time
  // order. run_starts holds the first span index of every run.
  xspace::PodArray<StepSpan> spans;
  std::vector<uint32_t> span_run_starts;
  std::vector<bool> group_on_device;  // by dense group
  // A model of one step, with steps as windows of time: where the other groups' device
  // work ends (by dense group, -1 for none), which the derived markers do not hold.
  std::vector<int64_t> group_device_end;
  DeviceStepTies ties;                // how each device event found its group, or why it did not
  HloKernelAccumulator hlo_kernels;   // kernel time by HLO instruction (XLA profiles)
  int64_t span_failures = 0;          // tied events left out of the breakdown (out of memory)
  // kernel_details records holding sizes no kernel can have (ParseKernelDetails), and the
  // first one's text, for the diagnostic.
  int64_t implausible_kernel_details = 0;
  std::string implausible_kernel_details_example;
};

}  // namespace stepscope::analysis::internal
