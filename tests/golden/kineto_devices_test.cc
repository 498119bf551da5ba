// Every device type Kineto records (issue 32), through the model and the tools: the
// synthetic MTIA, XPU, Gaudi, PrivateUse1 and CUDA-records traces
// (src/importers/testing/kineto_generations.h) read as the accelerators they ran on. Device
// type, devices and their model names; each device op a kernel of the host launch with its
// correlation id and of the op around that launch; sync waits, CUDA events and profiler
// ranges not counted as device work; the overview names the devices by model and `diff`
// says when they changed.
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/diff.h"
#include "src/analysis/tools/overview_page.h"
#include "src/importers/importer_registry.h"
#include "src/importers/testing/kineto_generations.h"

namespace stepscope::golden {
namespace {

using ::testing::HasSubstr;
using analysis::ProfileModel;

ProfileModel Build(std::string_view generation) {
  xspace::XSpace space;
  importers::ImportStats stats;
  Status imported =
      importers::ImportTraceBytes(importers::testing::KinetoGenerationNamed(generation).json, {}, &space, &stats);
  EXPECT_TRUE(imported.ok()) << imported.ToString();
  StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

struct KernelTruth {
  std::string_view name;
  std::string_view op;  // the ATen op around its launch
};

struct DeviceTraceTruth {
  std::string_view generation;
  std::string_view device_type;
  int64_t devices;
  std::string_view device_name;
  std::vector<int64_t> busy_us;  // per device, by ordinal: its kernels and copies, nothing else
  std::vector<KernelTruth> kernels;
  int64_t device_events;  // kernels, copies: each tied to its step by its launch
};

// The truth of each trace, counted by hand from kineto_generations.cc.
const std::vector<DeviceTraceTruth>& AllTruths() {
  static const std::vector<DeviceTraceTruth> truths = {
      {"mtia", "MTIA", 2, "MTIA v2", {80, 30},
       {{"fused_linear_bf16", "aten::linear"}, {"relu_bf16", "aten::relu"}, {"dma_copy_d2d", "aten::copy_"}}, 3},
      {"xpu", "XPU", 1, "Intel(R) Data Center GPU Max 1550", {60}, {{"gemm_kernel", "aten::mm"}}, 2},
      {"gaudi", "HPU", 1, "GAUDI2", {140}, {{"matmul_fwd_bf16", "aten::matmul"}, {"add_fwd_bf16", "aten::add"}}, 2},
      {"privateuse1", "PrivateUse1", 1, "Example NPU X1", {38}, {{"add_kernel", "aten::add"}}, 2},
      // Stream Sync 118 us, Event Sync 20 us, Context Sync 12 us, a CUDA event and a
      // 150 us profiler range are on the device too: none of it is busy time.
      {"cuda_sync", "GPU", 1, "A100-PG509-200", {50}, {{"mul_kernel", "aten::mul"}}, 1},
  };
  return truths;
}

const analysis::KernelStats* FindKernel(const ProfileModel& model, std::string_view name) {
  for (const analysis::KernelStats& k : model.kernels) {
    if (k.kernel_name == name) return &k;
  }
  return nullptr;
}

class KinetoDeviceTraceTest : public ::testing::TestWithParam<DeviceTraceTruth> {};

TEST_P(KinetoDeviceTraceTest, DevicesKernelsAndLaunches) {
  const DeviceTraceTruth& truth = GetParam();
  const ProfileModel model = Build(truth.generation);
  const analysis::RunEnvironment& run = model.run_environment;
  EXPECT_EQ(run.device_type, truth.device_type);
  EXPECT_EQ(run.device_count, truth.devices);
  EXPECT_EQ(run.active_device_count, truth.devices);
  EXPECT_TRUE(model.has_device);
  ASSERT_EQ(model.devices.size(), truth.busy_us.size());
  for (size_t i = 0; i < model.devices.size(); ++i) {
    const analysis::DeviceActivity& device = model.devices[i];
    EXPECT_EQ(device.capabilities.device_name, truth.device_name) << device.plane_name;
    EXPECT_EQ(device.capabilities.device_type, truth.device_type) << device.plane_name;
    EXPECT_EQ(device.busy_ps, truth.busy_us[i] * 1'000'000) << device.plane_name;
    for (const analysis::StreamActivity& stream : device.streams) {
      EXPECT_THAT(stream.name, ::testing::Not(HasSubstr("(sync)"))) << device.plane_name;
      EXPECT_NE(stream.name, xspace::kProfilerRangesLineName) << device.plane_name;
    }
  }

  // Kernel stats list every device op but copies, each tied to the op that launched it.
  ASSERT_EQ(model.kernels.size(), truth.kernels.size());
  for (const KernelTruth& kernel : truth.kernels) {
    const analysis::KernelStats* k = FindKernel(model, kernel.name);
    ASSERT_NE(k, nullptr) << kernel.name;
    EXPECT_EQ(k->op_name, kernel.op) << kernel.name;
    EXPECT_EQ(k->occurrences, 1) << kernel.name;
  }
  StatusOr<std::unique_ptr<analysis::ToolResult>> kernel_stats = analysis::RunTool("kernel_stats", model);
  ASSERT_TRUE(kernel_stats.ok()) << kernel_stats.status().ToString();
  const std::string kernel_json = (*kernel_stats)->ToJson(/*pretty=*/false);
  for (const KernelTruth& kernel : truth.kernels) EXPECT_THAT(kernel_json, HasSubstr(std::string(kernel.name)));
  // Tensor Cores are NVIDIA's: not a question on other accelerators.
  if (truth.device_type != "GPU") {
    EXPECT_THAT(kernel_json, HasSubstr("\"tensor_cores_apply\":false"));
  }

  // Every device event is tied to the step through its host launch (correlation id).
  ASSERT_EQ(model.steps.size(), 1u);
  EXPECT_EQ(model.device_step_ties.by_launch, truth.device_events);
  EXPECT_EQ(model.device_step_ties.untied(), 0);

  // The overview names the devices.
  StatusOr<std::unique_ptr<analysis::ToolResult>> overview = analysis::RunTool("overview_page", model);
  ASSERT_TRUE(overview.ok()) << overview.status().ToString();
  const std::string text = (*overview)->FormatText({});
  const std::string models = std::to_string(truth.devices) + "\u00d7 " + std::string(truth.device_name);
  EXPECT_THAT(text, ::testing::ContainsRegex("Device type: +" + std::string(truth.device_type) + "\n"));
  EXPECT_THAT(text, HasSubstr(std::to_string(truth.devices) + " active of " + std::to_string(truth.devices) + " (" +
                              models + ")"));
  EXPECT_THAT((*overview)->ToJson(/*pretty=*/false), HasSubstr("\"device_type\":\"" + std::string(truth.device_type) + "\""));

  // For the closing note: what each synthetic trace shows.
  std::cout << "trace " << truth.generation << ": device type " << run.device_type << ", devices " << models
            << ", kernels";
  for (const analysis::KernelStats& k : model.kernels) std::cout << " " << k.kernel_name << " (" << k.op_name << ")";
  std::cout << "; device events tied by launch " << model.device_step_ties.by_launch << ", untied "
            << model.device_step_ties.untied() << "\n";
}

INSTANTIATE_TEST_SUITE_P(DeviceTraces, KinetoDeviceTraceTest, ::testing::ValuesIn(AllTruths()),
                         [](const ::testing::TestParamInfo<DeviceTraceTruth>& info) {
                           return std::string(info.param.generation);
                         });

// diff of a CUDA run and an MTIA run says the devices changed, in text and JSON; a run
// against itself says they did not.
TEST(KinetoDevicesDiffTest, DiffSaysWhenTheDevicesChanged) {
  const ProfileModel cuda = Build("pytorch_1_12");
  const ProfileModel mtia = Build("mtia");
  const analysis::ProfileDiff d = analysis::CompareProfiles(cuda, mtia);
  EXPECT_EQ(d.device_change, "1\u00d7 NVIDIA A100-SXM4-40GB \u2192 2\u00d7 MTIA v2");
  EXPECT_EQ(d.a.device_type, "GPU");
  EXPECT_EQ(d.b.device_type, "MTIA");
  analysis::StructToolResult<analysis::ProfileDiff> result(d);
  EXPECT_THAT(result.FormatText({}), HasSubstr("Devices changed: 1\u00d7 NVIDIA A100-SXM4-40GB \u2192 2\u00d7 MTIA v2"));
  const std::string json = result.ToJson(/*pretty=*/false);
  EXPECT_THAT(json, HasSubstr("\"device_change\":\"1\u00d7 NVIDIA A100-SXM4-40GB \u2192 2\u00d7 MTIA v2\""));
  EXPECT_THAT(json, HasSubstr("\"devices\":[{\"name\":\"MTIA v2\",\"device_type\":\"MTIA\",\"count\":2}]"));
  EXPECT_EQ(analysis::CompareProfiles(mtia, mtia).device_change, "");
}

}  // namespace
}  // namespace stepscope::golden
