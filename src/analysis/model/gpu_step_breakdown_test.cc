// The step-time breakdown of GPU profiles (XProf's rules, reference/xspace.md §6;
// docs/model.md "Steps" and "Breakdown"): synthetic PyTorch-shaped profiles whose time
// per category is set by construction, pinned to the picosecond.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/model_test_util.h"

namespace stepscope::analysis {
namespace {

using testing::BuildModelOrFail;
using testing::Ms;
using testing::TestSpace;

constexpr const char* kH2dDetails = "kind_src:pinned kind_dst:device size:4096 dest:0 async:1";
constexpr const char* kD2hDetails = "kind_src:device kind_dst:pinned size:1024 dest:0 async:1";

// One synchronous step [b, b+10) with every kind of span; the device work lies inside the
// host marker, so the step is the host marker. The main thread carries ProfilerStep and
// the forward; pt_autograd_0 (no marker) launches a kernel during the input wait and an
// all-reduce at the end. Sweep (highest priority wins):
//   [0, 1)     input wait (IteratorGetNext 110 over the autograd launch 90)
//   [1, 2)     device compute 32 (the autograd thread's kernel over the input wait)
//   [2, 3)     input wait
//   [3, 3.5)   kernel launch (cudaMemcpyAsync)
//   [3.5, 4.5) host to device (the H2D copy)
//   [4.5, 5)   kernel launch (cudaLaunchKernel inside aten::conv2d)
//   [5, 8)     device compute 16 (fp16 kernel over aten::conv2d's host compute)
//   [8, 8.25)  kernel launch (cudaMemcpyAsync)
//   [8.25, 9)  device to host (D2H copy 130 over the all-reduce 100 and its launch)
//   [9, 9.25)  device collectives (the rest of the all-reduce)
//   [9.25, 10) nothing: unknown
// (Times are binary fractions of a ms, so each is a whole number of ps.)
void AddSynchronousStep(TestSpace& t, int s) {
  auto main = t.HostLine(1, "python3");
  auto autograd = t.HostLine(2, "pt_autograd_0");
  int gpu = t.Plane("/device:GPU:0");
  auto compute = t.LineIn(gpu, 7, "Stream #7(Compute)");
  auto copies = t.LineIn(gpu, 8, "Stream #8(Memcpy)");
  auto nccl = t.LineIn(gpu, 9, "Stream #9(Compute)");
  const double b = 10.0 * s;
  const uint64_t c = 100 * static_cast<uint64_t>(s + 1);
  t.Event(main, "ProfilerStep", b, b + 10, {{"step_num", s}, {"_r", 1}});
  t.Event(main, "IteratorGetNext", b, b + 3);
  t.Event(autograd, "cudaLaunchKernel", b + 0.5, b + 0.75, {{"correlation_id", c + 1}});
  t.Event(compute, "elementwise_kernel", b + 1, b + 2, {{"correlation_id", c + 1}});
  t.Event(main, "cudaMemcpyAsync", b + 3, b + 3.5, {{"correlation_id", c + 2}});
  t.Event(copies, "MemcpyH2D", b + 3.5, b + 4.5, {{"correlation_id", c + 2}, {"memcpy_details", kH2dDetails}});
  t.Event(main, "aten::conv2d", b + 4.5, b + 6);
  t.Event(main, "cudaLaunchKernel", b + 4.5, b + 5, {{"correlation_id", c + 3}});
  t.Event(compute, "ampere_fp16_s1688gemm", b + 5, b + 8, {{"correlation_id", c + 3}});
  t.Event(main, "cudaMemcpyAsync", b + 8, b + 8.25, {{"correlation_id", c + 4}});
  t.Event(copies, "MemcpyD2H", b + 8.25, b + 9, {{"correlation_id", c + 4}, {"memcpy_details", kD2hDetails}});
  t.Event(autograd, "cudaLaunchKernel", b + 8.5, b + 8.75, {{"correlation_id", c + 5}});
  t.Event(nccl, "ncclKernel_AllReduce_RING_LL_Sum_float", b + 8.75, b + 9.25, {{"correlation_id", c + 5}});
}

TEST(GpuStepBreakdownTest, EveryCategoryOfASynchronousStep) {
  TestSpace t;
  for (int s = 0; s < 3; ++s) AddSynchronousStep(t, s);
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), 3u);
  for (const StepInfo& step : model.steps) {
    SCOPED_TRACE(step.name);
    // Back-to-back markers that contain their device work: the window is the marker.
    EXPECT_EQ(step.time_source, StepTimeSource::kStepStarts);
    EXPECT_EQ(step.device_lag_ps(), 0) << "the device work ends inside the host step";
    EXPECT_EQ(step.duration_ps, Ms(10));
    const StepBreakdown& b = step.breakdown;
    EXPECT_EQ(b.ps(EventType::kHostWaitInput), Ms(2));
    EXPECT_EQ(b.ps(EventType::kDeviceCompute32), Ms(1));
    EXPECT_EQ(b.ps(EventType::kHostPrepare), Ms(1.25));
    EXPECT_EQ(b.ps(EventType::kHostToDevice), Ms(1));
    EXPECT_EQ(b.ps(EventType::kDeviceCompute16), Ms(3));
    EXPECT_EQ(b.ps(EventType::kDeviceToHost), Ms(0.75));
    EXPECT_EQ(b.ps(EventType::kDeviceCollectives), Ms(0.25));
    EXPECT_EQ(b.ps(EventType::kUnknownTime), Ms(0.75));
    EXPECT_EQ(b.ps(EventType::kHostCompute), 0) << "aten::conv2d runs under its launch and kernel";
    EXPECT_EQ(b.category_ps(TimeCategory::kInput), Ms(3));
    EXPECT_EQ(b.category_ps(TimeCategory::kOutput), Ms(0.75));
    EXPECT_EQ(b.category_ps(TimeCategory::kKernelLaunch), Ms(1.25));
    EXPECT_EQ(b.category_ps(TimeCategory::kDeviceCompute), Ms(4));
    EXPECT_EQ(b.category_ps(TimeCategory::kDeviceCollectives), Ms(0.25));
    EXPECT_EQ(b.category_ps(TimeCategory::kOther), Ms(0.75));
    EXPECT_EQ(b.total_ps(), Ms(10));
  }
  EXPECT_EQ(model.device_step_ties.by_launch, 9);
  EXPECT_EQ(model.device_step_ties.by_launch_window, 6);
  EXPECT_EQ(model.device_step_ties.untied(), 0);
}

// PyTorch's asynchronous loop: the host runs ahead and each step's kernels run while the
// host is already in the next step. Host steps [b, b+10); the step's kernels run at
// [b+6, b+10) and [b+11, b+14), so the device work of step s ends 4 ms after its host
// step. A step is the program's iteration, [b, b+10) (the last one until its device work
// ends, [20, 34)), and whatever ran on the device in that window counts there, whichever
// step launched it: step 1's window holds step 0's backward kernel and its own forward.
TEST(GpuStepBreakdownTest, DeviceWorkCountsInTheWindowWhereItRuns) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  auto autograd = t.HostLine(2, "pt_autograd_0");
  int gpu = t.Plane("/device:GPU:0");
  auto compute = t.LineIn(gpu, 7, "Stream #7(Compute)");
  constexpr int kSteps = 3;
  for (int s = 0; s < kSteps; ++s) {
    const double b = 10.0 * s;
    const uint64_t c = 100 * static_cast<uint64_t>(s + 1);
    t.Event(main, "ProfilerStep", b, b + 10, {{"step_num", s}, {"_r", 1}});
    t.Event(main, "aten::linear", b + 1, b + 9);
    t.Event(main, "cudaLaunchKernel", b + 1, b + 2, {{"correlation_id", c + 1}});
    t.Event(compute, "sgemm_fwd", b + 6, b + 10, {{"correlation_id", c + 1}});
    t.Event(autograd, "cudaLaunchKernel", b + 3, b + 4, {{"correlation_id", c + 2}});
    t.Event(compute, "sgemm_bwd", b + 11, b + 14, {{"correlation_id", c + 2}});
  }
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), static_cast<size_t>(kSteps));
  // Per step: duration, device compute, host compute, kernel launch, unknown.
  //   step 0 [0, 10):  [1, 2) launch, [2, 3) linear, [3, 4) autograd launch, [4, 6) linear, [6, 10) fwd
  //   step 1 [10, 20): [11, 14) step 0's bwd over linear and launches, [14, 16) linear, [16, 20) fwd
  //   step 2 [20, 34): [21, 24) bwd, [24, 26) linear, [26, 30) fwd, [30, 31) idle, [31, 34) its own bwd
  struct Expected {
    double duration, device, host, launch, unknown;
  };
  const Expected expected[kSteps] = {{10, 4, 3, 2, 1}, {10, 7, 2, 0, 1}, {14, 10, 2, 0, 2}};
  for (int s = 0; s < kSteps; ++s) {
    const StepInfo& step = model.steps[s];
    SCOPED_TRACE(step.name);
    EXPECT_EQ(step.time_source, StepTimeSource::kStepStarts);
    EXPECT_EQ(step.begin_ps, Ms(10.0 * s));
    EXPECT_EQ(step.duration_ps, Ms(expected[s].duration));
    EXPECT_EQ(step.name, "ProfilerStep " + std::to_string(s));
    const StepBreakdown& b = step.breakdown;
    EXPECT_EQ(b.category_ps(TimeCategory::kDeviceCompute), Ms(expected[s].device));
    EXPECT_EQ(b.ps(EventType::kHostCompute), Ms(expected[s].host));
    EXPECT_EQ(b.ps(EventType::kHostPrepare), Ms(expected[s].launch));
    EXPECT_EQ(b.ps(EventType::kUnknownTime), Ms(expected[s].unknown));
    EXPECT_EQ(b.total_ps(), step.duration_ps);
    // By the step that launched it: 7 ms of kernels, ending 4 ms after the host step.
    EXPECT_EQ(step.device_busy_ps, Ms(7));
    EXPECT_EQ(step.device_end_ps, Ms(10.0 * s + 14));
    EXPECT_EQ(step.device_lag_ps(), Ms(4));
  }
  EXPECT_EQ(model.step_cadence.steps, kSteps);
  EXPECT_EQ(model.step_cadence.host_interval_ps, Ms(10));
  EXPECT_EQ(model.step_cadence.device_interval_ps, Ms(10));
  EXPECT_FALSE(model.step_cadence.device_bound) << "the lag holds at 4 ms";
  EXPECT_EQ(model.step_cadence.mean_device_lag_ps, Ms(4));
}

// A host that issues a step every 10 ms and a device that needs 13 ms for each: the
// device falls 3 ms further behind every step, so the steps follow its completions.
TEST(GpuStepBreakdownTest, ADeviceThatFallsBehindSetsTheStepTime) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  int gpu = t.Plane("/device:GPU:0");
  auto compute = t.LineIn(gpu, 7, "Stream #7(Compute)");
  constexpr int kSteps = 4;
  for (int s = 0; s < kSteps; ++s) {
    const double b = 10.0 * s;
    const uint64_t c = 100 * static_cast<uint64_t>(s + 1);
    t.Event(main, "ProfilerStep", b, b + 10, {{"step_num", s}, {"_r", 1}});
    t.Event(main, "cudaLaunchKernel", b + 1, b + 2, {{"correlation_id", c}});
    t.Event(compute, "sgemm", 2 + 13.0 * s, 15 + 13.0 * s, {{"correlation_id", c}});
  }
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), static_cast<size_t>(kSteps));
  EXPECT_TRUE(model.step_cadence.device_bound);
  EXPECT_EQ(model.step_cadence.host_interval_ps, Ms(10));
  EXPECT_EQ(model.step_cadence.device_interval_ps, Ms(13));
  EXPECT_EQ(model.step_cadence.lag_growth_per_step_ps(), Ms(3));
  // Windows: [0, 15), [15, 28), [28, 41), [41, 54).
  for (int s = 0; s < kSteps; ++s) {
    const StepInfo& step = model.steps[s];
    SCOPED_TRACE(step.name);
    EXPECT_EQ(step.time_source, StepTimeSource::kDeviceCompletions);
    EXPECT_EQ(step.begin_ps, s == 0 ? 0 : Ms(2 + 13.0 * s));
    EXPECT_EQ(step.duration_ps, s == 0 ? Ms(15) : Ms(13));
    EXPECT_EQ(step.breakdown.total_ps(), step.duration_ps);
    EXPECT_EQ(step.device_lag_ps(), Ms(5 + 3.0 * s));
  }
}

// A device event of a step that runs after the next step's device work began counts in
// the window where it runs (under step 1's kernel, where compute wins), and ends its own
// step's device work 1.6 ms after its host step.
TEST(GpuStepBreakdownTest, ALateCopyCountsInTheWindowWhereItRuns) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  int gpu = t.Plane("/device:GPU:0");
  auto compute = t.LineIn(gpu, 7, "Stream #7(Compute)");
  auto copies = t.LineIn(gpu, 8, "Stream #8(Memcpy)");
  t.Event(main, "ProfilerStep", 0, 10, {{"step_num", 0}, {"_r", 1}});
  t.Event(main, "cudaLaunchKernel", 0.5, 1, {{"correlation_id", uint64_t{1}}});
  t.Event(compute, "k0", 1, 5, {{"correlation_id", uint64_t{1}}});
  t.Event(main, "cudaMemcpyAsync", 5, 5.5, {{"correlation_id", uint64_t{2}}});
  t.Event(copies, "MemcpyD2H", 10.6, 11.6, {{"correlation_id", uint64_t{2}}, {"memcpy_details", kD2hDetails}});
  t.Event(main, "ProfilerStep", 10, 20, {{"step_num", 1}, {"_r", 1}});
  t.Event(main, "cudaLaunchKernel", 10, 10.5, {{"correlation_id", uint64_t{3}}});
  t.Event(compute, "k1", 10.5, 15, {{"correlation_id", uint64_t{3}}});
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  const StepInfo& first = model.steps[0];
  EXPECT_EQ(first.time_source, StepTimeSource::kStepStarts);
  EXPECT_EQ(first.breakdown.ps(EventType::kDeviceToHost), 0) << "the copy at [10.6, 11.6) is in step 1's window";
  EXPECT_EQ(first.device_end_ps, Ms(11.6));
  EXPECT_EQ(first.device_lag_ps(), Ms(1.6));
  EXPECT_EQ(first.device_busy_ps, Ms(5));
  EXPECT_EQ(first.breakdown.ps(EventType::kDeviceCompute32), Ms(4));
  EXPECT_EQ(first.breakdown.ps(EventType::kHostPrepare), Ms(1));
  EXPECT_EQ(first.breakdown.ps(EventType::kUnknownTime), Ms(5));
  const StepInfo& second = model.steps[1];
  EXPECT_EQ(second.time_source, StepTimeSource::kStepStarts);
  EXPECT_EQ(second.breakdown.ps(EventType::kDeviceToHost), 0) << "step 0's copy runs under step 1's kernel";
  EXPECT_EQ(second.breakdown.ps(EventType::kDeviceCompute32), Ms(4.5));
  EXPECT_EQ(second.breakdown.ps(EventType::kHostPrepare), Ms(0.5));
  EXPECT_EQ(second.breakdown.ps(EventType::kUnknownTime), Ms(5));
}

// The issue's PyTorch 1.9 ResNet shape: the forward is launched from the main thread, the
// backward from pt_autograd_0, and kernels keep the GPU busy 56 % of every step. Device
// compute must be those 56 %, "other" only the idle rest the host does not cover.
TEST(GpuStepBreakdownTest, BackwardOnTheAutogradThreadCountsAsDeviceCompute) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  auto autograd = t.HostLine(2, "pt_autograd_0");
  int gpu = t.Plane("/device:GPU:0");
  auto compute = t.LineIn(gpu, 7, "Stream #7(Compute)");
  constexpr int kSteps = 4;
  for (int s = 0; s < kSteps; ++s) {
    const double b = 100.0 * s;
    const uint64_t c = 1000 * static_cast<uint64_t>(s + 1);
    t.Event(main, "ProfilerStep", b, b + 100, {{"step_num", s}, {"_r", 1}});
    // Forward: 4 launches of 1 ms from the main thread, kernels of 5 ms each (20 ms busy).
    t.Event(main, "aten::forward", b, b + 30);
    for (int k = 0; k < 4; ++k) {
      t.Event(main, "cudaLaunchKernel", b + 1 + k, b + 2 + k, {{"correlation_id", c + k}});
      t.Event(compute, "fwd_kernel", b + 2 + 5 * k, b + 7 + 5 * k, {{"correlation_id", c + k}});
    }
    // Backward: 6 launches of 1 ms from the autograd thread, kernels of 6 ms each (36 ms).
    t.Event(autograd, "autograd::engine::evaluate_function", b + 30, b + 40);
    for (int k = 0; k < 6; ++k) {
      t.Event(autograd, "cudaLaunchKernel", b + 31 + k, b + 32 + k, {{"correlation_id", c + 100 + k}});
      t.Event(compute, "bwd_kernel", b + 40 + 6 * k, b + 46 + 6 * k, {{"correlation_id", c + 100 + k}});
    }
  }
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), static_cast<size_t>(kSteps));
  for (const StepInfo& step : model.steps) {
    SCOPED_TRACE(step.name);
    const StepBreakdown& b = step.breakdown;
    EXPECT_EQ(step.duration_ps, Ms(100));
    EXPECT_EQ(b.category_ps(TimeCategory::kDeviceCompute), Ms(56));
    // [0, 1) aten::forward, [1, 2) first launch, [2, 22) forward kernels, [22, 30)
    // aten::forward, [30, 31) evaluate_function, [31, 37) launches, [37, 40)
    // evaluate_function, [40, 76) backward kernels, [76, 100) nothing.
    EXPECT_EQ(b.ps(EventType::kHostCompute), Ms(1 + 8 + 1 + 3));
    EXPECT_EQ(b.ps(EventType::kHostPrepare), Ms(1 + 6));
    EXPECT_EQ(b.category_ps(TimeCategory::kOther), Ms(24));
    EXPECT_EQ(b.total_ps(), Ms(100));
  }
  EXPECT_EQ(model.device_step_ties.by_launch, 4 * kSteps);
  EXPECT_EQ(model.device_step_ties.by_launch_window, 6 * kSteps);
  EXPECT_EQ(model.device_step_ties.untied(), 0);
}

// A file TF grouped without a device `Steps` line: the GPU's step markers are derived
// from its events' groups (XProf derives the line when it preprocesses), so a group with
// device work and no host marker is a step, timed by its device work.
TEST(GpuStepBreakdownTest, GroupedFileWithoutAStepsLineGetsDerivedDeviceSteps) {
  TestSpace t;
  auto executor = t.HostLine(11, "tf_gpu_private");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 3, "Stream #3(Compute)");
  t.Event(executor, "ExecutorState::Process", 0, 10, {{"group_id", 4}});
  t.Event(stream, "k1", 2, 4, {{"group_id", 4}});
  t.Event(stream, "k2", 5, 6, {{"group_id", 4}});
  ProfileModel model = BuildModelOrFail(t.space);
  EXPECT_EQ(model.step_source, "tf_grouped");
  ASSERT_EQ(model.steps.size(), 1u);
  const StepInfo& step = model.steps[0];
  EXPECT_EQ(step.name, "step 4");
  EXPECT_EQ(step.time_source, StepTimeSource::kDeviceMarker);
  EXPECT_EQ(step.begin_ps, Ms(2));
  EXPECT_EQ(step.duration_ps, Ms(4));
  EXPECT_EQ(step.breakdown.ps(EventType::kDeviceCompute32), Ms(3));
  EXPECT_EQ(step.breakdown.ps(EventType::kHostPrepare), Ms(1)) << "ExecutorState::Process is launch time";
  EXPECT_EQ(model.device_step_ties.by_group_id, 2);
}

// Random overlaps of every device type and of launches, whole milliseconds so that a
// brute-force count per millisecond is exact: each millisecond of a step goes to the
// highest type covering it (the XProf priority), unknown when none does.
TEST(GpuStepBreakdownTest, RandomOverlapsMatchAMillisecondByMillisecondCount) {
  struct Span {
    int begin, end;
    EventType type;
  };
  struct Kind {
    const char* name;
    const char* details;  // memcpy_details, or nullptr
    EventType type;
  };
  const Kind kinds[] = {{"volta_sgemm_128x64_nn", nullptr, EventType::kDeviceCompute32},
                        {"MemcpyH2D", kH2dDetails, EventType::kHostToDevice},
                        {"MemcpyD2H", kD2hDetails, EventType::kDeviceToHost},
                        {"ncclKernel_AllReduce_RING_LL_Sum_float", nullptr, EventType::kDeviceCollectives}};
  std::mt19937 random(11);
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  int gpu = t.Plane("/device:GPU:0");
  std::vector<TestSpace::Line> streams;
  for (int s = 0; s < 4; ++s) streams.push_back(t.LineIn(gpu, 7 + s, "Stream #" + std::to_string(7 + s)));
  constexpr int kSteps = 30, kStepMs = 40;
  std::vector<std::vector<Span>> expected_spans(kSteps);
  uint64_t correlation = 1;
  for (int step = 0; step < kSteps; ++step) {
    const int b = step * kStepMs;
    t.Event(main, "ProfilerStep", b, b + kStepMs, {{"step_num", step}, {"_r", 1}});
    // Launches one after another on the main thread; each launches one device event
    // somewhere in the step, on a random stream, overlapping whatever is there.
    std::vector<std::vector<Span>> on_stream(streams.size());
    for (int launch = b; launch + 1 < b + kStepMs; launch += 1 + static_cast<int>(random() % 4)) {
      const int launch_end = launch + static_cast<int>(random() % 2);  // some launches take 0 ms
      t.Event(main, "cudaLaunchKernel", launch, launch_end, {{"correlation_id", correlation}});
      if (launch_end > launch) expected_spans[step].push_back({launch, launch_end, EventType::kHostPrepare});
      const Kind& kind = kinds[random() % 4];
      const int begin = b + static_cast<int>(random() % kStepMs);
      const int end = std::min(b + kStepMs, begin + static_cast<int>(random() % 6));
      const size_t stream = random() % streams.size();
      if (kind.details != nullptr) {
        t.Event(streams[stream], kind.name, begin, end, {{"correlation_id", correlation}, {"memcpy_details", kind.details}});
      } else {
        t.Event(streams[stream], kind.name, begin, end, {{"correlation_id", correlation}});
      }
      if (end > begin) expected_spans[step].push_back({begin, end, kind.type});
      ++correlation;
    }
  }
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), static_cast<size_t>(kSteps));
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    std::array<int64_t, kNumEventTypes> want{};
    for (int ms = step * kStepMs; ms < (step + 1) * kStepMs; ++ms) {
      int top = static_cast<int>(EventType::kUnknownTime);
      for (const Span& span : expected_spans[step]) {
        if (span.begin <= ms && ms < span.end) top = std::max(top, static_cast<int>(span.type));
      }
      want[top] += Ms(1);
    }
    const StepInfo& got = model.steps[step];
    EXPECT_EQ(got.begin_ps, Ms(step * kStepMs));
    EXPECT_EQ(got.duration_ps, Ms(kStepMs));
    for (int type = 0; type < kNumEventTypes; ++type) {
      EXPECT_EQ(got.breakdown.type_ps[type], want[type]) << EventTypeName(static_cast<EventType>(type));
    }
  }
}

}  // namespace
}  // namespace stepscope::analysis
