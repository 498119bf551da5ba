// Numbers about all GPU kernels of a profile: launches, median duration, tiny kernels,
// Tensor Core use. Derived once per model (derivations.h: KernelSummaryOf) and read by
// kernel_stats and the advisor.
#pragma once

#include <cstdint>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// A kernel whose average run is shorter than this does less work than its launch costs
// on current GPUs (a launch takes ~5-10 us of host and driver time), so many of them
// make a step launch bound.
inline constexpr double kTinyKernelThresholdUs = 10.0;

// Numbers about all kernels of the profile (not only the listed ones). The advisor
// uses these for launch-bound, tiny-kernel and Tensor Core findings.
struct KernelSummary {
  // Distinct kernel names. A kernel that ran for two ops, or with two launch
  // configurations, counts once here and twice in kernel_op_groups.
  int64_t distinct_kernel_names = 0;
  int64_t kernel_op_groups = 0;  // rows of the kernel table: (kernel, op, launch parameters)
  int64_t launches = 0;
  double total_time_ms = 0;
  // Median kernel duration over launches, taking each group's average for its launches
  // (the model keeps per-group totals, not every duration).
  double median_duration_us = 0;
  int64_t tiny_launches = 0;  // launches of groups averaging < kTinyKernelThresholdUs
  double tiny_launch_percent = 0;
  // False when no GPU of the profile can have Tensor Cores (AMD, or NVIDIA before Volta):
  // the Tensor Core numbers below then do not apply and are not shown (not shown as 0).
  bool tensor_cores_apply = true;
  double tensor_core_time_percent = 0;  // time in kernels that use Tensor Cores
  // Time in kernels of Tensor-Core-eligible ops that do not use them.
  double eligible_without_tensor_core_time_ms = 0;
  double eligible_without_tensor_core_percent = 0;
  int64_t eligible_without_tensor_core_kernels = 0;
  // Kernel time in three parts that sum to total_time_ms (TensorBoard's Tensor Core pie):
  // kernels using Tensor Cores, kernels of eligible ops not using them, the rest.
  double tensor_core_time_ms = 0;
  double not_eligible_time_ms = 0;
};
// Tools read the cached one: KernelSummaryOf(model).
KernelSummary SummarizeKernels(const ProfileModel& model);
// Whether the active GPUs may have Tensor Cores: the kernel-name patterns name NVIDIA
// kernels, and NVIDIA's Tensor Cores start with compute capability 7 (Volta). Not on other
// accelerators (a device_type other than GPU).
bool GpusMayHaveTensorCores(const ProfileModel& model);

}  // namespace stepscope::analysis
