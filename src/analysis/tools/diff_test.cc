#include "src/analysis/tools/diff.h"

#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;
using tools_testing::FinishDb;
using tools_testing::MakeGpu;
using tools_testing::MakeKernel;
using tools_testing::MakeOp;
using tools_testing::MakeStep;

// Run A (before): 10 steps of 100 ms, 40 ms of each waiting for input, 60 ms host compute.
// Host ops over the profile: GetNext 400 ms, forward 600 ms, old_op 50 ms. Kernels: gemm
// in two reports (two ops) of 100 us each, slow_kernel 500 us.
ProfileModel Before() {
  ProfileModel m;
  m.hostnames = {"worker0"};
  for (int i = 0; i < 10; ++i) {
    m.steps.push_back(MakeStep(i, i * 100.0, 100.0,
                               {{EventType::kHostWaitInput, 40.0}, {EventType::kHostCompute, 60.0}}));
  }
  m.host_ops.ops = {MakeOp("forward", "forward", OpCategory::kOther, true, 10, 600, 600),
                    MakeOp("IteratorGetNext", "IteratorGetNext", OpCategory::kOther, true, 10, 400, 400),
                    MakeOp("old_op", "old_op", OpCategory::kOther, true, 10, 50, 50)};
  FinishDb(&m.host_ops, 0);
  m.has_device = true;
  m.devices.push_back(MakeGpu(0, 1.0));
  m.kernels = {MakeKernel("slow_kernel", "op_a", 5, 500), MakeKernel("gemm", "op_a", 1, 100),
               MakeKernel("gemm", "op_b", 1, 100)};
  return m;
}

// Run B (after): 20 steps of 70 ms, 10 ms input, 60 ms host compute. GetNext 200 ms,
// forward 1200 ms (same per step), new_op 30 ms; gemm 600 us in one report, relu 40 us.
ProfileModel After() {
  ProfileModel m;
  m.hostnames = {"worker0"};
  for (int i = 0; i < 20; ++i) {
    m.steps.push_back(MakeStep(i, i * 70.0, 70.0, {{EventType::kHostWaitInput, 10.0}, {EventType::kHostCompute, 60.0}}));
  }
  m.host_ops.ops = {MakeOp("forward", "forward", OpCategory::kOther, true, 20, 1200, 1200),
                    MakeOp("IteratorGetNext", "IteratorGetNext", OpCategory::kOther, true, 20, 200, 200),
                    MakeOp("new_op", "new_op", OpCategory::kOther, true, 20, 30, 30)};
  FinishDb(&m.host_ops, 0);
  m.has_device = true;
  m.devices.push_back(MakeGpu(0, 1.0));
  m.kernels = {MakeKernel("gemm", "op_a", 3, 600), MakeKernel("relu", "op_c", 2, 40)};
  return m;
}

const DiffMetric& FindMetric(const ProfileDiff& d, const std::string& key) {
  for (const DiffMetric& m : d.summary) {
    if (m.key == key) return m;
  }
  ADD_FAILURE() << "no metric " << key;
  static DiffMetric none;
  return none;
}

template <typename Item>
const Item* FindItem(const std::vector<Item>& items, const std::string& name) {
  for (const Item& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

TEST(DiffTest, StepTimeAndInputShareChangeAsConstructed) {
  const ProfileDiff d = CompareProfiles(Before(), After(), {.label_a = "slow", .label_b = "fast"});
  EXPECT_EQ(d.a.label, "slow");
  EXPECT_EQ(d.b.label, "fast");
  EXPECT_EQ(d.time_basis, DiffTimeBasis::kPerStep);
  const DiffMetric& mean = FindMetric(d, "step_time_mean_ms");
  EXPECT_DOUBLE_EQ(*mean.a, 100.0);
  EXPECT_DOUBLE_EQ(*mean.b, 70.0);
  EXPECT_NEAR(*mean.delta, -30.0, 1e-9);
  EXPECT_NEAR(*mean.delta_percent, -30.0, 1e-9);
  EXPECT_NEAR(*FindMetric(d, "step_time_median_ms").b, 70.0, 1e-9);
  EXPECT_DOUBLE_EQ(*FindMetric(d, "steps").delta, 10.0);
  const DiffMetric& input = FindMetric(d, "input_bound_percent");
  EXPECT_NEAR(*input.a, 40.0, 1e-9);
  EXPECT_NEAR(*input.b, 100.0 * 10 / 70, 1e-9);
  EXPECT_NEAR(*input.delta, 100.0 * 10 / 70 - 40.0, 1e-9);
  EXPECT_FALSE(input.delta_percent.has_value()) << "a share changes by points, not by a percent of itself";
  ASSERT_EQ(d.input_verdicts.size(), 2u);
  EXPECT_EQ(d.input_verdicts[0].verdict, "highly");
  EXPECT_EQ(d.input_verdicts[1].verdict, "moderately") << d.input_verdicts[1].statement;
  EXPECT_THAT(d.statement, HasSubstr("100.000 ms -> 70.000 ms"));
  EXPECT_THAT(d.statement, HasSubstr("-30.0 %"));
  EXPECT_THAT(d.statement, HasSubstr("highly -> moderately"));
}

TEST(DiffTest, EveryCategoryBeforeAndAfterWithItsChange) {
  const ProfileDiff d = CompareProfiles(Before(), After());
  const DiffCategory* input = nullptr;
  const DiffCategory* host = nullptr;
  for (const DiffCategory& c : d.breakdown) {
    if (c.category == "input") input = &c;
    if (c.category == "host_compute") host = &c;
  }
  ASSERT_NE(input, nullptr);
  ASSERT_NE(host, nullptr);
  EXPECT_NEAR(input->a_ms, 40.0, 1e-9);
  EXPECT_NEAR(input->b_ms, 10.0, 1e-9);
  EXPECT_NEAR(input->delta_ms, -30.0, 1e-9);
  EXPECT_NEAR(*input->delta_percent, -75.0, 1e-9);
  EXPECT_NEAR(input->a_percent, 40.0, 1e-9);
  EXPECT_NEAR(host->delta_ms, 0.0, 1e-9);
  double a_sum = 0, b_sum = 0;
  for (const DiffCategory& c : d.breakdown) {
    a_sum += c.a_ms;
    b_sum += c.b_ms;
  }
  EXPECT_NEAR(a_sum, 100.0, 1e-9) << "the categories add up to the step, before and after";
  EXPECT_NEAR(b_sum, 70.0, 1e-9);
}

TEST(DiffTest, OpsMatchedByNamePerStepLargestChangeFirstWithAddedAndRemoved) {
  const ProfileDiff d = CompareProfiles(Before(), After());
  ASSERT_EQ(d.ops.size(), 4u);
  // Per step: GetNext 40 -> 10, old_op 5 -> gone, new_op 1.5 new, forward 60 -> 60.
  EXPECT_EQ(d.ops[0].name, "IteratorGetNext");
  EXPECT_NEAR(d.ops[0].a_ms, 40.0, 1e-9);
  EXPECT_NEAR(d.ops[0].b_ms, 10.0, 1e-9);
  EXPECT_NEAR(d.ops[0].delta_ms, -30.0, 1e-9);
  EXPECT_NEAR(*d.ops[0].delta_percent, -75.0, 1e-9);
  EXPECT_EQ(d.ops[0].a_count, 10);
  EXPECT_EQ(d.ops[0].b_count, 20);
  EXPECT_EQ(d.ops[1].name, "old_op");
  EXPECT_EQ(d.ops[1].change, DiffChange::kRemoved);
  EXPECT_NEAR(d.ops[1].delta_ms, -5.0, 1e-9);
  EXPECT_EQ(d.ops[2].name, "new_op");
  EXPECT_EQ(d.ops[2].change, DiffChange::kAdded);
  EXPECT_FALSE(d.ops[2].delta_percent.has_value());
  EXPECT_NEAR(d.ops[2].b_ms, 1.5, 1e-9);
  EXPECT_EQ(d.ops[3].name, "forward");
  EXPECT_NEAR(d.ops[3].delta_ms, 0.0, 1e-9) << "same time per step in a run twice as long is no change";
  EXPECT_EQ(TopItems(d.ops, DiffChange::kMatched, 1).size(), 1u);
  EXPECT_EQ(TopItems(d.ops, DiffChange::kAdded, 10).size(), 1u);
  EXPECT_EQ(TopItems(d.ops, DiffChange::kRemoved, 10)[0].name, "old_op");
}

TEST(DiffTest, KernelsMatchedByNameAcrossTheirOpAndLaunchReports) {
  const ProfileDiff d = CompareProfiles(Before(), After());
  const DiffKernel* gemm = FindItem(d.kernels, "gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->change, DiffChange::kMatched);
  EXPECT_NEAR(gemm->a_ms, 0.200 / 10, 1e-12);  // two reports of 100 us, 10 steps
  EXPECT_NEAR(gemm->b_ms, 0.600 / 20, 1e-12);
  EXPECT_EQ(gemm->a_count, 2);
  EXPECT_EQ(gemm->b_count, 3);
  EXPECT_EQ(FindItem(d.kernels, "relu")->change, DiffChange::kAdded);
  EXPECT_EQ(FindItem(d.kernels, "slow_kernel")->change, DiffChange::kRemoved);
  EXPECT_EQ(d.kernels[0].name, "slow_kernel") << "the largest change (-0.05 ms/step) comes first";
}

TEST(DiffTest, WithoutStepsOnOneSideTimesAreTotalsAndStepMetricsAbsent) {
  ProfileModel no_steps = After();
  no_steps.steps.clear();
  const ProfileDiff d = CompareProfiles(Before(), no_steps);
  EXPECT_EQ(d.time_basis, DiffTimeBasis::kTotal);
  EXPECT_TRUE(d.breakdown.empty());
  const DiffMetric& mean = FindMetric(d, "step_time_mean_ms");
  EXPECT_TRUE(mean.a.has_value());
  EXPECT_FALSE(mean.b.has_value());
  EXPECT_FALSE(mean.delta.has_value());
  EXPECT_NEAR(FindItem(d.ops, "IteratorGetNext")->a_ms, 400.0, 1e-9);
  EXPECT_THAT(d.statement, HasSubstr("B has no steps"));
  ASSERT_FALSE(d.diagnostics.empty());
  EXPECT_THAT(d.diagnostics[0], HasSubstr("no steps"));
}

TEST(DiffTest, ComparingARunWithItselfChangesNothing) {
  const ProfileDiff d = CompareProfiles(Before(), Before());
  for (const DiffMetric& m : d.summary) {
    if (m.delta) {
      EXPECT_DOUBLE_EQ(*m.delta, 0.0) << m.key;
    }
  }
  for (const DiffOp& item : d.ops) EXPECT_EQ(item.change, DiffChange::kMatched) << item.name;
  EXPECT_TRUE(d.diagnostics.empty());
}

TEST(DiffTest, TablesJsonAndTextCarryTheSameNumbers) {
  const ProfileDiff d = CompareProfiles(Before(), After());
  StructToolResult<ProfileDiff> result(d);
  std::vector<output::Table> tables = result.Tables();
  std::vector<std::string> names;
  for (const output::Table& t : tables) names.push_back(t.name);
  EXPECT_THAT(names, ::testing::ElementsAre("summary", "step_time_breakdown", "input_verdicts", "ops", "kernels"));
  const output::Table& ops = tables[3];
  EXPECT_EQ(ops.rows.size(), d.ops.size());
  EXPECT_EQ(std::get<std::string>(ops.rows[0][ops.ColumnIndex("name")]), "IteratorGetNext");
  EXPECT_NEAR(std::get<double>(ops.rows[0][ops.ColumnIndex("delta_ms")]), -30.0, 1e-9);
  EXPECT_EQ(ops.columns[ops.ColumnIndex("delta_ms")].unit, "ms");
  const std::string json = result.ToJson(/*pretty=*/false);
  EXPECT_THAT(json, HasSubstr(R"("tool":"diff")"));
  EXPECT_THAT(json, HasSubstr(R"("time_basis":"per_step")"));
  EXPECT_THAT(json, HasSubstr(R"("metric":"step_time_mean_ms")"));
  const std::string text = result.FormatText({});
  EXPECT_THAT(text, HasSubstr("Ops whose self time changed most (per step)"));
  // The text's time headers say the time basis the declared unit cannot.
  EXPECT_THAT(text, HasSubstr("A self (ms/step)  B self (ms/step)  Change (ms/step)  Change %"));
  EXPECT_THAT(text, HasSubstr("Ops only in B (added)"));
  EXPECT_THAT(text, HasSubstr("new_op"));
  EXPECT_THAT(text, HasSubstr("Ops only in A (removed)"));
  EXPECT_THAT(text, HasSubstr("old_op"));
  EXPECT_THAT(text, HasSubstr("Kernels only in B (added)"));
}

// Runs on other devices compare hardware as well as the change: the diff says which
// devices each run had ("8× A100 → 2× V100") in text, JSON and a note.
TEST(DiffTest, ADeviceChangeIsSaidInTextAndJson) {
  ProfileModel a = Before(), b = After();
  a.devices.clear();
  b.devices.clear();
  for (int i = 0; i < 8; ++i) {
    a.devices.push_back(MakeGpu(i, 1.0));
    a.devices.back().capabilities.device_name = "A100";
  }
  for (int i = 0; i < 2; ++i) {
    b.devices.push_back(MakeGpu(i, 1.0));
    b.devices.back().capabilities.device_name = "V100";
  }
  const ProfileDiff d = CompareProfiles(a, b);
  EXPECT_EQ(d.device_change, "8\u00d7 A100 \u2192 2\u00d7 V100");
  ASSERT_EQ(d.a.devices.size(), 1u);
  EXPECT_EQ(d.a.devices[0].count, 8);
  EXPECT_THAT(d.diagnostics, ::testing::Contains(HasSubstr("the runs ran on different devices (8\u00d7 A100")));
  StructToolResult<ProfileDiff> result(d);
  const std::string json = result.ToJson(/*pretty=*/false);
  EXPECT_THAT(json, HasSubstr("\"device_change\":\"8\u00d7 A100 \u2192 2\u00d7 V100\""));
  EXPECT_THAT(json, HasSubstr("\"devices\":[{\"name\":\"A100\",\"device_type\":\"GPU\",\"count\":8}]"));
  EXPECT_THAT(json, HasSubstr("\"devices\":[{\"name\":\"V100\",\"device_type\":\"GPU\",\"count\":2}]"));
  EXPECT_THAT(result.FormatText({}), HasSubstr("Devices changed: 8\u00d7 A100 \u2192 2\u00d7 V100\n"));

  // The same devices: nothing to say but what they were.
  const ProfileDiff same = CompareProfiles(a, a);
  EXPECT_EQ(same.device_change, "");
  EXPECT_THAT(StructToolResult<ProfileDiff>(same).FormatText({}), HasSubstr("Devices: 8\u00d7 A100 in both runs\n"));
  EXPECT_THAT(StructToolResult<ProfileDiff>(same).ToJson(false), HasSubstr("\"device_change\":\"\""));
  // A device type alone is a change too (same count, no names).
  ProfileModel mtia = After();
  mtia.devices[0].capabilities.device_type = "MTIA";
  EXPECT_EQ(CompareProfiles(After(), mtia).device_change, "1\u00d7 GPU \u2192 1\u00d7 MTIA");
}

// Each table's columns are its row record's declared fields, in order: the CSV headers and
// the JSON keys of a row are the same ids (ops and kernels name the same comparison each
// in its own words).
TEST(DiffTest, TableColumnsFollowTheDeclaration) {
  const ProfileDiff d = CompareProfiles(Before(), After());
  std::map<std::string, std::vector<std::string>> columns;
  for (const output::Table& t : StructToolResult<ProfileDiff>(d).Tables()) {
    for (const output::Column& c : t.columns) columns[t.name].push_back(c.id);
  }
  EXPECT_THAT(columns["summary"],
              ::testing::ElementsAre("metric", "label", "unit", "a", "b", "delta", "delta_percent"));
  EXPECT_THAT(columns["ops"], ::testing::ElementsAre("host_or_device", "name", "type", "change", "a_self_time_ms",
                                                     "b_self_time_ms", "delta_ms", "delta_percent", "a_occurrences",
                                                     "b_occurrences"));
  EXPECT_THAT(columns["kernels"],
              ::testing::ElementsAre("kernel_name", "change", "a_total_time_ms", "b_total_time_ms", "delta_ms",
                                     "delta_percent", "a_launches", "b_launches"));
  const output::TypeDesc& type = output::DescribeType<ProfileDiff>();
  for (const output::FieldDesc& field : type.fields) {
    if (!field.table) continue;
    std::vector<std::string> declared;
    for (const output::FieldDesc& column : field.type->element->fields) declared.emplace_back(column.id);
    EXPECT_EQ(columns[std::string(field.id)], declared) << field.id;
  }
}

// The JSON's shape: the sides as objects, tables as arrays of row objects keyed by the
// column ids, enums by name, an absent number as null.
TEST(DiffTest, JsonShapeFollowsTheDeclaration) {
  ProfileModel no_steps = After();
  no_steps.steps.clear();
  const std::string json = StructToolResult<ProfileDiff>(CompareProfiles(Before(), no_steps)).ToJson(false);
  EXPECT_THAT(json, ::testing::StartsWith(R"({"tool":"diff","a":{"label":"A","hosts":["worker0"],"framework":)"));
  EXPECT_THAT(json, HasSubstr(R"("steps":0,"device_type":)"));
  EXPECT_THAT(json, HasSubstr(R"("time_basis":"total","statement":)"));
  EXPECT_THAT(json, HasSubstr(R"("step_time_breakdown":[],"input_verdicts":[{"side":"a",)"));
  EXPECT_THAT(json, HasSubstr(R"({"metric":"step_time_mean_ms","label":"Mean step time","unit":"ms","a":100,"b":null,)"
                              R"("delta":null,"delta_percent":null})"));
  EXPECT_THAT(json, HasSubstr(R"({"host_or_device":"host","name":"old_op","type":"old_op","change":"removed",)"));
  EXPECT_THAT(json, HasSubstr(R"({"kernel_name":"relu","change":"added","a_total_time_ms":0,)"));
  EXPECT_THAT(json, ::testing::EndsWith(R"("diagnostics":["run B (B) has no steps: step times, categories and the )"
                                        R"(input share are not compared"]})"
                                        "\n"));
}

}  // namespace
}  // namespace stepscope::analysis
