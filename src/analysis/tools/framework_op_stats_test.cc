#include "src/analysis/tools/framework_op_stats.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;
using tools_testing::FinishDb;
using tools_testing::MakeOp;

ProfileModel OpsModel() {
  ProfileModel m;
  m.host_ops.ops = {MakeOp("model/dense/MatMul", "MatMul", OpCategory::kTensorFlow, true, 10, 60, 50),
                    MakeOp("model/dense_1/MatMul", "MatMul", OpCategory::kTensorFlow, true, 10, 30, 30),
                    MakeOp("Iterator::Batch", "Iterator", OpCategory::kTfData, true, 5, 20, 20)};
  FinishDb(&m.host_ops, /*idle_ms=*/100);  // 100 ms self + 100 ms idle
  return m;
}

TEST(FrameworkOpStatsTest, PercentagesOfSelfTimeWithoutIdle) {
  FrameworkOpStats s = ComputeFrameworkOpStats(OpsModel(), /*include_idle=*/false);
  ASSERT_EQ(s.host_ops.size(), 3u);
  EXPECT_EQ(s.host_ops[0].name, "model/dense/MatMul");
  EXPECT_EQ(s.host_ops[0].rank, 1);
  EXPECT_NEAR(s.host_ops[0].self_time_percent, 50.0, 1e-9);
  EXPECT_NEAR(s.host_ops[1].cumulative_self_time_percent, 80.0, 1e-9);
  EXPECT_NEAR(s.host_ops[2].cumulative_self_time_percent, 100.0, 1e-9);
  EXPECT_NEAR(s.host_total_self_time_ms, 100.0, 1e-9);
  EXPECT_TRUE(s.device_ops.empty());
}

TEST(FrameworkOpStatsTest, IncludingIdleAddsAnIdleRowAndHalvesShares) {
  FrameworkOpStats s = ComputeFrameworkOpStats(OpsModel(), /*include_idle=*/true);
  ASSERT_EQ(s.host_ops.size(), 4u);
  EXPECT_EQ(s.host_ops[0].name, "IDLE");  // 100 ms, the largest
  EXPECT_TRUE(s.host_ops[0].is_idle);
  EXPECT_NEAR(s.host_ops[0].self_time_percent, 50.0, 1e-9);
  EXPECT_NEAR(s.host_ops[1].self_time_percent, 25.0, 1e-9);  // MatMul 50 of 200 ms
  EXPECT_NEAR(s.host_ops[3].cumulative_self_time_percent, 100.0, 1e-9);
}

TEST(FrameworkOpStatsTest, OpTypesAggregate) {
  FrameworkOpStats s = ComputeFrameworkOpStats(OpsModel(), false);
  ASSERT_EQ(s.host_op_types.size(), 2u);
  EXPECT_EQ(s.host_op_types[0].type, "MatMul");
  EXPECT_EQ(s.host_op_types[0].op_count, 2);
  EXPECT_EQ(s.host_op_types[0].occurrences, 20);
  EXPECT_NEAR(s.host_op_types[0].total_self_time_ms, 80.0, 1e-9);
  EXPECT_NEAR(s.host_op_types[0].total_time_ms, 90.0, 1e-9);
  EXPECT_NEAR(s.host_op_types[0].self_time_percent, 80.0, 1e-9);
  EXPECT_NEAR(s.host_op_types[1].cumulative_self_time_percent, 100.0, 1e-9);
}

TEST(FrameworkOpStatsTest, PieFoldsTheTailIntoOther) {
  ProfileModel m;
  for (int i = 0; i < 15; ++i) {
    m.device_ops.ops.push_back(
        MakeOp("op" + std::to_string(i), "T" + std::to_string(i), OpCategory::kTensorFlow, false, 1, 15 - i, 15 - i));
  }
  FinishDb(&m.device_ops, 0);
  FrameworkOpStats s = ComputeFrameworkOpStats(m, false);
  ASSERT_EQ(s.pie_charts.device_op.size(), kPieChartMaxSlices + 1);
  EXPECT_EQ(s.pie_charts.device_op.back().label, "(other)");
  EXPECT_NEAR(s.pie_charts.device_op.back().self_time_ms, 5 + 4 + 3 + 2 + 1, 1e-9);
  double percent = 0;
  for (const PieSlice& slice : s.pie_charts.device_op) percent += slice.percent;
  EXPECT_NEAR(percent, 100.0, 1e-9);
}

TEST(FrameworkOpStatsTest, PlacementCountsOnlyHostOpsThatLaunchedNoDeviceWork) {
  ProfileModel m = OpsModel();
  m.has_device = true;
  // dense/MatMul ran kernels on the device: its host event is a launch, not host work.
  m.device_ops.ops = {MakeOp("model/dense/MatMul", "MatMul", OpCategory::kTensorFlow, false, 10, 90, 90)};
  FinishDb(&m.device_ops, 0);
  OpPlacement p = ComputeOpPlacement(m);
  EXPECT_NEAR(p.host_time_ms, 30.0, 1e-9);  // dense_1/MatMul only (tf.data is input, not placement)
  EXPECT_NEAR(p.device_time_ms, 90.0, 1e-9);
  EXPECT_NEAR(p.host_percent, 25.0, 1e-9);
  EXPECT_NEAR(p.device_percent, 75.0, 1e-9);
  // Without a device everything is on the host.
  OpPlacement cpu = ComputeOpPlacement(OpsModel());
  EXPECT_NEAR(cpu.host_percent, 100.0, 1e-9);
}

TEST(FrameworkOpStatsTest, JsonAndCsvCarryTheSameRows) {
  FrameworkOpStats s = ComputeFrameworkOpStats(OpsModel(), false);
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(s, &w);
  EXPECT_TRUE(w.complete());
  EXPECT_THAT(json, HasSubstr("\"host_ops\":[{\"rank\":1,\"host_or_device\":\"host\",\"type\":\"MatMul\""));
  EXPECT_THAT(json, HasSubstr("\"pie_charts\":{\"host_op_type\":[{\"label\":\"MatMul\""));
  StructToolResult<FrameworkOpStats> result(s);
  auto csv = result.TableCsv("host_ops");
  ASSERT_TRUE(csv.ok());
  EXPECT_THAT(*csv, HasSubstr("rank,host_or_device,type,name,category,occurrences,total_time_ms"));
  EXPECT_THAT(*csv, HasSubstr("1,host,MatMul,model/dense/MatMul,tensorflow,10,60,6,50,5,50,50,false"));
  EXPECT_FALSE(result.TableCsv("nope").ok());
  EXPECT_THAT(result.TableCsv("nope").status().message(), HasSubstr("host_ops, device_ops"));
}

}  // namespace
}  // namespace stepscope::analysis
