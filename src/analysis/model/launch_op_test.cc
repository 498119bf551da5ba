// Device events attributed to the framework op around their host launch (PyTorch / Kineto
// traces: kernels carry no tf_op, their correlation_id names a cudaLaunchKernel nested in
// cpu_op scopes that carry Kineto's `External id`). docs/model.md, "Op metrics".
#include <gtest/gtest.h>

#include <string>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/model/device_event_details.h"
#include "src/analysis/model/model_test_util.h"
#include "src/analysis/model/op_name.h"

namespace stepscope::analysis {
namespace {

using testing::BuildModelOrFail;
using testing::Ms;
using testing::TestSpace;

constexpr const char* kDetails = "regs:64 static_shared:0 dynamic_shared:0 grid:8,1,1 block:128,1,1 occ_pct:50";

const OpMetrics* FindOp(const OpMetricsDb& db, std::string_view name) {
  for (const OpMetrics& op : db.ops) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

const KernelStats* FindKernel(const ProfileModel& model, std::string_view kernel_name) {
  for (const KernelStats& k : model.kernels) {
    if (k.kernel_name == kernel_name) return &k;
  }
  return nullptr;
}

// What the Kineto importer writes: a cpu_op or user_annotation keeps `External id`, a
// Python frame has `Python id`, the runtime call has `correlation` as correlation_id.
void Op(TestSpace& t, TestSpace::Line line, std::string_view name, double begin, double end, int64_t external_id) {
  t.Event(line, name, begin, end, {{"External id", external_id}});
}
void Launch(TestSpace& t, TestSpace::Line line, double begin, uint64_t correlation) {
  t.Event(line, "cudaLaunchKernel", begin, begin + 0.1,
          {{"correlation_id", correlation}, {"External id", int64_t{999}}, {"cbid", 211}});
}
void Kernel(TestSpace& t, TestSpace::Line stream, std::string_view name, double begin, uint64_t correlation) {
  t.Event(stream, name, begin, begin + 1, {{"correlation_id", correlation}, {"kernel_details", kDetails}});
}

TEST(LaunchOpTest, KernelsTakeThePyTorchOpAroundTheirLaunch) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7");
  t.Event(main, "ProfilerStep", 0, 50, {{"step_num", 3}, {"_r", 1}, {"External id", int64_t{1}}});
  t.Event(main, "model.py(12): forward", 1, 40, {{"Python id", int64_t{5}}});
  // aten::linear > aten::addmm > launch 11: the innermost op.
  Op(t, main, "aten::linear", 2, 6, 2);
  Op(t, main, "aten::addmm", 3, 5, 3);
  Launch(t, main, 4, 11);
  // aten::add > a Python frame > launch 12: Python frames are not ops.
  Op(t, main, "aten::add", 7, 10, 4);
  t.Event(main, "<built-in method add>", 8, 9.5, {{"Python id", int64_t{6}}});
  Launch(t, main, 9, 12);
  // aten::matmul > a user annotation > launch 13: the cpu_op-like name is preferred.
  Op(t, main, "aten::matmul", 11, 15, 5);
  Op(t, main, "my_region", 12, 14, 6);
  Launch(t, main, 13, 13);
  // Only a user annotation around launch 14: the annotation.
  Op(t, main, "Optimizer.step#SGD.step", 16, 20, 7);
  Launch(t, main, 17, 14);
  // Directly in the step (launch 15) and not launched on the host at all (16): no op.
  Launch(t, main, 21, 15);
  // A copy launched in aten::copy_ (17).
  Op(t, main, "aten::copy_", 22, 25, 8);
  t.Event(main, "cudaMemcpyAsync", 23, 23.1, {{"correlation_id", uint64_t{17}}});
  // aten::mm launches two kernels (18, 19) that merge into one op.
  Op(t, main, "aten::mm", 26, 29, 9);
  Launch(t, main, 27, 18);
  Launch(t, main, 28, 19);

  Kernel(t, stream, "gemm_addmm", 30, 11);
  Kernel(t, stream, "add_kernel", 31, 12);
  Kernel(t, stream, "matmul_kernel", 32, 13);
  Kernel(t, stream, "sgd_kernel", 33, 14);
  Kernel(t, stream, "step_kernel", 34, 15);
  Kernel(t, stream, "orphan_kernel", 35, 16);
  t.Event(stream, "MemcpyHtoD", 36, 37, {{"correlation_id", uint64_t{17}}, {"memcpy_details", "size:64"}});
  Kernel(t, stream, "mm_kernel_a", 38, 18);
  Kernel(t, stream, "mm_kernel_b", 39, 19);
  ProfileModel model = BuildModelOrFail(t.space);

  auto op_of = [&](std::string_view kernel) {
    const KernelStats* k = FindKernel(model, kernel);
    return k == nullptr ? std::string("<missing>") : k->op_name;
  };
  EXPECT_EQ(op_of("gemm_addmm"), "aten::addmm");
  EXPECT_EQ(op_of("add_kernel"), "aten::add");
  EXPECT_EQ(op_of("matmul_kernel"), "aten::matmul");
  EXPECT_EQ(op_of("sgd_kernel"), "Optimizer.step#SGD.step");
  EXPECT_EQ(op_of("step_kernel"), "") << "a step marker is not an op";
  EXPECT_EQ(op_of("orphan_kernel"), "");
  EXPECT_EQ(op_of("mm_kernel_a"), "aten::mm");
  EXPECT_TRUE(FindKernel(model, "gemm_addmm")->is_op_tensor_core_eligible);
  EXPECT_TRUE(FindKernel(model, "matmul_kernel")->is_op_tensor_core_eligible);
  EXPECT_FALSE(FindKernel(model, "add_kernel")->is_op_tensor_core_eligible);

  const OpMetrics* addmm = FindOp(model.device_ops, "aten::addmm");
  ASSERT_NE(addmm, nullptr);
  EXPECT_EQ(addmm->type, "aten::addmm");
  EXPECT_EQ(addmm->category, OpCategory::kPyTorch);
  EXPECT_FALSE(addmm->is_host);
  const OpMetrics* mm = FindOp(model.device_ops, "aten::mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->occurrences, 2);
  EXPECT_EQ(mm->self_time_ps, Ms(2));
  const OpMetrics* sgd = FindOp(model.device_ops, "Optimizer.step#SGD.step");
  ASSERT_NE(sgd, nullptr);
  EXPECT_EQ(sgd->category, OpCategory::kOther);
  const OpMetrics* copy = FindOp(model.device_ops, "aten::copy_");
  ASSERT_NE(copy, nullptr) << "copies take the op too";
  EXPECT_EQ(copy->occurrences, 1);
  EXPECT_EQ(FindOp(model.device_ops, "MemcpyHtoD"), nullptr);
  const OpMetrics* orphan = FindOp(model.device_ops, "orphan_kernel");
  ASSERT_NE(orphan, nullptr);
  EXPECT_EQ(orphan->category, OpCategory::kDeviceKernel);
  ASSERT_NE(FindOp(model.device_ops, "step_kernel"), nullptr);
  EXPECT_EQ(FindOp(model.device_ops, "ProfilerStep"), nullptr);
  EXPECT_EQ(FindOp(model.device_ops, "model.py(12): forward"), nullptr);
  EXPECT_EQ(FindOp(model.device_ops, "cudaLaunchKernel"), nullptr);
  // The step and its breakdown are unchanged by the attribution.
  ASSERT_EQ(model.steps.size(), 1u);
  EXPECT_EQ(model.steps[0].step_number, 3);
}

// Without any step marker the launches have no group; the op map does not need one.
TEST(LaunchOpTest, WorksWithoutSteps) {
  TestSpace t;
  auto main = t.HostLine(1, "python3");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7");
  Op(t, main, "aten::conv2d", 0, 4, 1);
  Op(t, main, "aten::cudnn_convolution", 1, 3, 2);
  Launch(t, main, 2, 40);
  Kernel(t, stream, "implicit_convolve_sgemm", 5, 40);
  ProfileModel model = BuildModelOrFail(t.space);
  EXPECT_TRUE(model.steps.empty());
  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.kernels[0].op_name, "aten::cudnn_convolution");
  EXPECT_TRUE(model.kernels[0].is_op_tensor_core_eligible);
  EXPECT_FALSE(model.kernels[0].is_kernel_using_tensor_core);
}

// tf_op (and hlo_op) win over the launching scope: TF profiles keep their results.
TEST(LaunchOpTest, TfOpAndHloOpWin) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7");
  Op(t, main, "aten::mm", 0, 4, 1);
  Launch(t, main, 1, 1);
  Launch(t, main, 2, 2);
  t.Event(stream, "tf_kernel", 5, 6,
          {{"correlation_id", uint64_t{1}}, {"kernel_details", kDetails}, {"tf_op", "model/dense/MatMul:MatMul"}});
  t.Event(stream, "xla_kernel", 6, 7,
          {{"correlation_id", uint64_t{2}}, {"kernel_details", kDetails}, {"hlo_op", "dot.3"}});
  ProfileModel model = BuildModelOrFail(t.space);
  EXPECT_EQ(FindKernel(model, "tf_kernel")->op_name, "model/dense/MatMul");
  EXPECT_EQ(FindKernel(model, "xla_kernel")->op_name, "dot.3");
  EXPECT_EQ(FindOp(model.device_ops, "aten::mm"), nullptr);
}

// Host scopes without Kineto's External id (TF ops, executor events, stepscope
// annotations) are not launch ops: the kernel keeps its own name, as before.
TEST(LaunchOpTest, ScopesWithoutExternalIdAreNotLaunchOps) {
  TestSpace t;
  auto main = t.HostLine(1, "main");
  int gpu = t.Plane("/device:GPU:0");
  auto stream = t.LineIn(gpu, 7, "Stream #7");
  t.Event(main, "ExecutorState::Process", 0, 5);
  t.Event(main, "model/dense/MatMul:MatMul", 1, 4);
  t.Event(main, "aten::mm", 2, 3.5);
  t.Event(main, "cudaLaunchKernel", 3, 3.2, {{"correlation_id", uint64_t{7}}});
  Kernel(t, stream, "volta_sgemm_128x64_nn", 6, 7);
  ProfileModel model = BuildModelOrFail(t.space);
  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.kernels[0].op_name, "");
  const OpMetrics* op = FindOp(model.device_ops, "volta_sgemm_128x64_nn");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->category, OpCategory::kDeviceKernel);
}

TEST(LaunchOpTest, CpuOpLikeNames) {
  EXPECT_TRUE(IsCpuOpLikeName("aten::addmm"));
  EXPECT_TRUE(IsCpuOpLikeName("torch::autograd::CppNode<SplitLookupFunction_rowwise_adagrad_Op>"));
  EXPECT_TRUE(IsCpuOpLikeName("c10d::allreduce_"));
  EXPECT_TRUE(IsCpuOpLikeName("fbgemm::permute_sparse_features"));
  EXPECT_FALSE(IsCpuOpLikeName("autograd::engine::evaluate_function: MmBackward0"));
  EXPECT_FALSE(IsCpuOpLikeName("Optimizer.step#SGD.step"));
  EXPECT_FALSE(IsCpuOpLikeName("## forward ##"));
  EXPECT_FALSE(IsCpuOpLikeName("nn.Module: Linear_0"));
  EXPECT_FALSE(IsCpuOpLikeName("torch/nn/modules/module.py(1501): _call_impl"));
  EXPECT_FALSE(IsCpuOpLikeName("::leading"));
  EXPECT_FALSE(IsCpuOpLikeName("trailing::"));
  EXPECT_FALSE(IsCpuOpLikeName("model/dense/MatMul:MatMul"));
}

TEST(LaunchOpTest, AtenMatmulAndConvOpsAreTensorCoreEligible) {
  for (const char* op : {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear",
                         "aten::_scaled_mm", "aten::conv2d", "aten::convolution", "aten::_convolution",
                         "aten::cudnn_convolution", "aten::convolution_backward", "aten::conv_transpose2d",
                         "aten::_cudnn_rnn", "aten::lstm", "aten::_flash_attention_forward",
                         "aten::_scaled_dot_product_efficient_attention"}) {
    EXPECT_TRUE(IsOpTensorCoreEligible(op)) << op;
  }
  for (const char* op : {"aten::add", "aten::mul", "aten::native_layer_norm", "aten::copy_", "aten::contiguous",
                         "aten::mm_something_else", "aten::softmax", "mm", "my::mm",
                         "Optimizer.step#SGD.step"}) {
    EXPECT_FALSE(IsOpTensorCoreEligible(op)) << op;
  }
  // The TF names still are.
  EXPECT_TRUE(IsOpTensorCoreEligible("model/dense/MatMul"));
}

}  // namespace
}  // namespace stepscope::analysis
