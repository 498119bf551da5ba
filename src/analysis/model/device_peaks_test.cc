#include "src/analysis/model/device_peaks.h"

#include <gtest/gtest.h>

namespace stepscope::analysis {
namespace {

TEST(DevicePeaksTest, ComputeRoofFromClockCoresAndComputeCapability) {
  DeviceCapabilities mi300x;
  mi300x.vendor = "AMD";
  mi300x.compute_capability_major = 9;
  mi300x.compute_capability_minor = 4;
  mi300x.clock_rate_khz = 2'100'000;
  mi300x.core_count = 304;
  mi300x.memory_bandwidth_bytes_per_s = 2'662'400'000'000;
  DevicePeaks peaks = PeaksOf(mi300x);
  // 2.1e9 cycles/s x 304 CUs x 2048 FLOP/cycle = 1.3074e15 (AMD's published 1307.4 TFLOP/s).
  EXPECT_DOUBLE_EQ(peaks.peak_flops_per_s, 2.1e9 * 304 * 2048);
  // ROCm's stat is half of HBM3's rate: 2 x 2.6624e12 = 5.3248e12 (published 5.3 TB/s).
  EXPECT_DOUBLE_EQ(peaks.memory_bandwidth_bytes_per_s, 5.3248e12);
  EXPECT_NE(peaks.bandwidth_source.find("x 2"), std::string::npos) << peaks.bandwidth_source;
  EXPECT_NE(peaks.flops_source.find("2048"), std::string::npos) << peaks.flops_source;
  EXPECT_DOUBLE_EQ(peaks.ridge_flops_per_byte(), 2.1e9 * 304 * 2048 / 5.3248e12);

  DeviceCapabilities h100;
  h100.vendor = "Nvidia";
  h100.compute_capability_major = 9;
  h100.compute_capability_minor = 0;
  h100.clock_rate_khz = 1'830'000;
  h100.core_count = 132;
  // 1.83e9 x 132 x 4096 = 989.4 TFLOP/s; no bandwidth stat and no name: unknown.
  EXPECT_DOUBLE_EQ(PeaksOf(h100).peak_flops_per_s, 1.83e9 * 132 * 4096);
  EXPECT_FALSE(PeaksOf(h100).known());
  // NVIDIA's stat is taken as it is.
  h100.memory_bandwidth_bytes_per_s = 3'352'320'000'000;
  EXPECT_DOUBLE_EQ(PeaksOf(h100).memory_bandwidth_bytes_per_s, 3.35232e12);
  EXPECT_EQ(PeaksOf(h100).bandwidth_source, "memory_bandwidth stat");
}

TEST(DevicePeaksTest, PublishedTableWhenThePlaneSaysTooLittle) {
  DeviceCapabilities named;
  named.device_name = "NVIDIA H100 80GB HBM3";
  DevicePeaks peaks = PeaksOf(named);
  EXPECT_DOUBLE_EQ(peaks.peak_flops_per_s, 989.4e12);
  EXPECT_DOUBLE_EQ(peaks.memory_bandwidth_bytes_per_s, 3.35e12);
  EXPECT_TRUE(peaks.known());
  EXPECT_EQ(peaks.bandwidth_source, "published bandwidth of H100");

  DeviceCapabilities mi300x;
  mi300x.device_name = "AMD Instinct MI300X";
  EXPECT_DOUBLE_EQ(PeaksOf(mi300x).peak_flops_per_s, 1307.4e12);
  EXPECT_DOUBLE_EQ(PeaksOf(mi300x).memory_bandwidth_bytes_per_s, 5.3e12);

  DeviceCapabilities unknown;
  unknown.device_name = "Some accelerator";
  EXPECT_FALSE(PeaksOf(unknown).known());
  EXPECT_DOUBLE_EQ(PeaksOf(unknown).ridge_flops_per_byte(), 0);
  EXPECT_FALSE(ModelDevicePeaks(ProfileModel{}).known());
}

}  // namespace
}  // namespace stepscope::analysis
