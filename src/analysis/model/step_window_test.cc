// The step-window rule (host_analysis.h, docs/model.md "Steps"): work launched from a
// thread without step markers joins the step whose marker window holds it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/model_test_util.h"

namespace stepscope::analysis {
namespace {

using testing::BuildModelOrFail;
using testing::Ms;
using testing::TestSpace;

const std::string* FindDiagnostic(const ProfileModel& model, std::string_view needle) {
  auto it = std::find_if(model.diagnostics.begin(), model.diagnostics.end(),
                         [&](const std::string& d) { return d.find(needle) != std::string::npos; });
  return it == model.diagnostics.end() ? nullptr : &*it;
}

constexpr int kSteps = 3;
double StepBegin(int s) { return 10.0 + 12.0 * s; }  // 10 ms steps, 2 ms gaps between them

// PyTorch's shape: ProfilerStep markers on the main thread, which launches the forward
// kernel (2 ms); the backward runs on pt_autograd_0, which has no marker, inside one
// long-lived event, and launches a 3 ms kernel per step. Per step [b, b+10):
//   host:   aten::linear [b, b+2) with its launch [b+0.5, b+1);
//           evaluate_function [b+3, b+5) with its launch [b+3.5, b+4)  (autograd thread)
//   device: forward kernel [b+1, b+3), backward kernel [b+4, b+7)
// Between the markers: one autograd launch in the gap after step 0 (its kernel runs in the
// gap too), which joins step 0 (a step lasts until the next one starts); after the last
// step: one kernel without correlation_id and one whose correlation_id no host event has.
xspace::XSpace MakeAutogradThreadSpace() {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  auto autograd = t.HostLine(2, "pt_autograd_0");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  t.Event(autograd, "autograd thread loop", 5, 50);  // starts before every step: not a step's
  for (int s = 0; s < kSteps; ++s) {
    double b = StepBegin(s);
    uint64_t forward = 100 + 10 * s, backward = forward + 1;
    t.Event(main, "ProfilerStep", b, b + 10, {{"step_num", s}, {"_r", 1}});
    t.Event(main, "aten::linear", b, b + 2);
    t.Event(main, "cudaLaunchKernel", b + 0.5, b + 1, {{"correlation_id", forward}});
    t.Event(stream, "sgemm_fwd", b + 1, b + 3, {{"correlation_id", forward}});
    t.Event(autograd, "autograd::engine::evaluate_function: AddmmBackward0", b + 3, b + 5);
    t.Event(autograd, "cudaLaunchKernel", b + 3.5, b + 4, {{"correlation_id", backward}});
    t.Event(stream, "sgemm_bwd", b + 4, b + 7, {{"correlation_id", backward}});
  }
  t.Event(autograd, "cudaLaunchKernel", 20.5, 21, {{"correlation_id", uint64_t{999}}});  // in the gap
  t.Event(stream, "gap_kernel", 21, 21.5, {{"correlation_id", uint64_t{999}}});
  t.Event(stream, "no_correlation", 45, 46);
  t.Event(stream, "unknown_launch", 46, 47, {{"correlation_id", uint64_t{12345}}});
  return t.space;
}

TEST(StepWindowTest, AutogradThreadKernelsJoinTheStepWhoseWindowHoldsTheirLaunch) {
  ProfileModel model = BuildModelOrFail(MakeAutogradThreadSpace());
  EXPECT_EQ(model.step_source, "step_markers");
  ASSERT_EQ(model.steps.size(), static_cast<size_t>(kSteps));
  // Windows [10, 22), [22, 34), [34, 44): forward 2 ms + backward 3 ms of kernels, both
  // launches 1 ms, aten::linear and evaluate_function 1 ms outside launches and kernels;
  // step 0 also holds the gap's launch (0.5 ms) and kernel (0.5 ms).
  const double device[kSteps] = {5.5, 5, 5}, launch[kSteps] = {1.5, 1, 1}, length[kSteps] = {12, 12, 10};
  for (int s = 0; s < kSteps; ++s) {
    const StepInfo& step = model.steps[s];
    SCOPED_TRACE(step.name);
    const StepBreakdown& b = step.breakdown;
    EXPECT_EQ(step.duration_ps, Ms(length[s]));
    EXPECT_EQ(b.category_ps(TimeCategory::kDeviceCompute), Ms(device[s]));
    EXPECT_EQ(b.ps(EventType::kHostPrepare), Ms(launch[s]));
    EXPECT_EQ(b.ps(EventType::kHostCompute), Ms(1));
    EXPECT_EQ(b.ps(EventType::kUnknownTime), Ms(length[s] - device[s] - launch[s] - 1)) << "nothing runs";
    EXPECT_EQ(b.total_ps(), Ms(length[s]));
  }
  const DeviceStepTies& ties = model.device_step_ties;
  EXPECT_EQ(ties.by_launch, kSteps);
  EXPECT_EQ(ties.by_launch_window, kSteps + 1) << "the backward kernels and the gap's";
  EXPECT_EQ(ties.by_group_id, 0);
  EXPECT_EQ(ties.launch_outside_steps, 0);
  EXPECT_EQ(ties.no_launch, 2);
  const std::string* window = FindDiagnostic(model, "tied to a step by the step window");
  ASSERT_NE(window, nullptr);
  EXPECT_EQ(window->rfind("4 device events were tied", 0), 0u) << *window;
  EXPECT_NE(window->find("3 by the step marker around their launch"), std::string::npos) << *window;
  const std::string* untied = FindDiagnostic(model, "could not be tied to a step");
  ASSERT_NE(untied, nullptr);
  EXPECT_NE(untied->find("2 device events could not be tied to a step (no group_id and no host launch"),
            std::string::npos)
      << *untied;
}

// Without the autograd thread's events the backward kernel is untied: it still ran in the
// step's window and counts there, but the step launched only the forward kernel.
TEST(StepWindowTest, AKernelWithoutItsLaunchCountsInTheWindowButNotAsTheStepsWork) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  t.Event(main, "ProfilerStep", 0, 10, {{"step_num", 1}, {"_r", 1}});
  t.Event(main, "cudaLaunchKernel", 0.5, 1, {{"correlation_id", uint64_t{1}}});
  t.Event(stream, "sgemm_fwd", 1, 3, {{"correlation_id", uint64_t{1}}});
  t.Event(stream, "sgemm_bwd", 4, 7, {{"correlation_id", uint64_t{2}}});  // its launch was not recorded
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), 1u);
  EXPECT_EQ(model.steps[0].breakdown.category_ps(TimeCategory::kDeviceCompute), Ms(5));
  EXPECT_EQ(model.steps[0].device_busy_ps, Ms(2)) << "what the step launched";
  EXPECT_EQ(model.device_step_ties.no_launch, 1);
  EXPECT_EQ(model.device_step_ties.by_launch_window, 0);
  EXPECT_EQ(FindDiagnostic(model, "tied to a step by the step window"), nullptr) << "said only when it did work";
}

// Windows of different steps overlap (markers on two threads): the step that began last
// takes the instant. Nested windows: the inner one. Outside every window: no step.
TEST(StepWindowTest, OverlappingWindowsPreferTheStepThatBeganLast) {
  TestSpace t;
  auto a = t.HostLine(1, "a");
  auto b = t.HostLine(2, "b");
  auto worker = t.HostLine(3, "worker");  // no markers
  t.Event(a, "train", 0, 10, {{"step_num", 1}, {"_r", 1}});
  t.Event(b, "eval", 6, 16, {{"step_num", 1}, {"_r", 1}});
  t.Event(worker, "y", 3, 4);      // train only
  t.Event(worker, "x", 7, 8);      // both: eval began last
  t.Event(worker, "z", 12, 13.5);  // eval only
  t.Event(worker, "w", 17, 18);    // none
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  EXPECT_EQ(model.steps[0].name, "train 1");
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostCompute), Ms(1));
  EXPECT_EQ(model.steps[1].name, "eval 1");
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kHostCompute), Ms(2.5));
}

TEST(StepWindowTest, NestedWindowsPreferTheInnerStep) {
  TestSpace t;
  auto a = t.HostLine(1, "a");
  auto worker = t.HostLine(3, "worker");
  t.Event(a, "epoch", 0, 100, {{"_r", 1}});
  t.Event(a, "train", 10, 20, {{"_r", 2}, {"step_num", 7}});
  t.Event(worker, "inner", 12, 14);
  t.Event(worker, "outer", 30, 33);
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  EXPECT_EQ(model.steps[1].name, "train 7");
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kHostCompute), Ms(2));
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostCompute), Ms(3));
}

// An event that starts in a window takes its whole subtree, even a child that starts
// after the window's end; its time counts in the window where it runs.
TEST(StepWindowTest, AnEventStartingInAWindowTakesItsSubtree) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  auto worker = t.HostLine(2, "worker");
  t.Event(main, "train", 0, 10, {{"step_num", 0}, {"_r", 1}});
  t.Event(main, "train", 10, 20, {{"step_num", 1}, {"_r", 1}});
  t.Event(worker, "parent", 8, 14);
  t.Event(worker, "IteratorGetNext", 11, 13);  // child of parent: step 0's, outside its window
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.steps.size(), 2u);
  EXPECT_EQ(model.steps[0].breakdown.ps(EventType::kHostCompute), Ms(2)) << "parent's [8, 10)";
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kHostCompute), Ms(2)) << "parent's [10, 11) and [13, 14)";
  EXPECT_EQ(model.steps[1].breakdown.ps(EventType::kHostWaitInput), Ms(2)) << "the wait runs in step 1's window";
}

// A file TensorFlow grouped keeps TF's groups: an ungrouped launch inside a step's time
// stays untied (its launch is outside every step group).
TEST(StepWindowTest, TensorFlowGroupedFilesGetNoWindowRule) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  auto other = t.HostLine(2, "other");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  t.Event(main, "train", 0, 10, {{"group_id", 0}, {"step_num", 0}});
  t.Event(main, "cudaLaunchKernel", 1, 2, {{"group_id", 0}, {"correlation_id", uint64_t{1}}});
  t.Event(stream, "k", 2, 4, {{"correlation_id", uint64_t{1}}});
  t.Event(other, "cudaLaunchKernel", 3, 3.5, {{"correlation_id", uint64_t{2}}});
  t.Event(stream, "k2", 5, 6, {{"correlation_id", uint64_t{2}}});
  ProfileModel model = BuildModelOrFail(t.space);
  EXPECT_EQ(model.step_source, "tf_grouped");
  ASSERT_EQ(model.steps.size(), 1u);
  EXPECT_EQ(model.steps[0].breakdown.category_ps(TimeCategory::kDeviceCompute), Ms(2));
  EXPECT_EQ(model.device_step_ties.by_launch, 1);
  EXPECT_EQ(model.device_step_ties.by_launch_window, 0);
  EXPECT_EQ(model.device_step_ties.launch_outside_steps, 1);
}

}  // namespace
}  // namespace stepscope::analysis
