// pod_viewer on a three-worker run whose numbers are known, from XSpace through the
// profile model (per host) and the host combiner to the tool's JSON.
//
// Scenario (every host: one "main" thread, steps k at [12k, ...) ms, "train" markers with
// step_num k and _r 1; IteratorGetNext is waiting for input, "forward" host compute):
//   w0: steps 0..7, 10 ms: IteratorGetNext [0, 2), forward [2, 9), 1 ms unexplained.
//   w1: steps 0..7, 11.5 ms: IteratorGetNext [0, 4.5), forward [4.5, 11.5).
//   w2: steps 0..6 (its capture ended before step 7), 10.5 ms: IteratorGetNext [0, 2.5),
//       forward [2.5, 9.5), 1 ms unexplained.
// Steps are the program's iterations: 12 ms on every worker (the last one until its
// marker ends), so the workers are compared by their busy time (step time less "other"):
// w0 9 ms, w1 11.5 ms, w2 9.5 ms in every step.
// Expected: 8 steps, 7 on every worker; w1 is the slowest in all 8 (straggler, 100 %);
// spread 2.5 ms in every step; w1's input is 8 x 4.5 ms of its 7 x 12 + 11.5 ms.
#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/combine_hosts.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/pod_viewer.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "tests/golden/golden_file.h"


namespace stepscope::golden {
namespace {

using analysis::ProfileModel;

constexpr int64_t kPsPerMs = 1'000'000'000;

struct WorkerShape {
  const char* name;
  int steps;
  double input_ms;
  double compute_ms;
  double step_ms;
};

xspace::XSpace WorkerSpace(const WorkerShape& shape) {
  xspace::XSpace space;
  space.add_hostnames(shape.name);
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  host.AddStatValue(*host.GetOrCreateStatMetadata("host_name"), std::string_view(shape.name));
  xspace::XLineBuilder main = host.GetOrCreateLine(1);
  main.SetName("main");
  auto add = [&](std::string_view name, double begin_ms, double end_ms) {
    xspace::XEventBuilder event = main.AddEvent(*host.GetOrCreateEventMetadata(name));
    event.SetOffsetPs(static_cast<int64_t>(begin_ms * kPsPerMs));
    event.SetDurationPs(static_cast<int64_t>((end_ms - begin_ms) * kPsPerMs));
    return event;
  };
  for (int k = 0; k < shape.steps; ++k) {
    const double b = 12.0 * k;
    xspace::XEventBuilder train = add("train", b, b + shape.step_ms);
    train.AddStatValue(*host.GetOrCreateStatMetadata("step_num"), int64_t{k});
    train.AddStatValue(*host.GetOrCreateStatMetadata("_r"), int64_t{1});
    add("IteratorGetNext", b, b + shape.input_ms);
    add("forward", b + shape.input_ms, b + shape.input_ms + shape.compute_ms);
  }
  return space;
}


StatusOr<ProfileModel> ThreeWorkerRun() {
  const WorkerShape shapes[] = {{"w0", 8, 2, 7, 10}, {"w1", 8, 4.5, 7, 11.5}, {"w2", 7, 2.5, 7, 10.5}};
  std::vector<ProfileModel> models;
  for (const WorkerShape& shape : shapes) {
    analysis::ModelOptions options;
    options.hostname = shape.name;
    auto model = analysis::BuildProfileModelFromXSpace(WorkerSpace(shape), options);
    if (!model.ok()) return model.status();
    models.push_back(std::move(*model));
  }
  return analysis::CombineHostModels(std::move(models));
}

TEST(PodViewerGoldenTest, ThreeWorkersWithAStraggler) {
  auto model = ThreeWorkerRun();
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  analysis::PodViewerResult r = analysis::ComputePodViewer(*model);
  // The numbers of the scenario, checked directly before the whole JSON is compared.
  ASSERT_EQ(r.hosts, (std::vector<std::string>{"w0", "w1", "w2"}));
  ASSERT_EQ(r.steps.size(), 8u);
  EXPECT_EQ(r.steps_on_all_hosts, 7);
  ASSERT_TRUE(r.straggler_host_index.has_value());
  EXPECT_EQ(r.hosts[*r.straggler_host_index], "w1");
  EXPECT_EQ(r.workers[1].slowest_steps, 8);
  EXPECT_EQ(r.compared_by, "busy_time");
  EXPECT_NEAR(r.avg_spread_ms, 2.5, 1e-9);
  EXPECT_NEAR(r.workers[1].avg_step_time_ms, (7 * 12 + 11.5) / 8, 1e-9);
  EXPECT_NEAR(r.workers[1].input_percent, 100.0 * 8 * 4.5 / (7 * 12 + 11.5), 1e-6);
  EXPECT_NEAR(r.workers[0].avg_category_ms[static_cast<int>(analysis::TimeCategory::kInput)], 2, 1e-9);
  // w0: 3 ms of each 12 ms window and 1 ms of its last, 10 ms step, explained by nothing.
  EXPECT_NEAR(r.workers[0].avg_category_ms[static_cast<int>(analysis::TimeCategory::kOther)], (7 * 3 + 1) / 8.0,
              1e-9);
  EXPECT_EQ(r.workers[2].steps, 7);

  auto result = analysis::RunTool("pod_viewer", *model);
  ASSERT_TRUE(result.ok());
  std::string failure = CheckGolden("pod_viewer/three_workers.json", (*result)->ToJson(/*pretty=*/true));
  EXPECT_TRUE(failure.empty()) << failure;
}

}  // namespace
}  // namespace stepscope::golden
