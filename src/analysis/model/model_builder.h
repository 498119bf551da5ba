// Internal to BuildProfileModel: the intermediate results passed between its phases.
//
// Phases (build_profile_model.cc runs them in this order, each once per host):
//   1. host_analysis:   event trees, stats, step groups (the file's or ours), host markers,
//                       correlation id -> group.
//   2. device_analysis: device activity, kernels, device ops, device markers and spans.
//   3. step_breakdown:  steps from markers (XProf StepTime rule), host spans, sweep-line
//                       breakdown per step.
//   4. op_metrics:      host op table, input-pipeline facts.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/analysis/model/flat_map.h"
#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/columnar/pod_array.h"

namespace stepscope::analysis::internal {

inline constexpr int32_t kNoGroup = -1;

// Bits of HostThreadFacts::flags.
enum EventFlag : uint8_t {
  kHasCorrelation = 1,  // carries correlation_id (a kernel launch when a device exists)
  kIsEager = 2,
  kIsStepMarker = 4,     // explicit or implicit step marker (not an op, not a span)
  kIsInputStage = 8,     // `_ipl_stage_name`: a root input-pipeline stage
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

// A span contributing to a step's breakdown: an event (by plane and index into the
// columnar event columns) classified as `type`, in group `group`.
struct StepSpan {
  uint32_t group;
  uint32_t event;
  uint16_t plane;
  uint8_t type;  // EventType
  uint8_t unused = 0;
};

struct HostAnalysis {
  std::vector<HostThread> threads;  // every line of every host plane
  std::vector<HostThreadFacts> facts;
  std::vector<StepMarker> markers;
  GroupTable groups;
  std::string step_source;  // "tf_grouped", "step_markers", "none"
  // Dense group of the host event that launched each correlation id.
  FlatUint64Map correlation_to_group;
  std::vector<std::string> diagnostics;
};

struct DeviceAnalysis {
  std::vector<DeviceActivity> devices;
  std::vector<KernelStats> kernels;
  OpMetricsDb ops;
  std::vector<StepMarker> markers;
  xspace::PodArray<StepSpan> spans;
  std::vector<bool> group_on_device;  // by dense group
  int64_t unattributed_events = 0;    // device events with neither group_id nor a known launch
};

}  // namespace stepscope::analysis::internal
