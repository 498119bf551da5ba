#include "src/analysis/tools/pod_viewer.h"

#include <span>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using tools_testing::MakeStep;
using tools_testing::Ms;

HostStep OnHost(int host, const StepInfo& step) {
  HostStep h;
  h.host_index = host;
  h.begin_ps = step.begin_ps;
  h.duration_ps = step.duration_ps;
  h.breakdown = step.breakdown;
  return h;
}

// Three workers; w1 is slow in steps 1-3 (waiting for input); step 4 exists only on
// w0 and w1 (w2's capture ended earlier). Steps are listed out of order on purpose.
ProfileModel ThreeWorkerModel() {
  ProfileModel model;
  model.hostnames = {"w0", "w1", "w2"};
  struct Bar {
    int host;
    double ms;
    double input_ms;
    double compute_ms;
  };
  auto add_step = [&](int64_t number, std::vector<Bar> bars) {
    StepInfo combined;
    double max_ms = -1;
    for (const Bar& bar : bars) {
      StepInfo s = MakeStep(number, 0, bar.ms,
                            {{EventType::kHostWaitInput, bar.input_ms}, {EventType::kDeviceCompute32, bar.compute_ms}});
      if (bar.ms > max_ms) {
        max_ms = bar.ms;
        combined = s;  // the combined step carries the slowest host's fields
      }
      combined.per_host.push_back(OnHost(bar.host, s));
    }
    // per_host was reset when `combined` was reassigned: rebuild it in host order.
    combined.per_host.clear();
    for (const Bar& bar : bars) {
      combined.per_host.push_back(OnHost(bar.host, MakeStep(number, 0, bar.ms,
                                                           {{EventType::kHostWaitInput, bar.input_ms},
                                                            {EventType::kDeviceCompute32, bar.compute_ms}})));
    }
    model.steps.push_back(combined);
  };
  add_step(3, {{0, 10, 1, 8}, {1, 16, 7, 8}, {2, 11, 2, 8}});
  add_step(1, {{0, 10, 1, 8}, {1, 14, 5, 8}, {2, 10, 1, 8}});
  add_step(2, {{2, 12, 3, 8}, {0, 11, 2, 8}, {1, 15, 6, 8}});
  add_step(4, {{0, 13, 1, 8}, {1, 10, 1, 8}});
  return model;
}

TEST(PodViewerTest, StepsAreMatchedSortedAndMeasuredPerWorker) {
  PodViewerResult r = ComputePodViewer(ThreeWorkerModel());
  ASSERT_EQ(r.hosts, (std::vector<std::string>{"w0", "w1", "w2"}));
  ASSERT_EQ(r.steps.size(), 4u);
  EXPECT_EQ(r.steps[0].step_number, 1);
  EXPECT_EQ(r.steps[3].step_number, 4);
  const PodStep& step2 = r.steps[1];
  std::span<const PodWorkerStep> workers = StepWorkers(r, step2);
  ASSERT_EQ(workers.size(), 3u);
  EXPECT_EQ(workers[0].host_index, 0);  // host order, whatever the input order
  EXPECT_EQ(workers[2].host_index, 2);
  EXPECT_EQ(workers[1].host, "w1");
  EXPECT_EQ(step2.slowest_host, "w1");
  EXPECT_DOUBLE_EQ(step2.max_step_time_ms, 15);
  EXPECT_DOUBLE_EQ(step2.min_step_time_ms, 11);
  EXPECT_DOUBLE_EQ(step2.spread_ms, 4);
  EXPECT_EQ(step2.slowest_host_index, 1);
  EXPECT_DOUBLE_EQ(workers[1].lag_ms, 4);
  EXPECT_DOUBLE_EQ(workers[0].lag_ms, 0);
  EXPECT_DOUBLE_EQ(workers[1].input_percent, 40);
  const auto input = static_cast<int>(TimeCategory::kInput);
  const auto compute = static_cast<int>(TimeCategory::kDeviceCompute);
  const auto other = static_cast<int>(TimeCategory::kOther);
  EXPECT_DOUBLE_EQ(workers[1].category_ms[input], 6);
  EXPECT_DOUBLE_EQ(workers[1].category_ms[compute], 8);
  EXPECT_DOUBLE_EQ(workers[1].category_ms[other], 1);
  // The stacked bar adds up to the step time.
  double stacked = 0;
  for (double ms : workers[2].category_ms) stacked += ms;
  EXPECT_NEAR(stacked, workers[2].step_time_ms, 1e-9);
}

TEST(PodViewerTest, WorkerSummariesAndTheStraggler) {
  PodViewerResult r = ComputePodViewer(ThreeWorkerModel());
  ASSERT_EQ(r.workers.size(), 3u);
  EXPECT_EQ(r.workers[1].steps, 4);
  EXPECT_DOUBLE_EQ(r.workers[1].avg_step_time_ms, (14 + 15 + 16 + 10) / 4.0);
  EXPECT_EQ(r.workers[1].slowest_steps, 3);
  EXPECT_EQ(r.workers[0].slowest_steps, 1);  // step 4
  EXPECT_EQ(r.workers[2].steps, 3);
  EXPECT_DOUBLE_EQ(r.workers[2].avg_lag_ms, (0 + 1 + 1) / 3.0);
  // Input share weighted by step time: (5+6+7+1) / (14+15+16+10).
  EXPECT_NEAR(r.workers[1].input_percent, 100.0 * 19 / 55, 1e-9);
  ASSERT_TRUE(r.straggler_host_index.has_value());
  EXPECT_EQ(*r.straggler_host_index, 1);
  EXPECT_DOUBLE_EQ(r.straggler_slowest_percent, 75);
  EXPECT_DOUBLE_EQ(r.avg_spread_ms, (4 + 4 + 6 + 3) / 4.0);
  EXPECT_DOUBLE_EQ(r.max_spread_ms, 6);
  EXPECT_EQ(r.max_spread_step, 3);
  EXPECT_EQ(r.steps_on_all_hosts, 3);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].find("1 of 4 steps"), std::string::npos);
  EXPECT_NE(r.statement.find("w1 is the slowest in 3 of 4 steps"), std::string::npos) << r.statement;
}

TEST(PodViewerTest, NoStragglerWhenTheSlowestRotates) {
  ProfileModel model;
  model.hostnames = {"a", "b"};
  for (int64_t n = 0; n < 4; ++n) {
    StepInfo step = MakeStep(n, 0, 10, {});
    step.per_host.push_back(OnHost(0, MakeStep(n, 0, n % 2 == 0 ? 10 : 9, {})));
    step.per_host.push_back(OnHost(1, MakeStep(n, 0, n % 2 == 0 ? 9 : 10, {})));
    model.steps.push_back(step);
  }
  // Two of four steps each: exactly 50 %, so both would qualify; the first wins the tie.
  PodViewerResult r = ComputePodViewer(model);
  EXPECT_EQ(r.workers[0].slowest_steps, 2);
  EXPECT_EQ(r.workers[1].slowest_steps, 2);
  model.steps.push_back(MakeStep(4, 0, 10, {}));
  model.steps.back().per_host = {OnHost(0, MakeStep(4, 0, 9, {})), OnHost(1, MakeStep(4, 0, 10, {})),
                                 };
  model.steps.push_back(MakeStep(5, 0, 10, {}));
  model.steps.back().per_host = {OnHost(0, MakeStep(5, 0, 10, {})), OnHost(1, MakeStep(5, 0, 10, {}))};
  model.hostnames = {"a", "b", "c"};  // a third worker with no steps at all
  r = ComputePodViewer(model);
  EXPECT_EQ(r.workers[2].steps, 0);
  bool named = false;
  for (const std::string& d : r.diagnostics) named = named || d.find("worker c has no steps") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(PodViewerTest, SingleHostModelIsOneWorker) {
  ProfileModel model;
  model.hostnames = {"solo"};
  model.steps = {MakeStep(7, 0, 20, {{EventType::kHostWaitInput, 5}}), MakeStep(8, 20, 30, {})};
  PodViewerResult r = ComputePodViewer(model);
  ASSERT_EQ(r.workers.size(), 1u);
  EXPECT_EQ(r.workers[0].steps, 2);
  EXPECT_DOUBLE_EQ(r.workers[0].avg_step_time_ms, 25);
  EXPECT_EQ(r.steps_on_all_hosts, 2);
  EXPECT_FALSE(r.straggler_host_index.has_value());
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.statement, "One worker (solo): 2 steps, 25.00 ms per step on average.");
}

TEST(PodViewerTest, WorkersWithTheSameHostNameAreToldApart) {
  ProfileModel model = ThreeWorkerModel();
  model.hostnames = {"vm", "vm", "other"};  // two processes on one machine
  PodViewerResult r = ComputePodViewer(model);
  EXPECT_EQ(r.hosts, (std::vector<std::string>{"vm #0", "vm #1", "other"}));
  EXPECT_EQ(r.workers[1].host, "vm #1");
  ASSERT_TRUE(r.straggler_host_index.has_value());
  EXPECT_NE(r.statement.find("vm #1 is the slowest"), std::string::npos) << r.statement;
  bool noted = false;
  for (const std::string& d : r.diagnostics) noted = noted || d.find("2 workers report the same host name 'vm'") == 0;
  EXPECT_TRUE(noted);
}

// The summary names the straggler from `hosts` (a name longer than any inline string
// buffer, so a dangling view would show).
TEST(PodViewerTest, SummaryNamesTheStragglerFromTheHosts) {
  ProfileModel model = ThreeWorkerModel();
  model.hostnames = {"worker-zero.cluster.example.com", "worker-one.cluster.example.com",
                     "worker-two.cluster.example.com"};
  auto result = RunTool("pod_viewer", model);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_NE((*result)->ToJson(false).find("\"straggler_host\":\"worker-one.cluster.example.com\""), std::string::npos)
      << (*result)->ToJson(false);
}

TEST(PodViewerTest, EmptyModelSaysSo) {
  PodViewerResult r = ComputePodViewer(ProfileModel{});
  EXPECT_TRUE(r.steps.empty());
  EXPECT_EQ(r.workers.size(), 1u);
  EXPECT_THAT(r.statement, ::testing::StartsWith("No steps were found, so the workers cannot be compared. Mark each"));
}

TEST(PodViewerTest, RegisteredAndItsJsonArraysAreItsTables) {
  auto result = RunTool("pod_viewer", ThreeWorkerModel());
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::string json = (*result)->ToJson(false);
  for (const char* key : {"\"hosts\":[\"w0\",\"w1\",\"w2\"]", "\"straggler_host\":\"w1\"", "\"step_workers\":[",
                          "\"categories\":[\"compilation\",\"input\",", "\"max_spread_step\":3"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
  }
  EXPECT_EQ((*result)->TableNames(), (std::vector<std::string>{"workers", "steps", "step_workers"}));
  auto csv = (*result)->TableCsv("step_workers");
  ASSERT_TRUE(csv.ok());
  EXPECT_EQ(csv->rfind("step_number,host,host_index,step_time_ms,lag_ms,input_percent,compilation_ms,input_ms,", 0), 0u)
      << *csv;
  std::string text = (*result)->FormatText({});
  EXPECT_NE(text.find("w1 is the slowest"), std::string::npos);
  EXPECT_EQ(text.find("Step time per worker"), std::string::npos) << "step_workers is for CSV, not the terminal";
}

// The per-category columns are declared as constants: they must be the model's keys.
TEST(PodViewerTest, CategoryColumnsAreTheModelsCategoryKeys) {
  for (int c = 0; c < kNumTimeCategories; ++c) {
    EXPECT_EQ(pod_viewer_fields::kCategoryKeys[c], TimeCategoryKey(static_cast<TimeCategory>(c)));
  }
  auto result = RunTool("pod_viewer", ThreeWorkerModel());
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<output::Table> tables = (*result)->Tables();
  ASSERT_EQ(tables.size(), 3u);
  const output::Table& workers = tables[0];
  ASSERT_EQ(workers.columns.size(), 7u + kNumTimeCategories);
  EXPECT_EQ(workers.columns[7].id, "avg_compilation_ms");
  EXPECT_EQ(workers.columns[7].label, "compilation (ms)");
  EXPECT_EQ(workers.columns[7].unit, "ms");
  EXPECT_EQ(workers.columns.back().id, "avg_other_ms");
  // Worker w1's average input time per step: (5 + 6 + 7 + 1) / 4 ms.
  EXPECT_DOUBLE_EQ(std::get<double>(workers.rows[1][7 + static_cast<int>(TimeCategory::kInput)]), 19 / 4.0);
  const output::Table& steps = tables[1];
  EXPECT_EQ(steps.columns.back().id, "slowest_host");
  EXPECT_EQ(std::get<std::string>(steps.rows[1].back()), "w1");
}

TEST(PodViewerTest, SummaryJsonHasNullsWhereNothingStandsOut) {
  ProfileModel model;
  model.hostnames = {"solo"};
  model.steps = {MakeStep(7, 0, 20, {})};
  auto result = RunTool("pod_viewer", model);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::string json = (*result)->ToJson(false);
  EXPECT_NE(json.find("\"summary\":{\"avg_spread_ms\":0,\"max_spread_ms\":0,\"max_spread_step\":null,"
                      "\"straggler_host\":null,"),
            std::string::npos)
      << json;
}

}  // namespace
}  // namespace stepscope::analysis
