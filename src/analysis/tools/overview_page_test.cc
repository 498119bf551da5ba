#include "src/analysis/tools/overview_page.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using tools_testing::FinishDb;
using tools_testing::MakeOp;
using tools_testing::MakeStep;

ProfileModel GpuModel() {
  ProfileModel m;
  m.hostnames = {"worker0"};
  m.has_device = true;
  m.run_environment.device_type = "GPU";
  m.run_environment.device_count = 2;
  m.run_environment.active_device_count = 1;
  m.run_environment.device_core_count = 80;
  m.run_environment.hosts.push_back({"worker0", 16, 4242, 1 << 30});
  for (int i = 0; i < 5; ++i) {
    m.steps.push_back(MakeStep(i, i * 10.0, 10.0,
                               {{EventType::kHostWaitInput, 3}, {EventType::kDeviceCompute32, 5},
                                {EventType::kDeviceCompute16, 1}, {EventType::kHostPrepare, 1}}));
  }
  for (int i = 0; i < 12; ++i) {
    m.device_ops.ops.push_back(
        MakeOp("op" + std::to_string(i), "Conv2D", OpCategory::kTensorFlow, false, 1, 12 - i, 12 - i));
  }
  FinishDb(&m.device_ops, 0);
  return m;
}

TEST(OverviewPageTest, SummaryAndTopTenDeviceOps) {
  OverviewPage p = ComputeOverviewPage(GpuModel());
  EXPECT_EQ(p.summary.step_count, 5);
  EXPECT_NEAR(p.summary.avg_step_time_ms, 10.0, 1e-9);
  EXPECT_NEAR(p.summary.input_percent, 30.0, 1e-9);
  ASSERT_TRUE(p.summary.device_compute_16bit_percent.has_value());
  EXPECT_NEAR(*p.summary.device_compute_16bit_percent, 100.0 / 6, 1e-9);
  ASSERT_EQ(p.top_device_ops.size(), kTopDeviceOps);
  EXPECT_EQ(p.top_device_ops[0].name, "op0");
  const double total = 12 * 13 / 2.0;  // 78 ms of device op time
  EXPECT_NEAR(p.top_device_ops[0].self_time_percent, 100.0 * 12 / total, 1e-9);
  EXPECT_NEAR(p.top_device_ops[9].cumulative_percent, 100.0 * (78 - 3) / total, 1e-9);
  EXPECT_EQ(p.steps.size(), 5u);
}

TEST(OverviewPageTest, NextStepComesFromTheAdvisorsTopFinding) {
  OverviewPage p = ComputeOverviewPage(GpuModel());
  ASSERT_FALSE(p.recommendations.empty());
  EXPECT_EQ(p.recommendations[0].id, "input_bound");
  EXPECT_THAT(p.next_step, HasSubstr("Highly input bound: input is 30.0 % of step time"));
}

TEST(OverviewPageTest, JsonContract) {
  OverviewPage p = ComputeOverviewPage(GpuModel());
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(p, &w);
  ASSERT_TRUE(w.complete());
  for (const char* key :
       {"\"steps\":5", "\"avg_step_time_ms\":10", "\"step_time_breakdown_ms\":{\"compilation\":0,\"input\":3,\"output\":0,"
        "\"kernel_launch\":1,\"host_compute\":0,\"device_to_device\":0,\"device_collectives\":0,\"device_compute\":6,"
        "\"other\":0}",
        "\"input_bound_percent\":30", "\"input_bound_verdict\":\"highly\"", "\"top_device_ops\":[{\"rank\":1",
        "\"run_environment\":{\"host_count\":1,\"hosts\":[{\"hostname\":\"worker0\",\"logical_cores\":16",
        "\"device_type\":\"GPU\"", "\"device_core_count\":80", "\"recommendations\":[{\"id\":\"input_bound\"",
        "\"step_time_graph\":[{\"step_number\":0", "\"device_compute_precision\":{\"bit16_percent\":16.6"}) {
    EXPECT_THAT(json, HasSubstr(key));
  }
}

TEST(OverviewPageTest, CpuOnlyHasNoPrecisionAndSaysSo) {
  ProfileModel m;
  m.steps.push_back(MakeStep(1, 0, 10, {{EventType::kHostCompute, 10}}));
  OverviewPage p = ComputeOverviewPage(m);
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(p, &w);
  EXPECT_THAT(json, HasSubstr("\"device_compute_precision\":{\"bit16_percent\":null,\"bit32_percent\":null}"));
  EXPECT_THAT(json, HasSubstr("\"top_device_ops\":[]"));
  std::string text = FormatResultText(p, {});
  EXPECT_THAT(text, HasSubstr("unknown (no device compute)"));
  EXPECT_THAT(text, HasSubstr("NOT input bound"));
}

// "other" is time no rule explains: the text says so in words; the CSV table keeps the
// JSON key.
TEST(OverviewPageTest, OtherIsLabelledAsUnexplainedTime) {
  ProfileModel m;
  m.has_device = true;
  m.steps.push_back(MakeStep(1, 0, 10, {{EventType::kDeviceCompute32, 4}, {EventType::kUnknownTime, 6}}));
  OverviewPage p = ComputeOverviewPage(m);
  std::string text = FormatResultText(p, {});
  EXPECT_THAT(text, HasSubstr("other (no recorded event)     6.000       60.0"));
  EXPECT_THAT(text, HasSubstr("device compute                4.000       40.0"));
  std::vector<output::Table> tables = output::RecordTables(p);
  ASSERT_FALSE(tables.empty());
  ASSERT_EQ(tables[0].name, "step_time_breakdown");
  const output::Table& breakdown = tables[0];
  ASSERT_EQ(breakdown.rows.size(), static_cast<size_t>(kNumTimeCategories));
  EXPECT_EQ(std::get<std::string>(breakdown.rows.back()[0]), "other");
}

// The run environment names the devices by model with their count, as their planes say
// (Kineto's deviceProperties names); a device without a name shows its type.
TEST(OverviewPageTest, DevicesAreNamedByModelWithTheirCount) {
  ProfileModel m = GpuModel();
  m.devices.clear();
  for (int i = 0; i < 8; ++i) {
    m.devices.push_back(tools_testing::MakeGpu(i, 1.0));
    m.devices.back().capabilities.device_name = "NVIDIA A100-SXM4-40GB";
  }
  m.devices.push_back(tools_testing::MakeGpu(8, 1.0));
  m.devices.back().capabilities.device_type = "MTIA";
  m.run_environment.device_count = 9;
  m.run_environment.active_device_count = 9;
  OverviewPage p = ComputeOverviewPage(m);
  ASSERT_EQ(p.device_models.size(), 2u);
  EXPECT_EQ(p.device_models[0].name, "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(p.device_models[0].count, 8);
  EXPECT_EQ(p.device_models[1].device_type, "MTIA");
  EXPECT_THAT(FormatResultText(p, {}),
              HasSubstr("9 active of 9 (8\u00d7 NVIDIA A100-SXM4-40GB, 1\u00d7 MTIA)"));
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(p, &w);
  EXPECT_THAT(json, HasSubstr("\"device_models\":[{\"name\":\"NVIDIA A100-SXM4-40GB\",\"device_type\":\"GPU\","
                              "\"count\":8},{\"name\":\"\",\"device_type\":\"MTIA\",\"count\":1}]"));
}

// The tables keep their names; the XLA summary is left out of the JSON for profiles
// without XLA programs (not null), as before its declaration.
TEST(OverviewPageTest, TablesByNameAndNoXlaKeyWithoutPrograms) {
  OverviewPage p = ComputeOverviewPage(GpuModel());
  std::vector<std::string> names;
  for (const output::Table& t : output::RecordTables(p)) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"step_time_breakdown", "steps", "top_device_ops", "hosts",
                                             "device_counters"}));
  std::string json;
  output::JsonWriter w(&json, output::JsonWriter::Style::kCompact);
  output::WriteRecordJson(p, &w);
  EXPECT_THAT(json, Not(HasSubstr("\"xla\"")));
  EXPECT_THAT(json, HasSubstr("\"op_placement\":{"));
  EXPECT_THAT(json, HasSubstr("\"recommendations\":[{\"id\":\"input_bound\",\"severity\":\"high\""));
  EXPECT_THAT(json, HasSubstr("\"numbers\":{\""));
}

}  // namespace
}  // namespace stepscope::analysis
