#include "src/hlo/hlo_cost.h"

#include <gtest/gtest.h>

#include <string>

#include "src/hlo/hlo_reader.h"
#include "src/hlo/hlo_test_util.h"

namespace stepscope::hlo {
namespace {

using testing::AddComputation;
using testing::AddInstruction;
using testing::ArrayShape;
using testing::TupleShape;
namespace xp = ::stepscope::xla_hlo;

// Every expected number below is worked out by hand in the comment above it.

struct Costed {
  HloModule module;
  OpCost Of(const std::string& name) const {
    HloCostModel model(module);
    return model.cost(module.FindInstruction(name));
  }
};

Costed Read(const xp::HloProto& proto) {
  std::string bytes;
  EXPECT_TRUE(proto.SerializeToString(&bytes));
  StatusOr<HloModule> module = ParseHloProto(bytes);
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return {module.ok() ? std::move(module).value() : HloModule{}};
}

TEST(HloCostTest, DotCountsTwoOperationsPerMultiplyAdd) {
  xp::HloProto proto;
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 1, "lhs", "parameter", ArrayShape(kBF16, {8, 16}));
  AddInstruction(entry, 2, "rhs", "parameter", ArrayShape(kBF16, {16, 4}));
  xp::HloInstructionProto* dot = AddInstruction(entry, 3, "dot", "dot", ArrayShape(kF32, {8, 4}), {1, 2});
  dot->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
  dot->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(0);
  // Batched: [3,8,16] x [3,16,4] -> [3,8,4], batch dimension 0.
  AddInstruction(entry, 4, "blhs", "parameter", ArrayShape(kF32, {3, 8, 16}));
  AddInstruction(entry, 5, "brhs", "parameter", ArrayShape(kF32, {3, 16, 4}));
  xp::HloInstructionProto* batched = AddInstruction(entry, 6, "batched", "dot", ArrayShape(kF32, {3, 8, 4}), {4, 5});
  batched->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(2);
  batched->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(1);
  batched->mutable_dot_dimension_numbers()->add_lhs_batch_dimensions(0);
  batched->mutable_dot_dimension_numbers()->add_rhs_batch_dimensions(0);
  Costed costed = Read(proto);

  // 8x4 outputs, each a sum of 16 products: 2 * 8 * 4 * 16 = 1024 operations.
  // Bytes: lhs 8*16*2 = 256, rhs 16*4*2 = 128, output 8*4*4 = 128: 512.
  OpCost d = costed.Of("dot");
  EXPECT_DOUBLE_EQ(d.flops, 1024);
  EXPECT_DOUBLE_EQ(d.bytes_accessed, 512);
  EXPECT_DOUBLE_EQ(d.arithmetic_intensity(), 2.0);
  // 2 * (3*8*4) * 16 = 3072; bytes 4 * (384 + 192 + 96) = 2688.
  OpCost b = costed.Of("batched");
  EXPECT_DOUBLE_EQ(b.flops, 3072);
  EXPECT_DOUBLE_EQ(b.bytes_accessed, 2688);
}

// An NHWC input, HWIO kernel convolution with the given dimension labels.
xp::HloInstructionProto* AddConvolution(xp::HloComputationProto* entry, int64_t id, const std::string& name,
                                        const xp::ShapeProto& output, int64_t input, int64_t kernel, int64_t groups) {
  xp::HloInstructionProto* conv = AddInstruction(entry, id, name, "convolution", output, {input, kernel});
  for (int i = 0; i < 2; ++i) {
    xp::WindowDimension* w = conv->mutable_window()->add_dimensions();
    w->set_size(3);
    w->set_stride(1);
    w->set_padding_low(1);
    w->set_padding_high(1);
  }
  xp::ConvolutionDimensionNumbers* d = conv->mutable_convolution_dimension_numbers();
  d->set_input_batch_dimension(0);
  d->set_input_feature_dimension(3);
  d->add_input_spatial_dimensions(1);
  d->add_input_spatial_dimensions(2);
  d->add_kernel_spatial_dimensions(0);
  d->add_kernel_spatial_dimensions(1);
  d->set_kernel_input_feature_dimension(2);
  d->set_kernel_output_feature_dimension(3);
  d->set_output_batch_dimension(0);
  d->set_output_feature_dimension(3);
  d->add_output_spatial_dimensions(1);
  d->add_output_spatial_dimensions(2);
  conv->set_feature_group_count(groups);
  return conv;
}

TEST(HloCostTest, ConvolutionCountsTheWindowAndInputFeaturesPerOutput) {
  xp::HloProto proto;
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 1, "input", "parameter", ArrayShape(kF32, {1, 8, 8, 3}));
  AddInstruction(entry, 2, "kernel", "parameter", ArrayShape(kF32, {3, 3, 3, 16}));
  AddConvolution(entry, 3, "conv", ArrayShape(kF32, {1, 8, 8, 16}), 1, 2, 1);
  // Grouped (depthwise-like): 6 input features in 3 groups of 2, 6 output features.
  AddInstruction(entry, 4, "ginput", "parameter", ArrayShape(kF32, {1, 8, 8, 6}));
  AddInstruction(entry, 5, "gkernel", "parameter", ArrayShape(kF32, {3, 3, 2, 6}));
  AddConvolution(entry, 6, "grouped", ArrayShape(kF32, {1, 8, 8, 6}), 4, 5, 3);
  // The same convolution as a cuDNN / MIOpen custom call returning (result, workspace).
  xp::HloInstructionProto* call =
      AddConvolution(entry, 7, "cudnn-conv", TupleShape({ArrayShape(kF32, {1, 8, 8, 16}), ArrayShape(kU8, {4096})}), 1, 2, 1);
  call->set_opcode("custom-call");
  call->set_custom_call_target("__cudnn$convForward");
  Costed costed = Read(proto);

  // 1*8*8*16 = 1024 outputs, each 3x3 window x 3 input features multiply-adds:
  // 2 * 1024 * 9 * 3 = 55296. Bytes: 4 * (192 input + 432 kernel + 1024 output) = 6592.
  OpCost c = costed.Of("conv");
  EXPECT_DOUBLE_EQ(c.flops, 55296);
  EXPECT_DOUBLE_EQ(c.bytes_accessed, 6592);
  // 1*8*8*6 = 384 outputs, each 3x3 x 2 (features per group): 2 * 384 * 18 = 13824.
  // Bytes: 4 * (384 + 108 + 384) = 3504.
  OpCost g = costed.Of("grouped");
  EXPECT_DOUBLE_EQ(g.flops, 13824);
  EXPECT_DOUBLE_EQ(g.bytes_accessed, 3504);
  // The workspace is neither computed nor counted as output.
  OpCost k = costed.Of("cudnn-conv");
  EXPECT_DOUBLE_EQ(k.flops, 55296);
  EXPECT_DOUBLE_EQ(k.bytes_accessed, 6592);
}

TEST(HloCostTest, ElementwiseAndReduceAndDataMovement) {
  xp::HloProto proto;
  xp::HloComputationProto* sum = AddComputation(&proto, 2, "sum");
  AddInstruction(sum, 20, "a", "parameter", ArrayShape(kF32, {}));
  AddInstruction(sum, 21, "b", "parameter", ArrayShape(kF32, {}));
  AddInstruction(sum, 22, "s", "add", ArrayShape(kF32, {}), {20, 21});
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 1, "x", "parameter", ArrayShape(kF32, {8, 4}));
  AddInstruction(entry, 2, "y", "parameter", ArrayShape(kF32, {8, 4}));
  AddInstruction(entry, 3, "add", "add", ArrayShape(kF32, {8, 4}), {1, 2});
  AddInstruction(entry, 4, "zero", "constant", ArrayShape(kF32, {}));
  AddInstruction(entry, 5, "reduce", "reduce", ArrayShape(kF32, {8}), {3, 4})->add_called_computation_ids(2);
  AddInstruction(entry, 6, "transpose", "transpose", ArrayShape(kF32, {4, 8}), {3});
  Costed costed = Read(proto);

  // 32 outputs, one add each; bytes 128 + 128 read, 128 written.
  EXPECT_DOUBLE_EQ(costed.Of("add").flops, 32);
  EXPECT_DOUBLE_EQ(costed.Of("add").bytes_accessed, 384);
  // 32 inputs folded into 8 outputs: 24 adds. Bytes 128 + 4 (init) + 32 (output).
  EXPECT_DOUBLE_EQ(costed.Of("reduce").flops, 24);
  EXPECT_DOUBLE_EQ(costed.Of("reduce").bytes_accessed, 164);
  // Data movement: no operations, 128 read + 128 written.
  EXPECT_DOUBLE_EQ(costed.Of("transpose").flops, 0);
  EXPECT_DOUBLE_EQ(costed.Of("transpose").bytes_accessed, 256);
  EXPECT_DOUBLE_EQ(costed.Of("x").bytes_accessed, 0);
}

TEST(HloCostTest, FusionIsItsBodysOperationsAndItsOwnOperandsAndOutput) {
  xp::HloProto proto;
  xp::HloComputationProto* body = AddComputation(&proto, 2, "fused");
  AddInstruction(body, 20, "p0", "parameter", ArrayShape(kF32, {8, 4}));
  AddInstruction(body, 21, "p1", "parameter", ArrayShape(kF32, {8, 4}))->set_parameter_number(1);
  AddInstruction(body, 22, "mul", "multiply", ArrayShape(kF32, {8, 4}), {20, 21});
  AddInstruction(body, 23, "bcast", "broadcast", ArrayShape(kF32, {8, 4}), {20});
  AddInstruction(body, 24, "sum", "add", ArrayShape(kF32, {8, 4}), {22, 23});
  AddInstruction(body, 25, "exp", "exponential", ArrayShape(kF32, {8, 4}), {24});
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 1, "x", "parameter", ArrayShape(kF32, {8, 4}));
  AddInstruction(entry, 2, "y", "parameter", ArrayShape(kF32, {8, 4}));
  xp::HloInstructionProto* fusion = AddInstruction(entry, 3, "fusion", "fusion", ArrayShape(kF32, {8, 4}), {1, 2});
  fusion->set_fusion_kind("kLoop");
  fusion->add_called_computation_ids(2);
  Costed costed = Read(proto);

  // Body: multiply, add, exponential on 32 elements each (broadcast moves data): 96.
  // Bytes: only what the fused kernel touches in memory: 2 operands x 128 + 128 output.
  OpCost f = costed.Of("fusion");
  EXPECT_DOUBLE_EQ(f.flops, 96);
  EXPECT_DOUBLE_EQ(f.bytes_accessed, 384);
  EXPECT_DOUBLE_EQ(f.arithmetic_intensity(), 0.25);
}

TEST(HloCostTest, GemmCustomCallReadsItsDimensionsFromTheBackendConfig) {
  xp::HloProto proto;
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 1, "a", "parameter", ArrayShape(kBF16, {64, 32}));
  AddInstruction(entry, 2, "b", "parameter", ArrayShape(kBF16, {128, 32}));
  xp::HloInstructionProto* gemm = AddInstruction(
      entry, 3, "gemm", "custom-call", TupleShape({ArrayShape(kBF16, {64, 128}), ArrayShape(kS8, {1024})}), {1, 2});
  gemm->set_custom_call_target("__cublas$gemm");
  gemm->set_backend_config(
      R"({"gemm_backend_config":{"alpha_real":1,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],)"
      R"("rhs_contracting_dimensions":["1"],"lhs_batch_dimensions":[],"rhs_batch_dimensions":[]},"beta":0}})");
  Costed costed = Read(proto);
  // 64x128 outputs over 32 terms: 2 * 8192 * 32 = 524288. Bytes 2 * (2048 + 4096 + 8192).
  OpCost g = costed.Of("gemm");
  EXPECT_DOUBLE_EQ(g.flops, 524288);
  EXPECT_DOUBLE_EQ(g.bytes_accessed, 28672);

  EXPECT_TRUE(g.flops_known);
  DotDimensionNumbers dims;
  EXPECT_FALSE(ParseGemmDotDimensions("{}", &dims));
  EXPECT_FALSE(ParseGemmDotDimensions(R"({"dot_dimension_numbers":{"lhs_contracting_dimensions":[)", &dims));
}

TEST(HloCostTest, OtherCustomCallsHaveUnknownFlopsAndSoDoTheirCallers) {
  xp::HloProto proto;
  xp::HloComputationProto* body = AddComputation(&proto, 2, "fused");
  AddInstruction(body, 20, "q", "parameter", ArrayShape(kBF16, {2, 128, 64}));
  AddInstruction(body, 21, "attn", "custom-call", ArrayShape(kBF16, {2, 128, 64}), {20})
      ->set_custom_call_target("te_fused_attn_forward_ffi");
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 1, "x", "parameter", ArrayShape(kBF16, {2, 128, 64}));
  AddInstruction(entry, 2, "attention", "custom-call", ArrayShape(kBF16, {2, 128, 64}), {1})
      ->set_custom_call_target("te_fused_attn_forward_ffi");
  AddInstruction(entry, 3, "fusion", "fusion", ArrayShape(kBF16, {2, 128, 64}), {1})->add_called_computation_ids(2);
  AddInstruction(entry, 4, "neg", "negate", ArrayShape(kBF16, {2, 128, 64}), {1});
  Costed costed = Read(proto);
  // Bytes are still known: 2 x (2*128*64 x 2 B) = 65536.
  EXPECT_FALSE(costed.Of("attention").flops_known);
  EXPECT_DOUBLE_EQ(costed.Of("attention").bytes_accessed, 65536);
  EXPECT_FALSE(costed.Of("fusion").flops_known);
  EXPECT_TRUE(costed.Of("neg").flops_known);
}

TEST(HloCostTest, HostileShapesGiveFiniteOrInfiniteCostsNeverUndefinedBehaviour) {
  xp::HloProto proto;
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  const int64_t big = int64_t{1} << 62;
  AddInstruction(entry, 1, "lhs", "parameter", ArrayShape(kF32, {big, big}));
  xp::HloInstructionProto* dot = AddInstruction(entry, 2, "dot", "dot", ArrayShape(kF32, {big, big}), {1, 1});
  dot->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
  dot->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(99);  // out of range: size 1
  Costed costed = Read(proto);
  OpCost d = costed.Of("dot");
  EXPECT_GT(d.flops, 1e30);
  EXPECT_GT(d.bytes_accessed, 0);
  EXPECT_DOUBLE_EQ(HloCostModel(costed.module).cost(-1).flops, 0);
  EXPECT_DOUBLE_EQ(HloCostModel(costed.module).cost(1000).flops, 0);
}

}  // namespace
}  // namespace stepscope::hlo
