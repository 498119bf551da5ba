// Test helpers: ProfileModels written by hand with known numbers, so each tool's
// arithmetic is checked against values computed on paper (no XSpace involved).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis::tools_testing {

inline constexpr int64_t kPsPerMsInt = 1'000'000'000;
inline int64_t Ms(double ms) { return static_cast<int64_t>(ms * kPsPerMsInt); }

// A step of `duration_ms` starting at `begin_ms`; the listed types get their time and
// the rest of the step is kUnknownTime, so the breakdown sums to the duration.
inline StepInfo MakeStep(int64_t number, double begin_ms, double duration_ms,
                         std::initializer_list<std::pair<EventType, double>> parts) {
  StepInfo step;
  step.step_number = number;
  step.group_id = number;
  step.name = "train " + std::to_string(number);
  step.begin_ps = Ms(begin_ms);
  step.duration_ps = Ms(duration_ms);
  int64_t used = 0;
  for (const auto& [type, ms] : parts) {
    step.breakdown.type_ps[static_cast<int>(type)] += Ms(ms);
    used += Ms(ms);
  }
  step.breakdown.type_ps[static_cast<int>(EventType::kUnknownTime)] += step.duration_ps - used;
  return step;
}

inline OpMetrics MakeOp(std::string name, std::string type, OpCategory category, bool is_host, int64_t occurrences,
                        double total_ms, double self_ms) {
  OpMetrics op;
  op.name = std::move(name);
  op.type = std::move(type);
  op.category = category;
  op.is_host = is_host;
  op.occurrences = occurrences;
  op.total_time_ps = Ms(total_ms);
  op.self_time_ps = Ms(self_ms);
  op.min_time_ps = occurrences > 0 ? op.total_time_ps / occurrences : 0;
  op.max_time_ps = op.min_time_ps;
  return op;
}

// Sets total_self_time_ps to the sum of the ops' self time and total = self + idle.
inline void FinishDb(OpMetricsDb* db, double idle_ms) {
  db->total_self_time_ps = 0;
  for (const OpMetrics& op : db->ops) db->total_self_time_ps += op.self_time_ps;
  db->idle_time_ps = Ms(idle_ms);
  db->total_time_ps = db->total_self_time_ps + db->idle_time_ps;
}

inline KernelStats MakeKernel(std::string name, std::string op, int64_t occurrences, double total_us,
                              bool uses_tc = false, bool eligible = false) {
  KernelStats k;
  k.kernel_name = std::move(name);
  k.op_name = std::move(op);
  k.occurrences = occurrences;
  k.total_duration_ps = static_cast<int64_t>(total_us * 1e6);
  k.min_duration_ps = k.total_duration_ps / std::max<int64_t>(1, occurrences);
  k.max_duration_ps = k.min_duration_ps;
  k.is_kernel_using_tensor_core = uses_tc;
  k.is_op_tensor_core_eligible = eligible || uses_tc;
  return k;
}

// A model with one GPU device plane with activity.
inline DeviceActivity MakeGpu(int ordinal, double busy_ms) {
  DeviceActivity d;
  d.plane_name = "/device:GPU:" + std::to_string(ordinal);
  d.device_ordinal = ordinal;
  d.kernel_count = 1;
  d.busy_ps = Ms(busy_ms);
  d.last_end_ps = d.busy_ps;
  d.capabilities.vendor = "Nvidia";
  d.capabilities.compute_capability_major = 7;
  return d;
}

}  // namespace stepscope::analysis::tools_testing
