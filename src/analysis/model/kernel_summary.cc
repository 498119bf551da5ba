#include "src/analysis/model/kernel_summary.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "src/analysis/model/units.h"

namespace stepscope::analysis {

bool GpusMayHaveTensorCores(const ProfileModel& model) {
  for (const DeviceActivity& d : model.devices) {
    if (!d.has_activity()) continue;
    if (d.capabilities.vendor == "AMD") return false;
    // MTIA, XPU, Gaudi, PrivateUse1 devices: the patterns name NVIDIA kernels.
    if (!d.capabilities.device_type.empty() && d.capabilities.device_type != "GPU") return false;
    if (d.capabilities.compute_capability_major > 0 && d.capabilities.compute_capability_major < 7) return false;
  }
  return true;
}

KernelSummary SummarizeKernels(const ProfileModel& model) {
  KernelSummary s;
  s.tensor_cores_apply = GpusMayHaveTensorCores(model);
  int64_t total_ps = 0, tensor_core_ps = 0, eligible_without_ps = 0;
  std::vector<std::pair<int64_t, int64_t>> avg_and_count;  // (avg ps, launches)
  std::unordered_set<std::string_view> names;
  for (const KernelStats& k : model.kernels) {
    s.kernel_op_groups += 1;
    names.insert(k.kernel_name);
    s.launches += k.occurrences;
    total_ps += k.total_duration_ps;
    if (k.is_kernel_using_tensor_core) tensor_core_ps += k.total_duration_ps;
    if (k.is_op_tensor_core_eligible && !k.is_kernel_using_tensor_core) {
      eligible_without_ps += k.total_duration_ps;
      s.eligible_without_tensor_core_kernels += 1;
    }
    if (k.occurrences > 0) {
      const int64_t avg_ps = k.total_duration_ps / k.occurrences;
      avg_and_count.emplace_back(avg_ps, k.occurrences);
      if (PsToUs(avg_ps) < kTinyKernelThresholdUs) s.tiny_launches += k.occurrences;
    }
  }
  s.distinct_kernel_names = static_cast<int64_t>(names.size());
  s.total_time_ms = PsToMs(total_ps);
  s.tensor_core_time_percent = Percent(tensor_core_ps, total_ps);
  s.tensor_core_time_ms = PsToMs(tensor_core_ps);
  s.not_eligible_time_ms = PsToMs(total_ps - tensor_core_ps - eligible_without_ps);
  s.eligible_without_tensor_core_time_ms = PsToMs(eligible_without_ps);
  s.eligible_without_tensor_core_percent = Percent(eligible_without_ps, total_ps);
  s.tiny_launch_percent = Percent(s.tiny_launches, s.launches);
  // Weighted median: the duration below which half of all launches fall.
  std::sort(avg_and_count.begin(), avg_and_count.end());
  int64_t seen = 0;
  for (const auto& [avg_ps, count] : avg_and_count) {
    seen += count;
    if (2 * seen >= s.launches) {
      s.median_duration_us = PsToUs(avg_ps);
      break;
    }
  }
  return s;
}

}  // namespace stepscope::analysis
