#include "src/analysis/model/device_peaks.h"

#include <string>
#include <string_view>

#include "src/base/ascii.h"

namespace stepscope::analysis {
namespace {

// Dense 16-bit matrix FLOPs per core per cycle. The products with each generation's
// published clock and core count give its published peak (e.g. MI300X: 304 CUs x 2.1 GHz
// x 2048 = 1307 TFLOP/s; H100 SXM: 132 SMs x 1.83 GHz x 4096 = 989 TFLOP/s).
struct FlopsPerCycle {
  std::string_view vendor;  // lower case, as a prefix of the device_vendor stat
  int major;
  int minor;  // -1: any
  double flops_per_core_per_cycle;
  std::string_view generation;
};
constexpr FlopsPerCycle kFlopsPerCycle[] = {
    {"nvidia", 7, 0, 1024, "Volta"},          {"nvidia", 7, 2, 1024, "Volta (Xavier)"},
    {"nvidia", 7, 5, 1024, "Turing"},         {"nvidia", 8, 0, 2048, "Ampere (A100)"},
    {"nvidia", 8, 6, 1024, "Ampere (GA10x)"}, {"nvidia", 8, 7, 1024, "Ampere (Orin)"},
    {"nvidia", 8, 9, 1024, "Ada"},            {"nvidia", 9, 0, 4096, "Hopper"},
    {"nvidia", 10, -1, 8192, "Blackwell"},
    {"amd", 9, 0, 1024, "CDNA2 (MI200)"},     {"amd", 9, 4, 2048, "CDNA3 (MI300)"},
    {"amd", 9, 5, 4096, "CDNA4 (MI350)"},
};

// Published dense bf16/fp16 peaks and memory bandwidths, for planes without the stats.
struct PublishedPeak {
  std::string_view name;  // matched case-insensitively inside gpu_device_name
  double flops_per_s;
  double bandwidth_bytes_per_s;
};
constexpr PublishedPeak kPublished[] = {
    {"MI355X", 2516.6e12, 8.0e12}, {"MI300X", 1307.4e12, 5.3e12}, {"MI250X", 383.0e12, 3.2768e12},
    {"H200", 989.4e12, 4.8e12},    {"H100", 989.4e12, 3.35e12},   {"A100", 312.0e12, 2.039e12},
    {"V100", 125.0e12, 0.9e12},
};

const FlopsPerCycle* FindFlopsPerCycle(const DeviceCapabilities& caps) {
  const std::string vendor = base::AsciiLowerCopy(caps.vendor);
  for (const FlopsPerCycle& entry : kFlopsPerCycle) {
    if (!vendor.starts_with(entry.vendor) || entry.major != caps.compute_capability_major) continue;
    if (entry.minor >= 0 && entry.minor != caps.compute_capability_minor) continue;
    return &entry;
  }
  return nullptr;
}

const PublishedPeak* FindPublished(const DeviceCapabilities& caps) {
  for (const PublishedPeak& entry : kPublished) {
    if (base::AsciiContainsIgnoreCase(caps.device_name, entry.name)) return &entry;
  }
  return nullptr;
}

std::string FormatCount(double v) { return std::to_string(static_cast<int64_t>(v)); }

}  // namespace

DevicePeaks PeaksOf(const DeviceCapabilities& caps) {
  DevicePeaks peaks;
  const PublishedPeak* published = FindPublished(caps);
  const FlopsPerCycle* per_cycle = FindFlopsPerCycle(caps);
  if (per_cycle != nullptr && caps.clock_rate_khz > 0 && caps.core_count > 0) {
    peaks.peak_flops_per_s = static_cast<double>(caps.clock_rate_khz) * 1e3 * static_cast<double>(caps.core_count) *
                             per_cycle->flops_per_core_per_cycle;
    peaks.flops_source = "clock_rate x core_count x " + FormatCount(per_cycle->flops_per_core_per_cycle) +
                         " FLOP/cycle (" + std::string(per_cycle->generation) + ", dense bf16/fp16)";
  } else if (published != nullptr) {
    peaks.peak_flops_per_s = published->flops_per_s;
    peaks.flops_source = "published dense bf16/fp16 peak of " + std::string(published->name);
  }
  if (caps.memory_bandwidth_bytes_per_s > 0 && base::AsciiLowerCopy(caps.vendor).starts_with("amd")) {
    // ROCm's profiler derives the stat from HBM's memory clock without its second data
    // edge: MI300X planes say 2.66 TB/s (published 5.3), MI355X planes 4.10 (published 8.0).
    // Taken as given, ops show over 100 % of the bandwidth roof.
    peaks.memory_bandwidth_bytes_per_s = 2.0 * static_cast<double>(caps.memory_bandwidth_bytes_per_s);
    peaks.bandwidth_source = "memory_bandwidth stat x 2 (ROCm reports half of HBM's rate)";
  } else if (caps.memory_bandwidth_bytes_per_s > 0) {
    peaks.memory_bandwidth_bytes_per_s = static_cast<double>(caps.memory_bandwidth_bytes_per_s);
    peaks.bandwidth_source = "memory_bandwidth stat";
  } else if (published != nullptr) {
    peaks.memory_bandwidth_bytes_per_s = published->bandwidth_bytes_per_s;
    peaks.bandwidth_source = "published bandwidth of " + std::string(published->name);
  }
  return peaks;
}

DevicePeaks ModelDevicePeaks(const ProfileModel& model) {
  for (const DeviceActivity& device : model.devices) {
    if (device.has_activity()) return PeaksOf(device.capabilities);
  }
  return model.devices.empty() ? DevicePeaks{} : PeaksOf(model.devices.front().capabilities);
}

}  // namespace stepscope::analysis
