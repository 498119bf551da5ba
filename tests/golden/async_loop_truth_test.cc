// Asynchronous training loops with every figure known by construction
// (src/importers/testing/async_training_loop.h): the host runs ahead of the device by 0, 1
// or k steps, is throttled by a full queue or synchronises, waits for data with and
// without device work under the wait, and launches on one or two streams. Each trace is
// imported and analysed; the steps must be the program's iterations (docs/model.md
// "Steps"), and the step time, input share, device busy time and device lag must be the
// simulation's, on the model and on every tool that reports them.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/check.h"
#include "src/analysis/tools/diff.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/analysis/tools/pod_viewer.h"
#include "src/importers/importer_registry.h"
#include "src/importers/testing/async_training_loop.h"

namespace stepscope::golden {
namespace {

using analysis::ProfileModel;
using analysis::StepInfo;
using analysis::TimeCategory;
using importers::testing::AsyncLoop;
using importers::testing::AsyncLoopConfig;

ProfileModel Analyse(const AsyncLoop& loop) {
  xspace::XSpace space;
  importers::ImportStats stats;
  Status imported = importers::ImportTraceBytes(loop.json, {}, &space, &stats);
  EXPECT_TRUE(imported.ok()) << imported.ToString();
  StatusOr<ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

double Ms(int64_t ps) { return static_cast<double>(ps) / 1e9; }

class AsyncLoopTruthTest : public ::testing::TestWithParam<AsyncLoopConfig> {};

TEST_P(AsyncLoopTruthTest, EveryFigureIsTheSimulations) {
  const AsyncLoop loop = importers::testing::SimulateAsyncLoop(GetParam());
  const ProfileModel model = Analyse(loop);
  const auto& truth = loop.truth;
  ASSERT_EQ(model.steps.size(), truth.steps.size());
  EXPECT_EQ(model.step_cadence.device_bound, truth.device_bound);
  EXPECT_EQ(model.step_cadence.host_interval_ps, truth.host_interval_ps);
  EXPECT_EQ(model.step_cadence.device_interval_ps, truth.device_interval_ps);
  for (size_t i = 0; i < truth.steps.size(); ++i) {
    const StepInfo& step = model.steps[i];
    const auto& t = truth.steps[i];
    SCOPED_TRACE(step.name);
    EXPECT_EQ(step.step_number, t.step_number);
    EXPECT_EQ(step.begin_ps, t.window_begin_ps);
    EXPECT_EQ(step.duration_ps, t.window_end_ps - t.window_begin_ps);
    EXPECT_EQ(step.host_begin_ps, t.host_begin_ps);
    EXPECT_EQ(step.host_end_ps, t.host_end_ps);
    EXPECT_EQ(step.device_end_ps, t.device_end_ps);
    EXPECT_EQ(step.device_busy_ps, t.device_busy_ps);
    EXPECT_EQ(step.device_lag_ps(), t.device_lag_ps);
    EXPECT_EQ(step.breakdown.input_ps(), t.input_ps);
    EXPECT_EQ(step.breakdown.category_ps(TimeCategory::kDeviceCompute), t.device_busy_in_window_ps);
    // Invariants: the breakdown sums to the step, steps partition time.
    EXPECT_EQ(step.breakdown.total_ps(), step.duration_ps);
    if (i + 1 < model.steps.size()) EXPECT_EQ(step.begin_ps + step.duration_ps, model.steps[i + 1].begin_ps);
  }

  // Every tool that reports the step time and the input share says the same.
  const analysis::StepTimeSummary summary = analysis::SummarizeSteps(model);
  const double mean_ms = Ms(truth.total_step_ps()) / static_cast<double>(truth.steps.size());
  EXPECT_NEAR(summary.avg_step_time_ms, mean_ms, 1e-9);
  EXPECT_NEAR(summary.input_percent, truth.input_percent(), 1e-9);
  std::string why;
  EXPECT_NEAR(analysis::MeasureBudgetMetric(model, "step_ms", &why).value_or(-1), mean_ms, 1e-9) << why;
  EXPECT_NEAR(analysis::MeasureBudgetMetric(model, "input_pct", &why).value_or(-1), truth.input_percent(), 1e-9)
      << why;
  const analysis::ProfileDiff diff = analysis::CompareProfiles(model, model);
  for (const analysis::DiffMetric& m : diff.summary) {
    if (m.key == "step_time_mean_ms") EXPECT_NEAR(m.a.value_or(-1), mean_ms, 1e-9);
    if (m.key == "input_bound_percent") EXPECT_NEAR(m.a.value_or(-1), truth.input_percent(), 1e-9);
  }
  const analysis::PodViewerResult pod = analysis::ComputePodViewer(model);
  ASSERT_EQ(pod.workers.size(), 1u);
  EXPECT_NEAR(pod.workers[0].input_percent, truth.input_percent(), 1e-6);
  EXPECT_NEAR(pod.workers[0].avg_step_time_ms, mean_ms, 1e-6);

  // The model of one step (`--step N`, the UI's step selector) has the same step.
  xspace::XSpace space;
  importers::ImportStats stats;
  ASSERT_TRUE(importers::ImportTraceBytes(loop.json, {}, &space, &stats).ok());
  for (const StepInfo& step : model.steps) {
    analysis::ModelOptions options;
    options.step = step.step_number;
    StatusOr<ProfileModel> one = analysis::BuildProfileModelFromXSpace(space, options);
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    ASSERT_EQ(one->steps.size(), 1u);
    EXPECT_EQ(one->steps[0].begin_ps, step.begin_ps) << step.name;
    EXPECT_EQ(one->steps[0].duration_ps, step.duration_ps) << step.name;
    EXPECT_EQ(one->steps[0].breakdown.type_ps, step.breakdown.type_ps) << step.name;
    EXPECT_EQ(one->steps[0].device_busy_ps, step.device_busy_ps) << step.name;
  }

  // The table for the closing note: truth vs analysis, per variant.
  double busy_ms = 0, lag_ms = 0, model_busy_ms = 0, model_lag_ms = 0;
  for (size_t i = 0; i < truth.steps.size(); ++i) {
    busy_ms += Ms(truth.steps[i].device_busy_ps);
    lag_ms += Ms(truth.steps[i].device_lag_ps);
    model_busy_ms += Ms(model.steps[i].device_busy_ps);
    model_lag_ms += Ms(model.steps[i].device_lag_ps());
  }
  const double n = static_cast<double>(truth.steps.size());
  std::cout << std::fixed << std::setprecision(4) << "| " << loop.config.name << " | " << mean_ms << " / "
            << summary.avg_step_time_ms << " | " << truth.input_percent() << " / " << summary.input_percent << " | "
            << busy_ms / n << " / " << model_busy_ms / n << " | " << lag_ms / n << " / " << model_lag_ms / n << " | "
            << (truth.device_bound ? "device" : "host") << " / " << (model.step_cadence.device_bound ? "device" : "host")
            << " |\n";
}

INSTANTIATE_TEST_SUITE_P(Variants, AsyncLoopTruthTest, ::testing::ValuesIn(importers::testing::AsyncLoopVariants()),
                         [](const ::testing::TestParamInfo<AsyncLoopConfig>& info) { return info.param.name; });

// The variants are what they say: the synchronous loop's device work ends inside its
// host step, the others' runs past it; the DataLoader-bound loop has one wait under device
// work and one without; the falling-behind loop is the only device-bound one by design.
TEST(AsyncLoopTruthTest, VariantsCoverTheShapesTheyName) {
  for (const AsyncLoopConfig& config : importers::testing::AsyncLoopVariants()) {
    const AsyncLoop loop = importers::testing::SimulateAsyncLoop(config);
    SCOPED_TRACE(config.name);
    int64_t max_lag = 0;
    for (const auto& s : loop.truth.steps) max_lag = std::max(max_lag, s.device_lag_ps);
    // Tiny kernels finish before the host does (launch-bound), or the host waits for them.
    if (config.name == "synchronous" || config.name == "launch_bound") {
      EXPECT_EQ(max_lag, 0);
    } else {
      EXPECT_GT(max_lag, 0);
    }
    if (config.name == "device_falls_behind") {
      EXPECT_TRUE(loop.truth.device_bound);
    }
    if (config.name == "data_loader_bound" || config.name == "launch_bound") {
      EXPECT_FALSE(loop.truth.device_bound);
    }
  }
}

const analysis::Finding* FindFinding(const analysis::AdvisorReport& report, std::string_view id) {
  for (const analysis::Finding& f : report.findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

// The advisor's two checks of the host-device relation: a device that falls further behind
// every step, and a host that waits on the device, naming the op that makes it wait.
TEST(AsyncLoopTruthTest, AdvisorSeesTheGrowingQueueAndTheHostsWaits) {
  for (const AsyncLoopConfig& config : importers::testing::AsyncLoopVariants()) {
    SCOPED_TRACE(config.name);
    const AsyncLoop loop = importers::testing::SimulateAsyncLoop(config);
    const analysis::AdvisorReport report = analysis::ComputeAdvice(Analyse(loop));
    const analysis::Finding* behind = FindFinding(report, "device_falls_behind");
    EXPECT_EQ(behind != nullptr, loop.truth.device_bound);
    if (behind != nullptr) {
      const double growth_ms = Ms(loop.truth.device_interval_ps - loop.truth.host_interval_ps);
      bool cited = false;
      for (const analysis::EvidenceValue& v : behind->numbers) {
        if (v.name == "lag_growth_per_step_ms") cited = std::abs(v.value - growth_ms) < 1e-9;
      }
      EXPECT_TRUE(cited) << "the growth per step, " << growth_ms << " ms";
      EXPECT_NE(behind->evidence.find("falls"), std::string::npos) << behind->evidence;
    }
    const analysis::Finding* waits = FindFinding(report, "host_waits_on_device");
    EXPECT_EQ(waits != nullptr, config.name == "synchronous");
    if (waits != nullptr) {
      EXPECT_NE(waits->evidence.find("aten::item \u2192 cudaStreamSynchronize"), std::string::npos) << waits->evidence;
    }
  }
}

}  // namespace
}  // namespace stepscope::golden
