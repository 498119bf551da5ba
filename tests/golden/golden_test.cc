// Golden tests: every tool's JSON for the synthetic scenarios (scenarios.h), compared with
// tests/golden/<tool>/<case>.json. STEPSCOPE_UPDATE_GOLDEN=1 rewrites the files; the
// targeted assertions below pin the key numbers independently of the files, so a wrong
// number cannot be "blessed" by regenerating.
#include <functional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <cmath>

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/framework_op_stats.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/analysis/tools/kernel_stats.h"
#include "src/analysis/tools/overview_page.h"
#include "tests/golden/golden_file.h"
#include "tests/golden/scenarios.h"

namespace stepscope::golden {
namespace {

using analysis::ProfileModel;
using ::testing::HasSubstr;

struct Case {
  const char* name;
  std::function<xspace::XSpace()> make;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {{"cpu_input_bound", CpuInputBoundSpace},
                                          {"gpu_host_device", GpuHostDeviceSpace},
                                          {"multi_thread", MultiThreadSpace}};
  return cases;
}

ProfileModel Build(const xspace::XSpace& space) {
  auto model = analysis::BuildProfileModelFromXSpace(space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

const analysis::Finding* FindFinding(const std::vector<analysis::Finding>& findings, std::string_view id) {
  for (const auto& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

const analysis::OpStatsRow* FindOp(const std::vector<analysis::OpStatsRow>& rows, std::string_view name) {
  for (const auto& r : rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// The tools these scenarios are for (other tools keep their own golden tests).
constexpr const char* kTools[] = {"overview_page", "input_pipeline_analyzer", "framework_op_stats", "kernel_stats",
                                  "advisor"};

TEST(GoldenTest, EveryToolMatchesItsGoldenFiles) {
  for (const Case& c : Cases()) {
    ProfileModel model = Build(c.make());
    for (const char* id : kTools) {
      const analysis::Tool* tool = analysis::FindTool(id).value();
      if (!tool->IsAvailable(model)) continue;
      SCOPED_TRACE(std::string(tool->id()) + "/" + c.name);
      auto result = tool->Run(model, {});
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      const std::string failure =
          CheckGolden(std::string(tool->id()) + "/" + c.name + ".json", (*result)->ToJson(/*pretty=*/true));
      EXPECT_EQ(failure, "");
    }
  }
}

TEST(GoldenTest, KernelStatsOnlyForTheGpuCase) {
  for (const Case& c : Cases()) {
    ProfileModel model = Build(c.make());
    EXPECT_EQ(analysis::FindTool("kernel_stats").value()->IsAvailable(model), std::string(c.name) == "gpu_host_device")
        << c.name;
  }
}

TEST(GoldenTest, CpuInputBoundKeyNumbers) {
  ProfileModel model = Build(CpuInputBoundSpace());
  analysis::InputPipelineAnalysis input = analysis::ComputeInputPipelineAnalysis(model);
  EXPECT_EQ(input.summary.step_count, 6);
  // Markers of 10 ms every 11 ms: each step lasts until the next one starts (11 ms), the
  // last one until its marker ends (10 ms).
  EXPECT_NEAR(input.summary.avg_step_time_ms, (5 * 11.0 + 10) / 6, 1e-9);
  EXPECT_NEAR(input.summary.input_percent, 100.0 * 6 * 6 / (5 * 11.0 + 10), 1e-9);
  EXPECT_EQ(input.summary.verdict, analysis::InputBoundVerdict::kHighly);
  const double mean = (5 * 11.0 + 10) / 6;
  EXPECT_NEAR(input.summary.step_time_ms.stddev,
              std::sqrt((5 * (11 - mean) * (11 - mean) + (10 - mean) * (10 - mean)) / 6), 1e-9);
  EXPECT_NEAR(input.summary.input_time_ms.mean, 6.0, 1e-9);
  EXPECT_NEAR(input.host_breakdown_ms[2], 24.0, 1e-9);  // preprocessing: Map self 4 ms x 6
  EXPECT_NEAR(input.host_breakdown_ms[1], 6.0, 1e-9);   // advanced file read: TFRecord 1 ms x 6
  ASSERT_EQ(input.input_ops.size(), 2u);
  EXPECT_EQ(input.input_ops[0].name, "Iterator::Prefetch::Map");
  EXPECT_EQ(input.input_ops[0].count, 6);
  EXPECT_NEAR(input.input_ops[0].total_time_ms, 30.0, 1e-9);
  EXPECT_NEAR(input.input_ops[0].self_time_ms, 24.0, 1e-9);
  analysis::AdvisorReport advice = analysis::ComputeAdvice(model);
  ASSERT_FALSE(advice.findings.empty());
  EXPECT_EQ(advice.findings[0].id, "input_bound");
  EXPECT_EQ(FindFinding(advice.findings, "launch_bound"), nullptr);  // no device
  // 5 gaps of 1 ms in 65 ms: 7.7 % < 10 %: no step-gap finding.
  EXPECT_EQ(FindFinding(advice.findings, "step_gaps"), nullptr);
}

TEST(GoldenTest, GpuHostDeviceKeyNumbers) {
  ProfileModel model = Build(GpuHostDeviceSpace());
  analysis::OverviewPage page = analysis::ComputeOverviewPage(model);
  const analysis::StepTimeSummary& s = page.summary;
  EXPECT_EQ(s.step_count, 4);
  EXPECT_NEAR(s.avg_step_time_ms, 10.0, 1e-9);
  auto avg = [&](analysis::TimeCategory c) { return s.avg_category_ms[static_cast<int>(c)]; };
  EXPECT_NEAR(avg(analysis::TimeCategory::kInput), 1.5, 1e-9);
  EXPECT_NEAR(avg(analysis::TimeCategory::kKernelLaunch), 2.0, 1e-9);
  EXPECT_NEAR(avg(analysis::TimeCategory::kDeviceCompute), 5.0, 1e-9);
  EXPECT_NEAR(avg(analysis::TimeCategory::kOutput), 1.0, 1e-9);
  EXPECT_NEAR(avg(analysis::TimeCategory::kOther), 0.5, 1e-9);
  EXPECT_NEAR(avg(analysis::TimeCategory::kHostCompute), 0.0, 1e-9);
  EXPECT_NEAR(s.input_percent, 15.0, 1e-9);
  EXPECT_EQ(s.verdict, analysis::InputBoundVerdict::kModerately);
  ASSERT_TRUE(s.device_compute_16bit_percent.has_value());
  EXPECT_NEAR(*s.device_compute_16bit_percent, 60.0, 1e-9);
  EXPECT_EQ(page.run_environment.device_type, "GPU");
  EXPECT_EQ(page.device_compute_units, 80);
  ASSERT_FALSE(page.top_device_ops.empty());
  EXPECT_EQ(page.top_device_ops[0].name, "model/dense/MatMul");
  EXPECT_NEAR(page.top_device_ops[0].self_time_ms, 4 * 5.0, 1e-9);

  analysis::KernelStatsResult kernels = analysis::ComputeKernelStats(model);
  ASSERT_EQ(kernels.kernels.size(), 2u);
  EXPECT_EQ(kernels.kernels[0].kernel_name, "volta_h884gemm_64x64_ldg8_nn");
  EXPECT_TRUE(kernels.kernels[0].is_kernel_using_tensor_core);
  EXPECT_EQ(kernels.kernels[0].occurrences, 4);
  EXPECT_NEAR(kernels.kernels[0].avg_duration_us, 3000, 1e-6);
  EXPECT_EQ(kernels.kernels[0].shared_memory_bytes, 49152);
  EXPECT_EQ(kernels.kernels[0].grid_dim, "80,2,1");
  EXPECT_FALSE(kernels.kernels[1].is_kernel_using_tensor_core);
  EXPECT_TRUE(kernels.kernels[1].is_op_tensor_core_eligible);
  EXPECT_NEAR(kernels.summary.eligible_without_tensor_core_percent, 40.0, 1e-9);

  const auto& findings = page.recommendations;
  ASSERT_NE(FindFinding(findings, "launch_bound"), nullptr);
  EXPECT_THAT(FindFinding(findings, "launch_bound")->evidence, HasSubstr("kernel launch 20.0 %"));
  ASSERT_NE(FindFinding(findings, "input_bound"), nullptr);
  ASSERT_NE(FindFinding(findings, "output_bound"), nullptr);
  ASSERT_NE(FindFinding(findings, "tensor_cores_unused"), nullptr);
  EXPECT_EQ(FindFinding(findings, "no_16bit_compute"), nullptr);  // 60 % is 16-bit
}

TEST(GoldenTest, MultiThreadKeyNumbers) {
  ProfileModel model = Build(MultiThreadSpace());
  analysis::FrameworkOpStats stats = analysis::ComputeFrameworkOpStats(model, /*include_idle=*/false);
  struct Expected {
    const char* name;
    const char* type;
    double self_ms;
    double total_ms;
  };
  for (const Expected& e : {Expected{"model/conv/Conv2D", "Conv2D", 15, 24}, Expected{"model/dense/MatMul", "MatMul", 33, 36},
                            Expected{"model/conv/BiasAdd", "BiasAdd", 6, 6}, Expected{"model/conv/Relu", "Relu", 3, 3},
                            Expected{"model/dense/MatMul/ReadVariableOp", "ReadVariableOp", 3, 3}}) {
    const analysis::OpStatsRow* row = FindOp(stats.host_ops, e.name);
    ASSERT_NE(row, nullptr) << e.name;
    EXPECT_EQ(row->type, e.type);
    EXPECT_EQ(row->occurrences, 3) << e.name;
    EXPECT_NEAR(row->total_self_time_ms, e.self_ms, 1e-9) << e.name;
    EXPECT_NEAR(row->total_time_ms, e.total_ms, 1e-9) << e.name;
  }
  ASSERT_NE(FindOp(stats.host_ops, "forward"), nullptr);
  EXPECT_NEAR(FindOp(stats.host_ops, "forward")->total_self_time_ms, 57, 1e-9);
  EXPECT_EQ(FindOp(stats.host_ops, "forward")->rank, 1);
  EXPECT_EQ(FindOp(stats.host_ops, "model/dense/MatMul")->rank, 2);
  EXPECT_EQ(FindOp(stats.host_ops, "model/conv/Conv2D")->rank, 3);
  EXPECT_EQ(FindOp(stats.host_ops, "train"), nullptr) << "step markers are not ops";
  EXPECT_NEAR(stats.host_total_self_time_ms, 57 + 15 + 33 + 6 + 3 + 3 + 1.5, 1e-9);

  analysis::StepTimeSummary summary = analysis::SummarizeSteps(model);
  EXPECT_NEAR(summary.input_percent, 2.5, 1e-9);
  EXPECT_EQ(summary.verdict, analysis::InputBoundVerdict::kNot);
  EXPECT_FALSE(summary.potentially_input_bound);
  EXPECT_TRUE(analysis::ComputeAdvice(model).findings.empty());
}

}  // namespace
}  // namespace stepscope::golden
