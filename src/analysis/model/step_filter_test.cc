// ModelOptions::step: the model of one step counts that step group's events alone, on a
// profile where every step's numbers are different and known.
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

constexpr int kSteps = 3;
double StepBegin(int s) { return 10.0 + 20.0 * s; }  // 10 ms steps, 10 ms gaps between them
constexpr const char* kDetails = "regs:32 grid:1,1,1 block:32,1,1";

// Per step s at b = StepBegin(s), a ProfilerStep marker [b, b+10) on the main thread:
//   aten::linear [b, b+1+s) launching sgemm, which runs [b+1, b+2+s): (s+1) ms;
//   on pt_autograd_0 (no markers; joins by the step window) evaluate_function [b+3, b+4)
//   launching sgemm_bwd, 0.5 ms at [b+5, b+5.5);
//   step 2 alone: aten::relu [b+6, b+7) launching relu_kernel, 0.25 ms.
// In the gap after step 0: a launch and its kernel, which belong to step 0 (a step lasts
// until the next one starts).
xspace::XSpace MakeSpace() {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  auto autograd = t.HostLine(2, "pt_autograd_0");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7(Compute)");
  for (int s = 0; s < kSteps; ++s) {
    const double b = StepBegin(s);
    const uint64_t forward = 100 + 10 * s, backward = forward + 1, relu = forward + 2;
    t.Event(main, "ProfilerStep", b, b + 10, {{"step_num", s}, {"_r", 1}});
    t.Event(main, "aten::linear", b, b + 1 + s);
    t.Event(main, "cudaLaunchKernel", b + 0.2, b + 0.5, {{"correlation_id", forward}});
    t.Event(stream, "sgemm", b + 1, b + 2 + s, {{"correlation_id", forward}, {"kernel_details", kDetails}});
    t.Event(autograd, "evaluate_function", b + 3, b + 4);
    t.Event(autograd, "cudaLaunchKernel", b + 3.2, b + 3.4, {{"correlation_id", backward}});
    t.Event(stream, "sgemm_bwd", b + 5, b + 5.5, {{"correlation_id", backward}, {"kernel_details", kDetails}});
    if (s == 2) {
      t.Event(main, "aten::relu", b + 6, b + 7);
      t.Event(main, "cudaLaunchKernel", b + 6.2, b + 6.4, {{"correlation_id", relu}});
      t.Event(stream, "relu_kernel", b + 7, b + 7.25, {{"correlation_id", relu}, {"kernel_details", kDetails}});
    }
  }
  t.Event(main, "cudaLaunchKernel", 22, 22.5, {{"correlation_id", uint64_t{999}}});
  t.Event(stream, "gap_kernel", 23, 24, {{"correlation_id", uint64_t{999}}, {"kernel_details", kDetails}});
  return t.space;
}

ProfileModel StepModelOrFail(const xspace::XSpace& space, int64_t step) {
  ModelOptions options;
  options.step = step;
  StatusOr<ProfileModel> model = BuildProfileModelFromXSpace(space, options);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

const KernelStats* FindKernel(const ProfileModel& model, std::string_view name) {
  auto it = std::find_if(model.kernels.begin(), model.kernels.end(),
                         [&](const KernelStats& k) { return k.kernel_name == name; });
  return it == model.kernels.end() ? nullptr : &*it;
}

const OpMetrics* FindOp(const OpMetricsDb& db, std::string_view name) {
  auto it = std::find_if(db.ops.begin(), db.ops.end(), [&](const OpMetrics& op) { return op.name == name; });
  return it == db.ops.end() ? nullptr : &*it;
}

TEST(StepFilterTest, WholeModelCountsEveryStepAndTheGap) {
  ProfileModel all = BuildModelOrFail(MakeSpace());
  ASSERT_EQ(all.steps.size(), static_cast<size_t>(kSteps));
  ASSERT_NE(FindKernel(all, "sgemm"), nullptr);
  EXPECT_EQ(FindKernel(all, "sgemm")->occurrences, kSteps);
  EXPECT_EQ(FindKernel(all, "sgemm")->total_duration_ps, Ms(1 + 2 + 3));
  EXPECT_NE(FindKernel(all, "gap_kernel"), nullptr);
}

TEST(StepFilterTest, EachStepsModelHoldsThatStepsKernelsOpsAndDeviceTimeAlone) {
  const xspace::XSpace space = MakeSpace();
  ProfileModel all = BuildModelOrFail(space);
  ASSERT_EQ(all.steps.size(), static_cast<size_t>(kSteps));
  for (int s = 0; s < kSteps; ++s) {
    SCOPED_TRACE("step " + std::to_string(s));
    ProfileModel one = StepModelOrFail(space, s);
    ASSERT_EQ(one.steps.size(), 1u);
    EXPECT_EQ(one.steps[0].step_number, s);
    EXPECT_EQ(one.steps[0].duration_ps, all.steps[s].duration_ps);
    EXPECT_EQ(one.steps[0].breakdown.type_ps, all.steps[s].breakdown.type_ps) << "the same breakdown as in the whole model";

    const KernelStats* sgemm = FindKernel(one, "sgemm");
    ASSERT_NE(sgemm, nullptr);
    EXPECT_EQ(sgemm->occurrences, 1);
    EXPECT_EQ(sgemm->total_duration_ps, Ms(s + 1));
    const KernelStats* backward = FindKernel(one, "sgemm_bwd");
    ASSERT_NE(backward, nullptr) << "launched from the autograd thread, tied by the step window";
    EXPECT_EQ(backward->total_duration_ps, Ms(0.5));
    EXPECT_EQ(FindKernel(one, "gap_kernel") != nullptr, s == 0) << "launched between steps 0 and 1: step 0's";
    EXPECT_EQ(FindKernel(one, "relu_kernel") != nullptr, s == 2);
    EXPECT_EQ(one.kernels.size(), s == 1 ? 2u : 3u);

    const double relu_ms = s == 2 ? 0.25 : 0;
    ASSERT_EQ(one.devices.size(), 1u);
    const double gap_ms = s == 0 ? 1 : 0;
    EXPECT_EQ(one.devices[0].kernel_count, s == 1 ? 2 : 3);
    EXPECT_EQ(one.devices[0].busy_ps, Ms(s + 1 + 0.5 + relu_ms + gap_ms));
    EXPECT_EQ(one.device_ops.total_time_ps, one.devices[0].last_end_ps - one.devices[0].first_begin_ps);

    const OpMetrics* linear = FindOp(one.host_ops, "aten::linear");
    ASSERT_NE(linear, nullptr);
    EXPECT_EQ(linear->occurrences, 1);
    EXPECT_EQ(linear->total_time_ps, Ms(1 + s));
    EXPECT_EQ(FindOp(one.host_ops, "aten::relu") != nullptr, s == 2);
    // Main thread: the marker's 10 ms, all busy (step 0: and the gap's launch 2 ms after
    // it); autograd thread: evaluate_function's 1 ms.
    EXPECT_EQ(one.host_ops.total_time_ps, s == 0 ? Ms(13.5) : Ms(11));
    EXPECT_EQ(one.host_ops.idle_time_ps, s == 0 ? Ms(2) : 0);
  }
}

TEST(StepFilterTest, AStepNumberThatIsNotThereIsNotFoundNamingTheSteps) {
  ModelOptions options;
  options.step = 7;
  StatusOr<ProfileModel> model = BuildProfileModelFromXSpace(MakeSpace(), options);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), StatusCode::kNotFound);
  EXPECT_NE(model.status().message().find("no step 7"), std::string::npos) << model.status().message();
  EXPECT_NE(model.status().message().find("0 to 2"), std::string::npos) << model.status().message();
}

}  // namespace
}  // namespace stepscope::analysis
