// Summaries of a device plane's sampled counters (the `_counters_` line: one event per
// sample, named by the counter, with a numeric `value` stat), as stepscope's tracer writes
// NVML's readings (src/gpu/nvml_sampler.h): what TensorFlow's GPU guide reads from
// `nvidia-smi --query-gpu=utilization.gpu,... -l` logs.
#pragma once

#include <cstdint>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {

// Thresholds for DeviceCounterSummary::time_at_or_above_threshold_percent:
// sm_utilization_pct and memory_utilization_pct 80 (a busy GPU; the guide looks for low
// utilisation), memory_used_bytes 90 % of the device's memory (near out of memory, when the
// plane says its size), none for power and unknown counters.
inline constexpr double kBusyUtilizationPercent = 80.0;
inline constexpr double kNearFullMemoryFraction = 0.9;

// One summary per counter name on `line`, sorted by name; samples without a numeric
// `value` stat are skipped. `memory_size_bytes` (0 when unknown) sets memory_used_bytes'
// threshold.
std::vector<DeviceCounterSummary> SummarizeDeviceCounters(const xspace::ColumnarPlane& plane,
                                                          const xspace::ColumnarLine& line, int64_t memory_size_bytes);

}  // namespace stepscope::analysis
