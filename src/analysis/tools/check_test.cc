#include "src/analysis/tools/check.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;
using tools_testing::MakeGpu;
using tools_testing::MakeStep;

// Steps of 80, 100 and 150 ms: mean 110, median 100, max 150; 30 ms input each (90 of
// 330 ms = 27.27 %), 20 ms host compute each; the rest unexplained. No device.
ProfileModel ThreeSteps() {
  ProfileModel m;
  double begin = 0;
  int n = 0;
  for (double ms : {80.0, 100.0, 150.0}) {
    m.steps.push_back(MakeStep(n++, begin, ms, {{EventType::kHostWaitInput, 30.0}, {EventType::kHostCompute, 20.0}}));
    begin += ms;
  }
  return m;
}

std::optional<double> Measure(const ProfileModel& m, std::string_view key) {
  std::string why;
  return MeasureBudgetMetric(m, key, &why);
}

TEST(CheckTest, EveryKeyMeasuresTheNumberThePagesShow) {
  const ProfileModel m = ThreeSteps();
  EXPECT_NEAR(*Measure(m, "step_ms"), 110.0, 1e-9);
  EXPECT_NEAR(*Measure(m, "step_median_ms"), 100.0, 1e-9);
  EXPECT_NEAR(*Measure(m, "step_max_ms"), 150.0, 1e-9);
  EXPECT_DOUBLE_EQ(*Measure(m, "steps"), 3.0);
  EXPECT_NEAR(*Measure(m, "input_pct"), 100.0 * 90 / 330, 1e-9);
  EXPECT_NEAR(*Measure(m, "host_compute_ms"), 20.0, 1e-9);
  EXPECT_NEAR(*Measure(m, "other_pct"), 100.0 * (330 - 150) / 330, 1e-9);
  std::string why;
  EXPECT_FALSE(MeasureBudgetMetric(m, "device_idle_pct", &why).has_value());
  EXPECT_THAT(why, HasSubstr("no device"));
  for (const BudgetMetric& metric : BudgetMetrics()) {
    ProfileModel with_device = ThreeSteps();
    with_device.has_device = true;
    with_device.devices.push_back(MakeGpu(0, 1.0));
    EXPECT_TRUE(Measure(with_device, metric.key).has_value()) << metric.key;
  }
}

TEST(CheckTest, MaxAndMinBudgetsHoldOrBreakAtTheirLimit) {
  const ProfileModel m = ThreeSteps();
  CheckResult holds = CheckBudgets(m, {{"step_ms", BudgetBound::kMax, 110.0}, {"steps", BudgetBound::kMin, 3}});
  EXPECT_TRUE(holds.all_hold);
  EXPECT_EQ(holds.outcomes[0].status, BudgetStatus::kPass);
  CheckResult broken = CheckBudgets(m, {{"step_ms", BudgetBound::kMax, 109.9}, {"input_pct", BudgetBound::kMax, 30}});
  EXPECT_FALSE(broken.all_hold);
  EXPECT_EQ(broken.outcomes[0].status, BudgetStatus::kFail);
  EXPECT_EQ(broken.outcomes[1].status, BudgetStatus::kPass);
  EXPECT_EQ(CheckBudgets(m, {{"steps", BudgetBound::kMin, 4}}).outcomes[0].status, BudgetStatus::kFail);
}

TEST(CheckTest, ABudgetTheProfileCannotMeasureDoesNotHold) {
  CheckResult r = CheckBudgets(ProfileModel{}, {{"step_ms", BudgetBound::kMax, 1e9}});
  EXPECT_FALSE(r.all_hold);
  EXPECT_EQ(r.outcomes[0].status, BudgetStatus::kNotMeasured);
  EXPECT_THAT(r.outcomes[0].note, HasSubstr("no steps"));
  StructToolResult<CheckResult> result(r);
  EXPECT_THAT(result.FormatText({}), HasSubstr("FAIL  step_ms not measured: the profile has no steps"));
  EXPECT_THAT(result.ToJson(false), HasSubstr(R"("status":"not_measured")"));
}

// The JSON is {tool, all_hold, budgets: [...]}, each budget a row of the declared table
// "budgets" with the budget's own key, bound and limit beside what was measured.
TEST(CheckTest, JsonAndTableFollowTheDeclaration) {
  CheckResult r = CheckBudgets(ProfileModel{}, {{"steps", BudgetBound::kMin, 2}, {"step_ms", BudgetBound::kMax, 5}});
  StructToolResult<CheckResult> result(r);
  EXPECT_EQ(result.ToJson(false),
            R"({"tool":"check","all_hold":false,"budgets":[)"
            R"({"status":"fail","key":"steps","label":"Steps","bound":"min","limit":2,"measured":0,"unit":"count","note":""},)"
            R"({"status":"not_measured","key":"step_ms","label":"Mean step time","bound":"max","limit":5,"measured":null,)"
            R"("unit":"ms","note":"the profile has no steps"}]})"
            "\n");
  std::vector<output::Table> tables = result.Tables();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].name, "budgets");
  std::vector<std::string> ids;
  for (const output::Column& c : tables[0].columns) ids.push_back(c.id);
  EXPECT_THAT(ids, ::testing::ElementsAre("status", "key", "label", "bound", "limit", "measured", "unit", "note"));
  EXPECT_TRUE(result.TableCsv("budgets")->starts_with("status,key,label,bound,limit,measured,unit,note\r\n"));
}

TEST(CheckTest, FlagsParseKeyEqualsValueAndNameWhatIsWrong) {
  auto budget = ParseBudgetFlag("step_ms=12.5", BudgetBound::kMax);
  ASSERT_TRUE(budget.ok()) << budget.status().message();
  EXPECT_EQ(budget->key, "step_ms");
  EXPECT_DOUBLE_EQ(budget->limit, 12.5);
  auto unknown = ParseBudgetFlag("step_time=3", BudgetBound::kMax);
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(unknown.status().message(), HasSubstr("unknown budget key 'step_time'"));
  EXPECT_THAT(unknown.status().message(), HasSubstr("step_ms, step_median_ms"));
  EXPECT_THAT(ParseBudgetFlag("step_ms=fast", BudgetBound::kMax).status().message(),
              HasSubstr("budget step_ms: 'fast' is not a number"));
  EXPECT_THAT(ParseBudgetFlag("step_ms", BudgetBound::kMax).status().message(), HasSubstr("KEY=VALUE"));
  EXPECT_FALSE(ParseBudgetFlag("step_ms=nan", BudgetBound::kMax).ok());
  EXPECT_FALSE(ParseBudgetFlag("step_ms=12ms", BudgetBound::kMax).ok());
}

TEST(CheckTest, BudgetFileHasOneBudgetPerLineWithComments) {
  auto budgets = ParseBudgetFile("# CI budgets\n\nstep_ms <= 120\n  input_pct<=5  \nsteps >= 50\r\n");
  ASSERT_TRUE(budgets.ok()) << budgets.status().message();
  ASSERT_EQ(budgets->size(), 3u);
  EXPECT_EQ((*budgets)[1].key, "input_pct");
  EXPECT_DOUBLE_EQ((*budgets)[1].limit, 5);
  EXPECT_EQ((*budgets)[2].bound, BudgetBound::kMin);
  EXPECT_THAT(ParseBudgetFile("step_ms <= 1\nstep_ms = 3\n").status().message(), HasSubstr("line 2:"));
  EXPECT_THAT(ParseBudgetFile("\nwall_ms <= 3\n").status().message(),
              HasSubstr("line 2: unknown budget key 'wall_ms'"));
}

}  // namespace
}  // namespace stepscope::analysis
