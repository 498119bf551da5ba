#include "src/analysis/tools/input_pipeline.h"

#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using tools_testing::MakeStep;
using tools_testing::Ms;

// Ten 100 ms steps with `input_ms` waiting for input and `unknown_ms` unexplained each;
// the rest is host compute.
ProfileModel StepsWithInput(double input_ms, double unknown_ms) {
  ProfileModel m;
  for (int i = 0; i < 10; ++i) {
    m.steps.push_back(MakeStep(i, i * 100.0, 100.0,
                               {{EventType::kHostWaitInput, input_ms},
                                {EventType::kHostCompute, 100.0 - input_ms - unknown_ms}}));
  }
  return m;
}

TEST(InputPipelineTest, VerdictThresholdsAreTheTfProfilersValues) {
  EXPECT_EQ(SummarizeSteps(StepsWithInput(20.0, 0)).verdict, InputBoundVerdict::kHighly);
  EXPECT_EQ(SummarizeSteps(StepsWithInput(19.9, 0)).verdict, InputBoundVerdict::kModerately);
  EXPECT_EQ(SummarizeSteps(StepsWithInput(5.0, 0)).verdict, InputBoundVerdict::kModerately);
  StepTimeSummary not_bound = SummarizeSteps(StepsWithInput(4.9, 2.9));
  EXPECT_EQ(not_bound.verdict, InputBoundVerdict::kNot);
  EXPECT_FALSE(not_bound.potentially_input_bound);
  EXPECT_EQ(not_bound.classification, "device");
  StepTimeSummary potentially = SummarizeSteps(StepsWithInput(4.9, 3.0));
  EXPECT_EQ(potentially.verdict, InputBoundVerdict::kNot);
  EXPECT_TRUE(potentially.potentially_input_bound);
  EXPECT_EQ(potentially.classification, "both");
  EXPECT_THAT(potentially.statement, HasSubstr("POTENTIALLY"));
  EXPECT_EQ(SummarizeSteps(ProfileModel{}).verdict, InputBoundVerdict::kUnknown);
  EXPECT_EQ(InputBoundVerdictName(InputBoundVerdict::kHighly), "highly");
  EXPECT_EQ(InputBoundVerdictName(InputBoundVerdict::kModerately), "moderately");
  EXPECT_EQ(InputBoundVerdictName(InputBoundVerdict::kNot), "not");
}

TEST(InputPipelineTest, InputPercentCountsWaitAndHostToDeviceOverTotalStepTime) {
  ProfileModel m;
  // 40 + 160 = 200 ms of step time; wait-for-input + host-to-device = 6 + 2 + 10 = 18 ms.
  m.steps.push_back(MakeStep(1, 0, 40, {{EventType::kHostWaitInput, 6}, {EventType::kHostToDevice, 2}}));
  m.steps.push_back(MakeStep(2, 50, 160, {{EventType::kHostWaitInput, 10}, {EventType::kDeviceWaitHost, 6}}));
  StepTimeSummary s = SummarizeSteps(m);
  // XProf's input % = (wait input + host-to-device) / step time; device-wait-host is not in it.
  EXPECT_NEAR(s.input_percent, 100.0 * (6 + 2 + 10) / 200.0, 1e-9);
  // The "input" category of the breakdown does include device-wait-host.
  EXPECT_NEAR(s.avg_category_ms[static_cast<int>(TimeCategory::kInput)], (8 + 16) / 2.0, 1e-9);
  EXPECT_NEAR(s.avg_step_time_ms, 100.0, 1e-9);
  EXPECT_NEAR(s.step_time_ms.mean, 100.0, 1e-9);
  EXPECT_NEAR(s.step_time_ms.stddev, 60.0, 1e-9);  // population: |40-100| = |160-100| = 60
  EXPECT_NEAR(s.step_time_ms.min, 40.0, 1e-9);
  EXPECT_NEAR(s.step_time_ms.max, 160.0, 1e-9);
  EXPECT_NEAR(s.input_time_ms.mean, 9.0, 1e-9);
}

TEST(InputPipelineTest, BreakdownCategoriesSumToStepTime) {
  ProfileModel m = StepsWithInput(30, 10);
  StepTimeSummary s = SummarizeSteps(m);
  double sum_ms = 0, sum_pct = 0;
  for (int c = 0; c < kNumTimeCategories; ++c) {
    sum_ms += s.avg_category_ms[c];
    sum_pct += s.category_percent[c];
  }
  EXPECT_NEAR(sum_ms, s.avg_step_time_ms, 1e-9);
  EXPECT_NEAR(sum_pct, 100.0, 1e-9);
  EXPECT_NEAR(s.all_other_percent, 10.0, 1e-9);
}

TEST(InputPipelineTest, SixteenBitShareOnlyWithDeviceCompute) {
  ProfileModel m;
  m.steps.push_back(MakeStep(1, 0, 10, {{EventType::kDeviceCompute16, 3}, {EventType::kDeviceCompute32, 1}}));
  EXPECT_FALSE(SummarizeSteps(m).device_compute_16bit_percent.has_value());  // has_device is false
  m.has_device = true;
  ASSERT_TRUE(SummarizeSteps(m).device_compute_16bit_percent.has_value());
  EXPECT_NEAR(*SummarizeSteps(m).device_compute_16bit_percent, 75.0, 1e-9);
}

TEST(InputPipelineTest, InputOpsAndHostBreakdown) {
  ProfileModel m = StepsWithInput(50, 0);
  m.host_ops.total_self_time_ps = Ms(400);
  m.input_pipeline.uses_tf_data = true;
  InputOp map{"Iterator::Prefetch::Map", "Iterator", InputOpCategory::kPreprocessing, 10, Ms(120), Ms(100)};
  InputOp read{"Iterator::Prefetch::Map::TFRecord", "Iterator", InputOpCategory::kAdvancedFileRead, 10, Ms(20), Ms(20)};
  m.input_pipeline.ops = {read, map};  // deliberately unsorted
  m.input_pipeline.category_self_time_ps[static_cast<int>(InputOpCategory::kPreprocessing)] = Ms(100);
  m.input_pipeline.category_self_time_ps[static_cast<int>(InputOpCategory::kAdvancedFileRead)] = Ms(20);
  InputPipelineAnalysis a = ComputeInputPipelineAnalysis(m);
  ASSERT_EQ(a.input_ops.size(), 2u);
  EXPECT_EQ(a.input_ops[0].name, "Iterator::Prefetch::Map");
  EXPECT_EQ(a.input_ops[0].category, "preprocessing");
  EXPECT_NEAR(a.input_ops[0].total_time_percent.value_or(-1), 30.0, 1e-9);  // 120 of 400 ms host op time
  EXPECT_NEAR(a.input_ops[0].self_time_percent.value_or(-1), 25.0, 1e-9);
  EXPECT_NEAR(a.input_ops[0].step_time_percent.value_or(-1), 10.0, 1e-9);  // 100 of 10 x 100 ms
  EXPECT_EQ(a.input_ops[1].category, "advanced_file_read");
  EXPECT_NEAR(a.host_breakdown_ms[2], 100.0, 1e-9);
  EXPECT_NEAR(a.host_breakdown_ms[1], 20.0, 1e-9);
  EXPECT_THAT(a.recommendation, HasSubstr("preprocessing"));
}

TEST(InputPipelineTest, GetNextOutsideStepsBecomesADiagnostic) {
  ProfileModel m = StepsWithInput(1, 0);
  m.input_pipeline.get_next_count = 12;
  m.input_pipeline.get_next_outside_steps = 2;
  InputPipelineAnalysis a = ComputeInputPipelineAnalysis(m);
  ASSERT_FALSE(a.diagnostics.empty());
  EXPECT_THAT(a.diagnostics.back(), HasSubstr("2 of 12"));
}

TEST(InputPipelineTest, JsonHasTheContractFields) {
  InputPipelineAnalysis a = ComputeInputPipelineAnalysis(StepsWithInput(25, 0));
  std::string json;
  output::JsonWriter w(&json);
  output::WriteRecordJson(a, &w);
  ASSERT_TRUE(w.complete());
  for (const char* key : {"\"input_bound_percent\":25", "\"input_bound_verdict\":\"highly\"", "\"step_time_stats_ms\":{",
                          "\"mean\":100", "\"stddev\":0", "\"host_breakdown_ms\":{\"demanded_file_read\":0",
                          "\"enqueue_to_device\":0", "\"input_ops\":[]", "\"steps\":10", "\"framework\":\"unknown\"",
                          "\"input_share\":[{\"kind\":\"wait_for_input\""}) {
    EXPECT_THAT(json, HasSubstr(key));
  }
}

TEST(InputPipelineTest, TablesHaveStableNames) {
  InputPipelineAnalysis a = ComputeInputPipelineAnalysis(StepsWithInput(25, 0));
  std::vector<output::Table> tables = output::RecordTables(a);
  std::vector<std::string> names;
  for (const output::Table& t : tables) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"steps", "input_share", "host_breakdown", "input_ops"}));
  EXPECT_EQ(tables[0].rows.size(), 10u);
  // No device: the device categories do not apply and are not shown as 0; no cadence, no
  // device columns.
  EXPECT_LT(tables[0].ColumnIndex("device_compute_ms"), 0);
  EXPECT_LT(tables[0].ColumnIndex("device_busy_ms"), 0);
  EXPECT_GE(tables[0].ColumnIndex("host_compute_ms"), 0);
  EXPECT_EQ(tables[0].columns[3].id, "input_bound_ms");
  std::string text = FormatResultText(a, {});
  EXPECT_THAT(text, HasSubstr("highly"));
  EXPECT_THAT(text, HasSubstr("25.0 %"));
  EXPECT_THAT(text, HasSubstr("Average step time breakdown")) << "where the rest of the step goes";
  EXPECT_THAT(text, HasSubstr("other (no recorded event)"));
}

// The keys of the first object after `"name":[{` in compact JSON of scalar values.
std::vector<std::string> FirstRowKeys(const std::string& json, const std::string& name) {
  std::vector<std::string> keys;
  size_t at = json.find("\"" + name + "\":[{");
  if (at == std::string::npos) return keys;
  const size_t end = json.find('}', at);
  at += name.size() + 5;  // at the first key's opening quote
  while (at < end) {
    const size_t key_end = json.find("\":", at + 1);
    keys.push_back(json.substr(at + 1, key_end - at - 1));
    const size_t next = json.find(",\"", key_end);
    at = next < end ? next + 1 : end;
  }
  return keys;
}

// The step rows' JSON ("step_details") has the CSV table "steps"' columns: the categories
// that do not apply are left out of both. bottleneck_percent leaves them out too.
TEST(InputPipelineTest, StepRowsJsonMatchesTheStepTable) {
  InputPipelineAnalysis a = ComputeInputPipelineAnalysis(StepsWithInput(25, 0));
  std::string json;
  output::JsonWriter w(&json, output::JsonWriter::Style::kCompact);
  output::WriteRecordJson(a, &w);
  const output::Table steps = output::RecordTables(a)[0];
  ASSERT_EQ(steps.name, "steps");
  std::vector<std::string> columns;
  for (const output::Column& c : steps.columns) columns.push_back(c.id);
  EXPECT_EQ(FirstRowKeys(json, "step_details"), columns);
  EXPECT_EQ(FirstRowKeys(json, "input_share"),
            (std::vector<std::string>{"kind", "label", "avg_ms", "percent"}));
  EXPECT_THAT(json, Not(HasSubstr("device_compute")));
  EXPECT_THAT(json, Not(HasSubstr("pipeline_bottleneck")));  // only when tf.data names a stage
  EXPECT_THAT(json, HasSubstr("\"bottleneck_percent\":{\"input\":25,\"all_other\":"));
  EXPECT_THAT(json, HasSubstr(",\"idle\":null}"));
}

}  // namespace
}  // namespace stepscope::analysis
