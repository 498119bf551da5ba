#include "src/analysis/tools/kernel_stats.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;
using tools_testing::MakeGpu;
using tools_testing::MakeKernel;

TEST(KernelStatsTest, RanksByTotalTimeAndConvertsUnits) {
  ProfileModel m;
  m.devices.push_back(MakeGpu(0, 10));
  KernelStats gemm = MakeKernel("volta_h884gemm_64x64", "dense/MatMul", 4, 400, /*uses_tc=*/true);
  gemm.params.registers_per_thread = 128;
  gemm.params.static_shared_memory_bytes = 1024;
  gemm.params.dynamic_shared_memory_bytes = 512;
  gemm.params.grid = {160, 2, 1};
  gemm.params.block = {256, 1, 1};
  gemm.params.occupancy_pct = 37.5;
  gemm.min_duration_ps = 90'000'000;
  gemm.max_duration_ps = 110'000'000;
  m.kernels = {MakeKernel("relu", "dense/Relu", 100, 300), gemm};
  KernelStatsResult r = ComputeKernelStats(m);
  ASSERT_EQ(r.kernels.size(), 2u);
  const KernelRow& top = r.kernels[0];
  EXPECT_EQ(top.rank, 1);
  EXPECT_EQ(top.kernel_name, "volta_h884gemm_64x64");
  EXPECT_EQ(top.shared_memory_bytes, 1536);
  EXPECT_EQ(top.grid_dim, "160,2,1");
  EXPECT_EQ(top.block_dim, "256,1,1");
  EXPECT_NEAR(top.total_duration_us, 400, 1e-9);
  EXPECT_NEAR(top.avg_duration_us, 100, 1e-9);
  EXPECT_NEAR(top.min_duration_us, 90, 1e-9);
  EXPECT_NEAR(top.max_duration_us, 110, 1e-9);
  EXPECT_TRUE(top.is_kernel_using_tensor_core);
  EXPECT_TRUE(top.is_op_tensor_core_eligible);
  EXPECT_EQ(r.kernels[1].rank, 2);
}

TEST(KernelStatsTest, SummaryMedianTinyAndTensorCoreShares) {
  ProfileModel m;
  // 100 launches of 3 us, 10 of 100 us (eligible, no TC), 10 of 200 us (TC).
  m.kernels = {MakeKernel("elementwise", "Add", 100, 300), MakeKernel("sgemm", "MatMul", 10, 1000, false, true),
               MakeKernel("h884gemm", "MatMul", 10, 2000, true)};
  KernelSummary s = SummarizeKernels(m);
  EXPECT_EQ(s.launches, 120);
  EXPECT_EQ(s.kernel_op_groups, 3);
  EXPECT_EQ(s.distinct_kernel_names, 3);
  EXPECT_NEAR(s.median_duration_us, 3.0, 1e-9);
  EXPECT_EQ(s.tiny_launches, 100);
  EXPECT_NEAR(s.tiny_launch_percent, 100.0 * 100 / 120, 1e-9);
  EXPECT_NEAR(s.total_time_ms, 3.3, 1e-9);
  EXPECT_NEAR(s.tensor_core_time_percent, 100.0 * 2000 / 3300, 1e-9);
  EXPECT_NEAR(s.eligible_without_tensor_core_percent, 100.0 * 1000 / 3300, 1e-9);
  EXPECT_EQ(s.eligible_without_tensor_core_kernels, 1);
  // The Tensor Core pie's three parts sum to the kernel time.
  EXPECT_NEAR(s.tensor_core_time_ms, 2.0, 1e-9);
  EXPECT_NEAR(s.eligible_without_tensor_core_time_ms, 1.0, 1e-9);
  EXPECT_NEAR(s.not_eligible_time_ms, 0.3, 1e-9);
}

TEST(KernelStatsTest, KernelTimeByOpCoversEveryKernelNotOnlyTheListedOnes) {
  ProfileModel m;
  m.kernels = {MakeKernel("sgemm", "aten::addmm", 10, 100), MakeKernel("sgemm", "aten::mm", 5, 50),
               MakeKernel("gemv", "aten::mm", 5, 40), MakeKernel("orphan", "", 2, 10)};
  for (int i = 0; i < 1005; ++i) m.kernels.push_back(MakeKernel("k" + std::to_string(i), "aten::relu", 1, 1));
  KernelStatsResult r = ComputeKernelStats(m);
  ASSERT_EQ(r.ops.size(), 4u);
  EXPECT_EQ(r.ops[0].op_name, "aten::relu");
  EXPECT_EQ(r.ops[0].kernels, 1005) << "the 5 kernels past the top 1000 count too";
  EXPECT_NEAR(r.ops[0].total_time_ms, 1.005, 1e-9);
  EXPECT_EQ(r.ops[1].op_name, "aten::addmm");
  EXPECT_EQ(r.ops[2].op_name, "aten::mm");
  EXPECT_EQ(r.ops[2].kernels, 2);
  EXPECT_EQ(r.ops[2].launches, 10);
  EXPECT_NEAR(r.ops[2].total_time_ms, 0.09, 1e-9);
  EXPECT_EQ(r.ops[3].op_name, "") << "kernels without a framework op are one row";
  double percent = 0;
  for (const KernelOpRow& op : r.ops) percent += op.percent;
  EXPECT_NEAR(percent, 100.0, 1e-9);
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(r, &w);
  EXPECT_THAT(json, HasSubstr("\"kernel_ops\":[{\"op_name\":\"aten::relu\""));
  EXPECT_THAT(json, HasSubstr("\"tensor_core_time_ms\":{\"using_tensor_cores\":"));
}

TEST(KernelStatsTest, DistinctKernelsAreNamesNotKernelOpGroups) {
  ProfileModel m;
  // One GEMM kernel run for two ops, and for one of them with a second launch shape: one
  // kernel, three kernel-op groups (the table's rows).
  m.kernels = {MakeKernel("sgemm", "aten::addmm", 10, 100), MakeKernel("sgemm", "aten::mm", 5, 50),
               MakeKernel("sgemm", "aten::mm", 5, 40), MakeKernel("relu_kernel", "aten::relu", 20, 20)};
  m.kernels[2].params.grid = {4, 1, 1};
  KernelStatsResult r = ComputeKernelStats(m);
  EXPECT_EQ(r.summary.distinct_kernel_names, 2);
  EXPECT_EQ(r.summary.kernel_op_groups, 4);
  EXPECT_EQ(r.kernels.size(), 4u);
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(r, &w);
  EXPECT_THAT(json, HasSubstr("\"distinct_kernel_names\":2"));
  EXPECT_THAT(json, HasSubstr("\"kernel_op_groups\":4"));
  EXPECT_THAT(FormatResultText(r, {}), HasSubstr("2 distinct kernels in 4 kernel-op groups"));
}

// The grouped-by-kernel view: rows that differ only in launch shape or op sum into one.
TEST(KernelStatsTest, KernelNamesGroupEveryOpAndLaunchShape) {
  ProfileModel m;
  m.kernels = {MakeKernel("sgemm", "aten::addmm", 10, 100), MakeKernel("sgemm", "aten::mm", 5, 50),
               MakeKernel("sgemm", "aten::mm", 5, 40), MakeKernel("relu_kernel", "aten::relu", 20, 20)};
  m.kernels[2].params.grid = {4, 1, 1};
  KernelStatsResult r = ComputeKernelStats(m);
  ASSERT_EQ(r.names.size(), 2u);
  const KernelNameRow& sgemm = r.names[0];
  EXPECT_EQ(sgemm.kernel_name, "sgemm");
  EXPECT_EQ(sgemm.configurations, 2);
  EXPECT_EQ(sgemm.ops, 2);
  EXPECT_EQ(sgemm.occurrences, 20);
  EXPECT_NEAR(sgemm.total_duration_us, 190, 1e-9);
  EXPECT_NEAR(sgemm.avg_duration_us, 9.5, 1e-9);
  EXPECT_NEAR(sgemm.percent + r.names[1].percent, 100, 1e-9);
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(r, &w);
  EXPECT_THAT(json, HasSubstr("\"kernel_names\":[{\"kernel_name\":\"sgemm\",\"configurations\":2,\"ops\":2"));
}

// Sizes the file does not hold are null in JSON and "-" in text, never 0.
TEST(KernelStatsTest, UnknownLaunchSizesAreAbsentNotZero) {
  ProfileModel m;
  m.devices.push_back(MakeGpu(0, 10));
  m.kernels = {MakeKernel("Cijk_Ailk_Bljk_BBS", "", 1, 100)};
  KernelStatsResult r = ComputeKernelStats(m);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].registers_per_thread, std::nullopt);
  EXPECT_EQ(r.kernels[0].shared_memory_bytes, std::nullopt);
  EXPECT_EQ(r.kernels[0].occupancy_pct, std::nullopt);
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(r, &w);
  EXPECT_THAT(json, HasSubstr("\"registers_per_thread\":null,\"shmem_bytes\":null"));
  EXPECT_THAT(json, HasSubstr("\"occupancy_pct\":null"));
}

// ToolOptions::max_kernels (the declared option `max_kernels`) reaches the tool through Run.
TEST(KernelStatsTest, MaxKernelsOptionLimitsBothKernelTables) {
  ProfileModel m;
  m.has_device = true;
  for (int i = 0; i < 5; ++i) m.kernels.push_back(MakeKernel("k" + std::to_string(i), "", 1, 100 - i));
  ToolOptions options;
  options.max_kernels = 2;
  auto result = (*FindTool("kernel_stats"))->Run(m, options);
  ASSERT_TRUE(result.ok());
  std::string json = (*result)->ToJson(false);
  EXPECT_THAT(json, HasSubstr("\"truncated\":true"));
  for (const output::Table& t : (*result)->Tables()) {
    if (t.name != "kernel_ops") EXPECT_EQ(t.rows.size(), 2u) << t.name;
  }
}

TEST(KernelStatsTest, KeepsTheTop1000) {
  ProfileModel m;
  for (int i = 0; i < 1005; ++i) m.kernels.push_back(MakeKernel("k" + std::to_string(i), "", 1, 2000 - i));
  KernelStatsResult r = ComputeKernelStats(m);
  EXPECT_EQ(r.kernels.size(), 1000u);
  EXPECT_EQ(r.kernels.back().kernel_name, "k999");
  EXPECT_EQ(r.summary.kernel_op_groups, 1005);
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(r, &w);
  EXPECT_THAT(json, HasSubstr("\"truncated\":true"));
}

TEST(KernelStatsTest, AvailableOnlyWithAGpuPlane) {
  ProfileModel m;
  EXPECT_FALSE(HasGpuPlane(m));
  m.devices.push_back(MakeGpu(3, 0));  // even an idle GPU plane, as XProf lists it
  EXPECT_TRUE(HasGpuPlane(m));
  auto tool = MakeKernelStatsTool();
  EXPECT_TRUE(tool->IsAvailable(m));
  EXPECT_EQ(tool->id(), "kernel_stats");
}

}  // namespace
}  // namespace stepscope::analysis
