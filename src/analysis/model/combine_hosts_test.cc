#include "src/analysis/model/combine_hosts.h"

#include <gtest/gtest.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/model_test_util.h"

namespace stepscope::analysis {
namespace {

using testing::Ms;
using testing::TestSpace;

// One host whose steps take `step_ms`, with `wait_ms` of IteratorGetNext each, on a GPU.
ProfileModel HostModel(const std::string& host, double step_ms, double wait_ms, int steps, int first_step = 0) {
  TestSpace t;
  t.space.add_hostnames(host);
  auto main = t.HostLine(1, "main");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  for (int s = 0; s < steps; ++s) {
    double b = step_ms * s;
    uint64_t corr = static_cast<uint64_t>(s + 1);
    t.Event(main, "train", b, b + step_ms, {{"step_num", first_step + s}, {"_r", 1}});
    t.Event(main, "IteratorGetNext", b, b + wait_ms);
    t.Event(main, "model/MatMul:MatMul", b + wait_ms, b + wait_ms + 1);
    t.Event(main, "cudaLaunchKernel", b + wait_ms, b + wait_ms + 0.5, {{"correlation_id", corr}});
    t.Event(stream, "volta_sgemm", b + wait_ms + 1, b + step_ms - 1,
            {{"correlation_id", corr}, {"tf_op", "model/MatMul:MatMul"}, {"kernel_details", "regs:32 grid:1,1,1 block:32,1,1"}});
  }
  StatusOr<ProfileModel> model = BuildProfileModelFromXSpace(t.space);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return std::move(*model);
}

TEST(CombineHostModelsTest, AlignsStepsByNumberAndKeepsPerHostBreakdowns) {
  std::vector<ProfileModel> hosts;
  hosts.push_back(HostModel("worker-0", 10, 2, 3));
  hosts.push_back(HostModel("worker-1", 12, 5, 3, /*first_step=*/1));  // steps 1..3, slower
  ProfileModel combined = CombineHostModels(std::move(hosts));
  EXPECT_EQ(combined.hostnames, (std::vector<std::string>{"worker-0", "worker-1"}));
  ASSERT_EQ(combined.run_environment.hosts.size(), 2u);
  EXPECT_EQ(combined.run_environment.device_count, 2);
  ASSERT_EQ(combined.steps.size(), 4u);  // 0..3
  EXPECT_EQ(combined.steps[0].step_number, 0);
  ASSERT_EQ(combined.steps[0].per_host.size(), 1u);
  EXPECT_EQ(combined.steps[0].duration_ps, Ms(10));
  const StepInfo& step1 = combined.steps[1];
  EXPECT_EQ(step1.step_number, 1);
  ASSERT_EQ(step1.per_host.size(), 2u);
  EXPECT_EQ(step1.per_host[0].host_index, 0);
  EXPECT_EQ(step1.per_host[0].duration_ps, Ms(10));
  EXPECT_EQ(step1.per_host[0].breakdown.ps(EventType::kHostWaitInput), Ms(2));
  EXPECT_EQ(step1.per_host[1].host_index, 1);
  EXPECT_EQ(step1.per_host[1].breakdown.ps(EventType::kHostWaitInput), Ms(5));
  EXPECT_EQ(step1.duration_ps, Ms(12)) << "the slowest host defines the step";
  EXPECT_EQ(step1.breakdown.ps(EventType::kHostWaitInput), Ms(5));
  EXPECT_EQ(combined.steps[3].per_host.size(), 1u);

  ASSERT_EQ(combined.devices.size(), 2u);
  EXPECT_EQ(combined.devices[0].host_index, 0);
  EXPECT_EQ(combined.devices[1].host_index, 1);
  ASSERT_EQ(combined.kernels.size(), 1u);
  EXPECT_EQ(combined.kernels[0].occurrences, 6);
  const OpMetrics* matmul = nullptr;
  for (const OpMetrics& op : combined.device_ops.ops) {
    if (op.name == "model/MatMul") matmul = &op;
  }
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(matmul->occurrences, 6);
  EXPECT_EQ(matmul->total_time_ps, 3 * Ms(6) + 3 * Ms(5));
  EXPECT_EQ(combined.input_pipeline.get_next_count, 6);
  EXPECT_TRUE(combined.host_threads.empty());
  EXPECT_EQ(combined.source, nullptr);
}

TEST(CombineHostModelsTest, SingleModelIsUnchanged) {
  std::vector<ProfileModel> hosts;
  hosts.push_back(HostModel("only", 10, 2, 2));
  ProfileModel combined = CombineHostModels(std::move(hosts));
  EXPECT_EQ(combined.hostnames, std::vector<std::string>{"only"});
  EXPECT_EQ(combined.steps.size(), 2u);
  EXPECT_TRUE(combined.steps[0].per_host.empty());
  EXPECT_NE(combined.source, nullptr);
}

}  // namespace
}  // namespace stepscope::analysis
