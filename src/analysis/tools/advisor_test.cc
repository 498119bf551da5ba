#include "src/analysis/tools/advisor.h"

#include <optional>

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
using tools_testing::Ms;

// A copy, so callers may pass a temporary report.
std::optional<Finding> Find(const AdvisorReport& r, std::string_view id) {
  for (const Finding& f : r.findings) {
    if (f.id == id) return f;
  }
  return std::nullopt;
}

const CheckOutcome* FindCheck(const AdvisorReport& r, std::string_view id) {
  for (const CheckOutcome& c : r.checks) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

// Back-to-back 100 ms steps with the given parts.
ProfileModel Steps(int n, std::initializer_list<std::pair<EventType, double>> parts, double gap_ms = 0) {
  ProfileModel m;
  for (int i = 0; i < n; ++i) m.steps.push_back(MakeStep(i, i * (100.0 + gap_ms), 100.0, parts));
  return m;
}

TEST(AdvisorTest, EveryRuleIsReportedAsACheck) {
  AdvisorReport r = ComputeAdvice(Steps(3, {{EventType::kHostCompute, 100}}));
  for (const char* id : {"no_steps", "input_bound", "get_next_outside_step", "output_bound", "launch_bound",
                         "tiny_kernels", "host_op_placement", "no_16bit_compute", "tensor_cores_unused",
                         "copy_heavy_streams", "step_gaps", "unexplained_step_time", "dropped_events", "gpu_straggler",
                         "collective_heavy"}) {
    EXPECT_NE(FindCheck(r, id), nullptr) << id;
  }
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].id;  // a healthy CPU profile: nothing to say
}

TEST(AdvisorTest, NoStepsTellsHowToMarkThem) {
  AdvisorReport r = ComputeAdvice(ProfileModel{});
  std::optional<Finding> f = Find(r, "no_steps");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::kHigh);
  EXPECT_THAT(f->advice, HasSubstr("stepscope::Step"));
  EXPECT_FALSE(Find(r, "input_bound").has_value());
}

TEST(AdvisorTest, InputBoundCitesItsNumbers) {
  AdvisorReport r = ComputeAdvice(Steps(4, {{EventType::kHostWaitInput, 62}, {EventType::kHostCompute, 38}}));
  std::optional<Finding> f = Find(r, "input_bound");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::kHigh);
  EXPECT_THAT(f->title, HasSubstr("62.0 %"));
  EXPECT_THAT(f->evidence, HasSubstr("input 62.0 % of step time (62.00 ms of 100.00 ms per step)"));
  EXPECT_EQ(f->tool, "input_pipeline_analyzer");
  EXPECT_EQ(r.findings.front().id, "input_bound");
  // Moderately at 5 %, silent below.
  EXPECT_EQ(Find(ComputeAdvice(Steps(2, {{EventType::kHostWaitInput, 5}, {EventType::kHostCompute, 95}})),
                 "input_bound")->severity,
            Severity::kMedium);
  EXPECT_FALSE(Find(ComputeAdvice(Steps(2, {{EventType::kHostWaitInput, 4}, {EventType::kHostCompute, 96}})),
                    "input_bound").has_value());
}

TEST(AdvisorTest, LaunchBoundNeedsADeviceAndCitesMedianKernel) {
  ProfileModel m = Steps(2, {{EventType::kHostPrepare, 10}, {EventType::kDeviceCompute32, 90}});
  m.kernels = {MakeKernel("k", "op", 200, 200 * 22.0)};
  EXPECT_FALSE(Find(ComputeAdvice(m), "launch_bound").has_value());  // has_device false: not applicable
  m.has_device = true;
  m.devices.push_back(MakeGpu(0, 180));
  std::optional<Finding> f = Find(ComputeAdvice(m), "launch_bound");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::kMedium);
  EXPECT_THAT(f->evidence, HasSubstr("kernel launch 10.0 % of step time and median kernel 22.0 us"));
  m.input_pipeline.uses_tf_data = true;
  EXPECT_THAT(Find(ComputeAdvice(m), "launch_bound")->advice, HasSubstr("gpu_private"));
}

TEST(AdvisorTest, No16BitComputeAndTensorCores) {
  ProfileModel m = Steps(2, {{EventType::kDeviceCompute32, 90}});
  m.has_device = true;
  m.devices.push_back(MakeGpu(0, 180));
  m.kernels = {MakeKernel("sgemm", "dense/MatMul", 200, 200 * 800.0, /*uses_tc=*/false, /*eligible=*/true)};
  AdvisorReport r = ComputeAdvice(m);
  std::optional<Finding> precision = Find(r, "no_16bit_compute");
  ASSERT_TRUE(precision.has_value());
  EXPECT_THAT(precision->title, HasSubstr("0.0 % 16-bit compute"));
  EXPECT_EQ(precision->severity, Severity::kMedium);  // device compute is 90 % of the step
  std::optional<Finding> tc = Find(r, "tensor_cores_unused");
  ASSERT_TRUE(tc.has_value());
  EXPECT_THAT(tc->evidence, HasSubstr("(100.0 % of kernel time)"));
  // An AMD GPU or a pre-Volta one has no Tensor Cores to use.
  m.devices[0].capabilities.compute_capability_major = 6;
  EXPECT_FALSE(Find(ComputeAdvice(m), "tensor_cores_unused").has_value());
  // With mostly 16-bit compute the precision tip is silent.
  ProfileModel half = Steps(2, {{EventType::kDeviceCompute16, 90}});
  half.has_device = true;
  EXPECT_FALSE(Find(ComputeAdvice(half), "no_16bit_compute").has_value());
}

TEST(AdvisorTest, HostOpPlacement) {
  ProfileModel m = Steps(2, {{EventType::kDeviceCompute32, 90}});
  m.has_device = true;
  m.host_ops.ops = {MakeOp("model/py_func", "PyFunc", OpCategory::kTensorFlow, true, 2, 30, 30)};
  FinishDb(&m.host_ops, 0);
  m.device_ops.ops = {MakeOp("model/conv", "Conv2D", OpCategory::kTensorFlow, false, 2, 70, 70)};
  FinishDb(&m.device_ops, 0);
  std::optional<Finding> f = Find(ComputeAdvice(m), "host_op_placement");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->title, HasSubstr("Host ops are 30.0 % of op time"));
}

TEST(AdvisorTest, TinyKernelsNeedEnoughLaunches) {
  ProfileModel m = Steps(2, {{EventType::kDeviceCompute32, 90}});
  m.kernels = {MakeKernel("tiny", "Add", 99, 99 * 2.0)};
  EXPECT_FALSE(Find(ComputeAdvice(m), "tiny_kernels").has_value());
  m.kernels[0] = MakeKernel("tiny", "Add", 100, 100 * 2.0);
  std::optional<Finding> f = Find(ComputeAdvice(m), "tiny_kernels");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->evidence, HasSubstr("100.0 % of 100 kernel launches average under 10 us"));
}

TEST(AdvisorTest, StepGaps) {
  // 100 ms steps with 25 ms between them: 3 gaps of 25 ms in the 475 ms from the first
  // step's start to the last one's end = 15.8 %.
  ProfileModel m = Steps(4, {{EventType::kHostCompute, 100}}, /*gap_ms=*/25);
  std::optional<Finding> f = Find(ComputeAdvice(m), "step_gaps");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->title, HasSubstr("15.8 %"));
  EXPECT_EQ(f->severity, Severity::kLow);
  EXPECT_THAT(f->evidence, HasSubstr("3 gaps, average 25.00 ms"));
  EXPECT_FALSE(Find(ComputeAdvice(Steps(4, {{EventType::kHostCompute, 100}}, 5)), "step_gaps").has_value());
}

TEST(AdvisorTest, CopyHeavyStreams) {
  ProfileModel m = Steps(2, {{EventType::kDeviceCompute32, 50}, {EventType::kHostToDevice, 50}});
  m.has_device = true;
  DeviceActivity gpu = MakeGpu(0, 100);
  StreamActivity copies;
  copies.stream_id = 12;
  copies.name = "Stream #12(MemcpyH2D)";
  copies.memcpy_count = 50;
  copies.memcpy_time_ps = Ms(60);
  gpu.streams.push_back(copies);
  gpu.memcpy[static_cast<int>(MemcpyDirection::kHostToDevice)] = {50, 200'000'000, Ms(60)};
  m.devices.push_back(gpu);
  std::optional<Finding> f = Find(ComputeAdvice(m), "copy_heavy_streams");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->evidence, HasSubstr("/device:GPU:0: copies take 60.0 % of busy time (H2D 50 copies, 200.0 MB"));
  EXPECT_THAT(f->evidence, HasSubstr("Stream #12(MemcpyH2D)"));
}

TEST(AdvisorTest, GetNextOutsideStepAndDroppedEvents) {
  ProfileModel m = Steps(2, {{EventType::kHostCompute, 100}});
  m.input_pipeline.get_next_count = 10;
  m.input_pipeline.get_next_outside_steps = 10;
  m.run_environment.dropped_traces = 5;
  m.total_events = 995;
  AdvisorReport r = ComputeAdvice(m);
  std::optional<Finding> outside = Find(r, "get_next_outside_step");
  ASSERT_TRUE(outside.has_value());
  EXPECT_THAT(outside->evidence, HasSubstr("10 of 10 input fetches (IteratorGetNext"));
  std::optional<Finding> dropped = Find(r, "dropped_events");
  ASSERT_TRUE(dropped.has_value());
  EXPECT_THAT(dropped->evidence, HasSubstr("5 events (0.5 %"));
  EXPECT_EQ(dropped->severity, Severity::kMedium);
}

TEST(AdvisorTest, FindingsAreOrderedBySeverityThenImpact) {
  ProfileModel m = Steps(4, {{EventType::kHostWaitInput, 30}, {EventType::kHostCompute, 50}}, 30);
  AdvisorReport r = ComputeAdvice(m);
  ASSERT_GE(r.findings.size(), 2u);
  for (size_t i = 1; i < r.findings.size(); ++i) {
    EXPECT_LE(r.findings[i - 1].severity, r.findings[i].severity);
  }
  EXPECT_EQ(r.findings[0].id, "input_bound");
}

// Two GPUs over three 100 ms steps: GPU:1 computes 40 ms, GPU:0 20 ms, each spends 30 ms
// in collectives.
ProfileModel TwoGpus(double slow_compute_ms, double collective_ms) {
  ProfileModel m = Steps(3, {{EventType::kDeviceCompute32, 60}, {EventType::kDeviceCollectives, 30}});
  for (int d = 0; d < 2; ++d) {
    DeviceActivity gpu = MakeGpu(d, 80);
    for (const StepInfo& step : m.steps) {
      DeviceStepActivity a;
      a.step_number = step.step_number;
      a.group_id = step.group_id;
      a.first_kernel_begin_ps = a.first_begin_ps = step.begin_ps;
      a.active_ps = Ms((d == 1 ? slow_compute_ms : 20.0) + collective_ms);
      a.last_end_ps = step.begin_ps + a.active_ps;
      a.collective_ps = Ms(collective_ms);
      gpu.step_activity.push_back(a);
    }
    m.devices.push_back(gpu);
  }
  m.has_device = true;
  return m;
}

TEST(AdvisorTest, GpuStragglerNamesTheDeviceAndTheWait) {
  AdvisorReport r = ComputeAdvice(TwoGpus(40, 30));
  std::optional<Finding> f = Find(r, "gpu_straggler");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, Severity::kMedium);
  EXPECT_THAT(f->title, HasSubstr("/device:GPU:1"));
  EXPECT_THAT(f->evidence, HasSubstr("20.00 ms earlier per step (20.0 % of step time)"));
  EXPECT_EQ(f->tool, "multi_gpu");
  EXPECT_NEAR(f->impact_percent, 20.0, 1e-9);
  // 5 ms of imbalance is 5 % of the step: not reported.
  EXPECT_FALSE(Find(ComputeAdvice(TwoGpus(25, 30)), "gpu_straggler").has_value());
  EXPECT_FALSE(FindCheck(ComputeAdvice(TwoGpus(25, 30)), "gpu_straggler")->fired);
}

TEST(AdvisorTest, CollectiveHeavyFiresFromThirtyPercentOfDeviceTime) {
  // Collectives 30 of (20 + 30) and 30 of (40 + 30) ms: 60 / 120 = 50 %.
  std::optional<Finding> f = Find(ComputeAdvice(TwoGpus(40, 30)), "collective_heavy");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->title, HasSubstr("50.0 %"));
  EXPECT_THAT(f->advice, HasSubstr("parameters x 4 B / link bandwidth"));
  // 5 of 25 and 5 of 45 ms: 14 %.
  EXPECT_FALSE(Find(ComputeAdvice(TwoGpus(40, 5)), "collective_heavy").has_value());
}

}  // namespace
}  // namespace stepscope::analysis
