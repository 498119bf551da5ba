// Device peaks: the compute and memory-bandwidth roofs of a device, for FLOP utilisation,
// "bound by" verdicts and the roofline model.
//
// From the device plane's stats when they say enough, else from a table of published
// figures by device name (docs/tools.md "Device peaks" lists both):
//   - compute: clock_rate x core_count x the dense 16-bit (bf16/fp16) matrix FLOPs one core
//     (SM / CU) does per cycle, by vendor and compute capability: the roof ML training runs
//     against. fp32 and fp8 have other roofs; one roof per device keeps verdicts simple.
//   - bandwidth: the memory_bandwidth stat (bytes/s; doubled for AMD, whose ROCm planes
//     report half of HBM's rate), else the published figure.
#pragma once

#include <string>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

struct DevicePeaks {
  double peak_flops_per_s = 0;              // 0 when unknown
  double memory_bandwidth_bytes_per_s = 0;  // 0 when unknown
  // Where each number came from, in words ("clock_rate x core_count x 2048 FLOP/cycle
  // (AMD compute capability 9.4)", "memory_bandwidth stat", "published peak of MI300X").
  std::string flops_source;
  std::string bandwidth_source;
  bool known() const { return peak_flops_per_s > 0 && memory_bandwidth_bytes_per_s > 0; }
  // Arithmetic intensity (FLOP/byte) where the two roofs meet: ops below it are limited
  // by memory bandwidth at best, ops above it by compute.
  double ridge_flops_per_byte() const { return known() ? peak_flops_per_s / memory_bandwidth_bytes_per_s : 0; }
};

DevicePeaks PeaksOf(const DeviceCapabilities& capabilities);
// The peaks of the model's first device with activity (else its first device); unknown
// (zeros) for profiles without devices.
DevicePeaks ModelDevicePeaks(const ProfileModel& model);

}  // namespace stepscope::analysis
