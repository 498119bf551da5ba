#include "src/analysis/model/op_placement.h"

#include <string_view>
#include <unordered_set>

#include "src/analysis/model/units.h"

namespace stepscope::analysis {

OpPlacement ComputeOpPlacement(const ProfileModel& model) {
  OpPlacement p;
  if (!model.has_device) {
    p.host_time_ms = PsToMs(model.host_ops.total_self_time_ps);
    p.host_percent = p.host_time_ms > 0 ? 100.0 : 0.0;
    return p;
  }
  std::unordered_set<std::string_view> device_op_names;
  for (const OpMetrics& op : model.device_ops.ops) device_op_names.insert(op.name);
  int64_t host_ps = 0;
  for (const OpMetrics& op : model.host_ops.ops) {
    const bool framework_op = op.category == OpCategory::kTensorFlow || op.category == OpCategory::kJax ||
                              op.category == OpCategory::kPyTorch;
    if (framework_op && !device_op_names.count(op.name)) host_ps += op.self_time_ps;
  }
  const int64_t device_ps = model.device_ops.total_self_time_ps;
  p.host_time_ms = PsToMs(host_ps);
  p.device_time_ms = PsToMs(device_ps);
  p.host_percent = Percent(host_ps, host_ps + device_ps);
  p.device_percent = Percent(device_ps, host_ps + device_ps);
  return p;
}

}  // namespace stepscope::analysis
