// Every XSpace in shared/testdata/xplane/ through every applicable tool, with sanity
// checks on what is known about each file (shared/testdata/xplane/README.md).
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/analysis/tools/kernel_stats.h"

namespace stepscope::golden {
namespace {

namespace fs = std::filesystem;
using analysis::ProfileModel;

std::string XPlaneDir() { return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane"; }

std::vector<std::string> XSpaceFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(XPlaneDir(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".xplane.pb") || name.ends_with(".xplane.pb.gz")) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

ProfileModel Load(const std::string& file) {
  auto model = analysis::BuildProfileModelFromFile(XPlaneDir() + "/" + file);
  EXPECT_TRUE(model.ok()) << file << ": " << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

TEST(RealProfilesTest, EveryFileThroughEveryApplicableTool) {
  const std::vector<std::string> files = XSpaceFiles();
  ASSERT_GE(files.size(), 3u) << "expected the TF GPU and two JAX MI300 files in " << XPlaneDir();
  simdjson::dom::parser parser;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto model = analysis::BuildProfileModelFromFile(path);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    std::vector<const analysis::Tool*> tools = analysis::AvailableTools(*model);
    ASSERT_GE(tools.size(), 4u);
    for (const analysis::Tool* tool : tools) {
      SCOPED_TRACE(tool->id());
      for (bool include_idle : {false, true}) {
        analysis::ToolOptions options;
        options.include_idle = include_idle;
        auto result = tool->Run(*model, options);
        ASSERT_TRUE(result.ok()) << result.status().ToString();
        const std::string json = (*result)->ToJson(/*pretty=*/false);
        auto doc = parser.parse(json);
        ASSERT_FALSE(doc.error()) << simdjson::error_message(doc.error());
        std::string_view id;
        ASSERT_FALSE(doc["tool"].get(id));
        EXPECT_EQ(id, tool->id());
        EXPECT_FALSE((*result)->FormatText(options).empty());
        for (const std::string& table : (*result)->TableNames()) {
          EXPECT_TRUE((*result)->TableCsv(table).ok()) << table;
        }
      }
    }
  }
}

TEST(RealProfilesTest, TensorFlowGpuFileHasStepsDeviceComputeAndV100Kernels) {
  ProfileModel model = Load("tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb");
  analysis::StepTimeSummary summary = analysis::SummarizeSteps(model);
  EXPECT_GT(summary.step_count, 0);
  EXPECT_GT(summary.avg_step_time_ms, 0);
  EXPECT_GT(summary.avg_category_ms[static_cast<int>(analysis::TimeCategory::kDeviceCompute)], 0);
  ASSERT_TRUE(analysis::HasGpuPlane(model));
  analysis::KernelStatsResult kernels = analysis::ComputeKernelStats(model);
  ASSERT_FALSE(kernels.kernels.empty());
  // The file is from V100s (compute capability 7.0, 80 SMs; shared/testdata/xplane/README.md)
  // recorded while BERT initialised its weights: Eigen and Philox random kernels.
  int v100_planes = 0;
  for (const analysis::DeviceActivity& d : model.devices) {
    if (d.has_activity()) {
      v100_planes += d.capabilities.compute_capability_major == 7 && d.capabilities.core_count == 80;
    }
  }
  EXPECT_GT(v100_planes, 0);
  int eigen = 0;
  for (const analysis::KernelRow& k : kernels.kernels) eigen += k.kernel_name.find("Eigen::") != std::string::npos;
  EXPECT_GT(eigen, 0);
  EXPECT_GT(kernels.summary.launches, 1000);
  for (size_t i = 1; i < kernels.kernels.size(); ++i) {
    EXPECT_GE(kernels.kernels[i - 1].total_duration_us, kernels.kernels[i].total_duration_us);
  }
  EXPECT_LE(kernels.kernels.size(), 1000u);  // the max_kernels default
}

TEST(RealProfilesTest, JaxMi300FilesHaveKernels) {
  for (const char* file : {"tracelens_jax_mi300_te_fused_attn.xplane.pb", "tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb"}) {
    SCOPED_TRACE(file);
    ProfileModel model = Load(file);
    ASSERT_TRUE(analysis::HasGpuPlane(model));
    analysis::KernelStatsResult kernels = analysis::ComputeKernelStats(model);
    EXPECT_FALSE(kernels.kernels.empty());
    EXPECT_GT(kernels.summary.launches, 0);
    EXPECT_GT(kernels.summary.total_time_ms, 0);
    // AMD GPUs: NVIDIA's Tensor Core numbers do not apply (hidden, not shown as 0).
    EXPECT_FALSE(kernels.summary.tensor_cores_apply);
    EXPECT_EQ(kernels.summary.tensor_core_time_percent, 0);
  }
}

}  // namespace
}  // namespace stepscope::golden
