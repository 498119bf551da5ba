#include "src/analysis/model/launch_threads.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/model/model_test_util.h"
#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/link_bandwidth.h"

namespace stepscope::analysis {
namespace {

using testing::TestSpace;

// Two 10 ms steps grouped by TF (group_id). Each step: a 2 ms kernel launch on
// `launcher`, while a tf.data thread is busy for 5 ms from the step's start, and a 1 ms
// kernel on GPU:0. Launch time is 20 % of each step; the launches overlap input work all
// of their 2 ms.
xspace::XSpace LaunchesBesideTfData(std::string_view launcher) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  auto launch = t.HostLine(2, launcher);
  auto input = t.HostLine(3, "tf_data_private_threadpool");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  for (int s = 0; s < 2; ++s) {
    const double base = 10.0 * s;
    const int64_t group = s + 1;
    t.Event(main, "train", base, base + 10, {{"group_id", group}, {"step_num", group}});
    t.Event(launch, "cudaLaunchKernel", base + 1, base + 3, {{"group_id", group}, {"correlation_id", 100 + s}});
    t.Event(input, "Iterator::Map", base, base + 5);
    t.Event(stream, "volta_sgemm_128x64_nn", base + 3, base + 4, {{"group_id", group}, {"correlation_id", 100 + s}});
  }
  return t.space;
}

const CheckOutcome* FindCheck(const AdvisorReport& report, std::string_view id) {
  for (const CheckOutcome& c : report.checks) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

TEST(LaunchThreadsTest, LaunchesOverlappingTfDataThreadsAskForGpuPrivateThreads) {
  ProfileModel model = testing::BuildModelOrFail(LaunchesBesideTfData("tf_Compute/2"));
  LaunchThreadCompetition c = model.launch_threads;
  ASSERT_TRUE(c.measured);
  EXPECT_EQ(c.launch_threads, 1);
  EXPECT_EQ(c.launches, 2);
  EXPECT_EQ(c.input_threads, 1);
  EXPECT_EQ(c.gpu_private_threads, 0);
  EXPECT_NEAR(c.launch_busy_ms, 4, 1e-9);
  EXPECT_NEAR(c.input_busy_ms, 10, 1e-9);
  EXPECT_NEAR(c.overlap_ms, 4, 1e-9);
  EXPECT_NEAR(c.overlap_percent, 100, 1e-9);

  AdvisorReport report = ComputeAdvice(model);
  const CheckOutcome* check = FindCheck(report, "gpu_thread_mode");
  ASSERT_NE(check, nullptr);
  EXPECT_TRUE(check->fired) << check->detail;
  bool found = false;
  for (const Finding& f : report.findings) {
    if (f.id != "gpu_thread_mode") continue;
    found = true;
    EXPECT_THAT(f.advice, ::testing::HasSubstr("TF_GPU_THREAD_MODE=gpu_private"));
    EXPECT_EQ(f.severity, Severity::kHigh) << "kernel launch is 20 % of the step";
  }
  EXPECT_TRUE(found);
}

TEST(LaunchThreadsTest, GpuPrivateThreadsOrNoTfDataKeepTheCheckQuiet) {
  ProfileModel private_threads = testing::BuildModelOrFail(LaunchesBesideTfData("tf_gpu_private_0/2"));
  EXPECT_EQ(private_threads.launch_threads.gpu_private_threads, 1);
  const AdvisorReport report = ComputeAdvice(private_threads);
  const CheckOutcome* check = FindCheck(report, "gpu_thread_mode");
  ASSERT_NE(check, nullptr);
  EXPECT_FALSE(check->fired);
  EXPECT_THAT(check->detail, ::testing::HasSubstr("tf_gpu_private"));

  ProfileModel empty;
  EXPECT_FALSE(empty.launch_threads.measured);
}

TEST(LinkBandwidthTest, NvlinkByGenerationPcieOtherwise) {
  DeviceCapabilities h100;
  h100.device_name = "NVIDIA H100 80GB HBM3";
  h100.compute_capability_major = 9;
  EXPECT_EQ(LinkBandwidthOf(h100).gb_per_s, 450);
  DeviceCapabilities h100_pcie = h100;
  h100_pcie.device_name = "NVIDIA H100 PCIe";
  EXPECT_EQ(LinkBandwidthOf(h100_pcie).gb_per_s, 64);
  DeviceCapabilities v100;
  v100.device_name = "Tesla V100-SXM2-32GB";
  v100.compute_capability_major = 7;
  EXPECT_EQ(LinkBandwidthOf(v100).gb_per_s, 150);
  DeviceCapabilities a100_no_cc;
  a100_no_cc.device_name = "NVIDIA A100-SXM4-40GB";
  EXPECT_EQ(LinkBandwidthOf(a100_no_cc).gb_per_s, 300);
  DeviceCapabilities rtx;
  rtx.device_name = "NVIDIA GeForce RTX 4090";
  rtx.compute_capability_major = 8;
  rtx.compute_capability_minor = 9;
  EXPECT_EQ(LinkBandwidthOf(rtx).gb_per_s, 32);
  EXPECT_EQ(LinkBandwidthOf(DeviceCapabilities{}).gb_per_s, 0) << "nothing known";
}

}  // namespace
}  // namespace stepscope::analysis
