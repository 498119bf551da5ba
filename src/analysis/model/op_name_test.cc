#include "src/analysis/model/op_name.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/model/device_event_details.h"

namespace stepscope::analysis {
namespace {

TEST(OpNameTest, ParsesFrameworkOpNames) {
  ParsedOpName tf = ParseOpName("model/dense/MatMul:MatMul");
  EXPECT_EQ(tf.category, OpCategory::kTensorFlow);
  EXPECT_EQ(tf.name, "model/dense/MatMul");
  EXPECT_EQ(tf.type, "MatMul");
  EXPECT_EQ(ParseOpName("_SOURCE:_NoOp").category, OpCategory::kTensorFlow);
  EXPECT_EQ(ParseOpName("InfeedEnqueueTuple:InfeedEnqueueTuple").category, OpCategory::kInfeed);
  ParsedOpName jax = ParseOpName("jit(train_step)/dot_general:dot_general");
  EXPECT_EQ(jax.category, OpCategory::kJax);
  EXPECT_EQ(jax.type, "dot_general");
  ParsedOpName data = ParseOpName("Iterator::Prefetch::Map");
  EXPECT_EQ(data.category, OpCategory::kTfData);
  EXPECT_EQ(data.name, "Iterator::Prefetch::Map");
  EXPECT_EQ(ParseOpName("MemcpyH2D").category, OpCategory::kMemcpyHToD);
  EXPECT_EQ(ParseOpName("MemcpyDToH").category, OpCategory::kMemcpyDToH);
  ParsedOpName plain = ParseOpName("forward");
  EXPECT_EQ(plain.category, OpCategory::kOther);
  EXPECT_EQ(plain.type, "forward");
  EXPECT_EQ(ParseOpName("XlaModule: name=jit(f)/x").category, OpCategory::kOther);
  EXPECT_EQ(ParseOpName("a b:C").category, OpCategory::kOther);
  // Only TensorFlow's and JAX's names carry a type: PyTorch's collectives keep theirs whole.
  for (std::string_view name :
       {"nccl:all_to_all", "nccl:all_reduce", "nccl:_all_gather_base", "gloo:broadcast", "record_param_comms:x"}) {
    ParsedOpName other = ParseOpName(name);
    EXPECT_EQ(other.category, OpCategory::kOther) << name;
    EXPECT_EQ(other.name, name);
    EXPECT_EQ(other.type, name);
  }
}

TEST(OpNameTest, PyTorchOperatorsAreTheirOwnType) {
  for (std::string_view name : {"aten::conv2d", "aten::add_", "aten::_convolution", "c10d::allreduce_",
                                "torch::autograd::AccumulateGrad", "_c10d_functional::all_reduce",
                                "fbgemm::jagged_to_padded_dense", "prim::Constant"}) {
    ParsedOpName op = ParseOpName(name);
    EXPECT_EQ(op.category, OpCategory::kPyTorch) << name;
    EXPECT_EQ(op.name, name);
    EXPECT_EQ(op.type, name);
  }
  // Not PyTorch operators: runtime scopes, annotations, kernels, TF names.
  for (std::string_view name : {"ExecutorState::Process", "autograd::engine::evaluate_function: MmBackward0",
                                "Optimizer.step#SGD.step", "cutlass::Kernel<cutlass_80_tensorop_s1688gemm>",
                                "void at::native::vectorized_elementwise_kernel<4>(int)", "aten::", "::add",
                                "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "cudaLaunchKernel"}) {
    EXPECT_NE(ParseOpName(name).category, OpCategory::kPyTorch) << name;
  }
  EXPECT_EQ(ParseOpName("model/dense/MatMul:MatMul").category, OpCategory::kTensorFlow);
}

TEST(OpNameTest, DataLoaderFetchesAreInputWaits) {
  EXPECT_TRUE(IsDataLoaderNextName("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
  EXPECT_TRUE(IsDataLoaderNextName("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"));
  EXPECT_TRUE(IsIteratorGetNextName("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
  EXPECT_FALSE(IsDataLoaderNextName("DataLoader"));
  EXPECT_FALSE(IsIteratorGetNextName("aten::to"));
  // The name is kept; its category says it is input (as tf.data's iterators are), its type
  // gathers every kind of DataLoader iteration.
  ParsedOpName loader = ParseOpName("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  EXPECT_EQ(loader.category, OpCategory::kDataLoader);
  EXPECT_EQ(OpCategoryName(loader.category), "data_loader");
  EXPECT_EQ(loader.name, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  EXPECT_EQ(loader.type, "DataLoader");
  EXPECT_EQ(HostInputOpCategory(loader.category, loader.name), InputOpCategory::kDataLoader);
  EXPECT_EQ(ParseOpName("DataLoader").category, OpCategory::kOther);
}

TEST(OpNameTest, StepMarkerAndInputNames) {
  EXPECT_TRUE(IsExplicitStepMarkerName("train"));
  EXPECT_TRUE(IsExplicitStepMarkerName("test_step"));
  EXPECT_TRUE(IsExplicitStepMarkerName("TraceContext"));
  EXPECT_FALSE(IsExplicitStepMarkerName("train/loop"));
  EXPECT_FALSE(IsExplicitStepMarkerName("Train"));
  EXPECT_TRUE(IsIteratorGetNextName("IteratorGetNextOp::DoCompute"));
  EXPECT_TRUE(IsIteratorGetNextName("iteratorgetnext"));
  EXPECT_FALSE(IsIteratorGetNextName("GetNext"));
  EXPECT_EQ(HostInputOpCategory(OpCategory::kTfData, "Iterator::Batch::TFRecord"), InputOpCategory::kDemandedFileRead);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kTfData, "Iterator::Prefetch::Interleave::TFRecord"),
            InputOpCategory::kAdvancedFileRead);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kTfData, "Iterator::Batch::Map"), InputOpCategory::kPreprocessing);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kMemcpyHToD, "MemcpyHToD"), InputOpCategory::kEnqueue);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kTensorFlow, "model/dense/MatMul"), std::nullopt);
}

TEST(OpNameTest, PyTorchAndJaxInputNames) {
  EXPECT_TRUE(IsPythonFrameName("threading.py(359): wait"));
  EXPECT_TRUE(IsPythonFrameName("torch/nn/modules/module.py(1743): _call_impl"));
  EXPECT_TRUE(IsPythonFrameName("<built-in method add of type object at 0x7f0>"));
  EXPECT_TRUE(IsPythonFrameName("<built-in function len>"));
  EXPECT_TRUE(IsPythonFrameName("nn.Module: Qwen2DecoderLayer_1"));
  EXPECT_TRUE(IsPythonFrameName("$api.py:3165 try_to_block"));  // JAX's Python tracer
  EXPECT_TRUE(IsPythonFrameName("$builtins isinstance"));
  EXPECT_TRUE(IsPythonFrameName("$<unknown> append"));
  EXPECT_FALSE(IsPythonFrameName("$ x")) << "no file or module";
  EXPECT_FALSE(IsPythonFrameName("$api.py:3165")) << "no function";
  EXPECT_FALSE(IsPythonFrameName("aten::linear"));
  EXPECT_FALSE(IsPythonFrameName("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
  EXPECT_FALSE(IsPythonFrameName("ProfilerStep#3"));
  EXPECT_FALSE(IsPythonFrameName("f(): x")) << "no line number";
  EXPECT_FALSE(IsPythonFrameName("(12): x")) << "no file";
  EXPECT_FALSE(IsPythonFrameName("a.py(12): ")) << "no function";
  // PyTorch: the DataLoader's iteration (its Python frames are not ops, and count in it).
  EXPECT_EQ(HostInputOpCategory(OpCategory::kOther, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"),
            InputOpCategory::kDataLoader);
  // Pinned-memory copies, on the main thread or the DataLoader's pin-memory thread.
  EXPECT_EQ(HostInputOpCategory(OpCategory::kPyTorch, "aten::pin_memory"), InputOpCategory::kPinMemory);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kPyTorch, "aten::_pin_memory"), InputOpCategory::kPinMemory);
  // A copy on the host cannot tell H2D from D2D: the device side lists those (DeviceInputCopy).
  EXPECT_EQ(HostInputOpCategory(OpCategory::kPyTorch, "aten::copy_"), std::nullopt);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kPyTorch, "aten::to"), std::nullopt);
  // JAX / PjRt transfers to the device are the enqueue of XProf's breakdown.
  EXPECT_EQ(HostInputOpCategory(OpCategory::kOther, "DevicePutWithSharding"), InputOpCategory::kEnqueue);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kOther, "PjRtStreamExecutorBuffer::CopyToDeviceHelper::async_copy_to_device"),
            InputOpCategory::kEnqueue);
  EXPECT_EQ(HostInputOpCategory(OpCategory::kOther, "PjitFunction(train_step)"), std::nullopt);
}

TEST(OpNameTest, MemcpyDirections) {
  EXPECT_EQ(MemcpyDirectionFromName("MemcpyP2P"), MemcpyDirection::kDeviceToDevice);
  EXPECT_EQ(MemcpyDirectionFromName("MemcpyPtoP"), MemcpyDirection::kDeviceToDevice);
  EXPECT_EQ(MemcpyDirectionFromName("Memset"), MemcpyDirection::kMemset);
  EXPECT_EQ(MemcpyDirectionFromName("volta_sgemm"), MemcpyDirection::kUnknown);
}

TEST(DeviceEventDetailsTest, KernelDetailsInEveryFormat) {
  KernelLaunchParams current = ParseKernelDetails(
      "regs:32 static_shared:2048 dynamic_shared:512 grid:10,2,1 block:128,4,1 occ_pct:62.5");
  EXPECT_EQ(current.registers_per_thread, 32);
  EXPECT_EQ(current.static_shared_memory_bytes, 2048);
  EXPECT_EQ(current.dynamic_shared_memory_bytes, 512);
  EXPECT_EQ(current.grid, (std::array<int64_t, 3>{10, 2, 1}));
  EXPECT_EQ(current.block, (std::array<int64_t, 3>{128, 4, 1}));
  EXPECT_EQ(current.occupancy_pct, 62.5);
  KernelLaunchParams legacy = ParseKernelDetails("regs:38 shm:16 grid:160,1,1 block:1024,1,1");
  EXPECT_EQ(legacy.registers_per_thread, 38);
  EXPECT_EQ(legacy.static_shared_memory_bytes, 16);
  EXPECT_EQ(legacy.grid, (std::array<int64_t, 3>{160, 1, 1}));
  KernelLaunchParams rocm = ParseKernelDetails(" grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:2112 occ_pct:0");
  EXPECT_EQ(rocm.static_shared_memory_bytes, 2112);
  EXPECT_EQ(rocm.grid[0], 1280);
  // ROCm writes no registers and occ_pct:0: both unknown, not 0.
  EXPECT_EQ(rocm.registers_per_thread, std::nullopt);
  EXPECT_EQ(rocm.occupancy_pct, std::nullopt);
  KernelLaunchParams junk = ParseKernelDetails("regs:x grid:a,b block:");
  EXPECT_EQ(junk.registers_per_thread, std::nullopt);
  EXPECT_EQ(junk.static_shared_memory_bytes, std::nullopt);
  EXPECT_EQ(junk.grid, (std::array<int64_t, 3>{1, 1, 1}));
}

// A legacy ROCm tracer wrote uninitialised memory into its launch records: a register
// count no GPU has drops the record's sizes, and the text is handed back for the notes.
TEST(DeviceEventDetailsTest, ImpossibleSizesAreAbsentAndReported) {
  std::string why;
  KernelLaunchParams garbage =
      ParseKernelDetails("regs:2191500840 static_shared:32462 grid:64,1,1 block:256,1,1 occ_pct:0", &why);
  EXPECT_EQ(garbage.registers_per_thread, std::nullopt);
  EXPECT_EQ(garbage.static_shared_memory_bytes, std::nullopt);
  EXPECT_EQ(garbage.grid[0], 64);
  EXPECT_THAT(why, ::testing::HasSubstr("regs:2191500840"));
  std::string none;
  KernelLaunchParams huge_shared = ParseKernelDetails("regs:64 static_shared:4294967295", &none);
  EXPECT_EQ(huge_shared.registers_per_thread, std::nullopt);
  EXPECT_FALSE(none.empty());
  std::string fine;
  KernelLaunchParams real = ParseKernelDetails("regs:255 static_shared:232448 dynamic_shared:0 occ_pct:100", &fine);
  EXPECT_EQ(real.registers_per_thread, 255);
  EXPECT_EQ(real.static_shared_memory_bytes, 232448);
  EXPECT_EQ(real.occupancy_pct, 100.0);
  EXPECT_TRUE(fine.empty());
  // A dynamic size alone: the static part is 0, written or not.
  EXPECT_EQ(ParseKernelDetails("regs:32 dynamic_shared:1024").static_shared_memory_bytes, 0);
}

TEST(DeviceEventDetailsTest, MemcpyDetailsAndPatterns) {
  MemcpyDetails current = ParseMemcpyDetails("kind_src:device kind_dst:pinned size:4096 dest:0 async:1");
  EXPECT_EQ(current.bytes, 4096);
  EXPECT_EQ(current.direction, MemcpyDirection::kDeviceToHost);
  EXPECT_EQ(ParseMemcpyDetails("kind_src:pageable kind_dst:device size:1").direction, MemcpyDirection::kHostToDevice);
  MemcpyDetails legacy = ParseMemcpyDetails("size:112 dest:4 async:0");
  EXPECT_EQ(legacy.bytes, 112);
  EXPECT_EQ(legacy.direction, MemcpyDirection::kUnknown);
  EXPECT_EQ(ParseMemcpyDetails("kind:device num_bytes:77").bytes, 77);
  EXPECT_TRUE(IsKernelUsingTensorCore("volta_h884gemm_256x128_ldg8_nn"));
  EXPECT_FALSE(IsKernelUsingTensorCore("volta_sgemm_128x64_nn"));
  // Ampere/Hopper names (from a PyTorch H100 trace): CUTLASS tensorop/wmma, Hopper gmma.
  EXPECT_TRUE(IsKernelUsingTensorCore(
      "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(...)"));
  EXPECT_TRUE(IsKernelUsingTensorCore("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1"));
  EXPECT_TRUE(IsKernelUsingTensorCore("void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<gmma_ss>>"));
  EXPECT_FALSE(IsKernelUsingTensorCore("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>"));
  // cuBLAS's nvjet GEMMs (recorded by our CUPTI tracer on an H100): by their input type.
  EXPECT_TRUE(IsKernelUsingTensorCore("nvjet_sm90_hss_128x256_64x4_2x1_v_bz_coopA_NTN"));
  EXPECT_TRUE(IsKernelUsingTensorCore("nvjet_sm90_bss_64x128_64x8_2x1_v_bz_TNN"));
  EXPECT_FALSE(IsKernelUsingTensorCore("nvjet_sm90_sss_128x64_64x8_1x2_h_bz_NNT"));
  EXPECT_FALSE(IsKernelUsingTensorCore("nvjet_sm90"));
  // cuDNN's Hopper convolutions (PyTorch 2.11, H100).
  EXPECT_TRUE(IsKernelUsingTensorCore("sm90_xmma_wgrad_indexed_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc"));
  EXPECT_TRUE(IsKernelUsingTensorCore("sm90_xmma_dgrad_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nchw"));
  EXPECT_TRUE(IsKernelUsingTensorCore("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw"));
  EXPECT_TRUE(IsKernelUsingTensorCore("void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64>>"));
  EXPECT_TRUE(IsOpTensorCoreEligible("aten::_scaled_dot_product_flash_attention"));
  EXPECT_TRUE(IsOpTensorCoreEligible("aten::_efficient_attention_forward"));
  EXPECT_TRUE(IsOpTensorCoreEligible("model/conv1/Conv2D"));
  EXPECT_TRUE(IsOpTensorCoreEligible("model/dense/MatMul"));
  EXPECT_TRUE(IsOpTensorCoreEligible("x/BatchMatMulV2"));
  EXPECT_FALSE(IsOpTensorCoreEligible("model/Relu"));
  EXPECT_TRUE(IsEinsumTensorCoreEligible("ab,bc->ac"));
  EXPECT_FALSE(IsEinsumTensorCoreEligible("ab->ba"));
  EXPECT_FALSE(IsEinsumTensorCoreEligible("a,b,c->abc"));
  EXPECT_TRUE(Is16BitCompute("kernel", "(half[32,32])"));
  EXPECT_FALSE(Is16BitCompute("half_kernel", "(float[32])")) << "the shape decides when present";
  EXPECT_TRUE(Is16BitCompute("my_fp16_gemm", ""));
  // Kernel names of PyTorch 2.11 runs on an H100 (fp32, fp16 and bf16 autocast).
  EXPECT_TRUE(Is16BitCompute("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", ""));  // bf16
  EXPECT_TRUE(Is16BitCompute("nvjet_sm90_hsh_96x64_64x8_2x1_v_bz_NNN", ""));          // fp16
  EXPECT_FALSE(Is16BitCompute("nvjet_sm90_sss_128x64_64x8_1x2_h_bz_NNT", ""));        // fp32
  EXPECT_TRUE(Is16BitCompute("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64", ""));
  EXPECT_TRUE(Is16BitCompute("sm90_xmma_dgrad_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhw", ""));
  EXPECT_TRUE(Is16BitCompute("void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32>", ""));
  EXPECT_FALSE(Is16BitCompute("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize32x32x8_stage3", ""));
  EXPECT_FALSE(Is16BitCompute("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw", ""));
  EXPECT_FALSE(Is16BitCompute("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>", ""));
  // cuBLAS / cuDNN half-precision kernels of the Maxwell-Ampere era, by their compute type.
  EXPECT_TRUE(Is16BitCompute("volta_h884gemm_256x128_ldg8_nn", ""));
  EXPECT_TRUE(Is16BitCompute("turing_h1688gemm_128x128_ldg8_tn", ""));
  EXPECT_TRUE(Is16BitCompute("ampere_h16816gemm_64x64_ldg8_stages_64x5_nn", ""));
  EXPECT_TRUE(Is16BitCompute("volta_h884cudnn_256x64_ldg8_relu_exp_small_nhwc_tn_v1", ""));
  EXPECT_TRUE(Is16BitCompute("maxwell_hgemm_128x64_nn", ""));
  EXPECT_FALSE(Is16BitCompute("volta_sgemm_128x64_nn", ""));
  EXPECT_FALSE(Is16BitCompute("ampere_tf32_s1688gemm_tf32_128x128_16x32_sliced1x2_ldg4_tn", ""));
  EXPECT_FALSE(Is16BitCompute("maxwell_scudnn_128x128_relu_interior_nn", ""));
  EXPECT_FALSE(Is16BitCompute("void at::native::(anonymous namespace)::hgemm_like_kernel<float>", ""))
      << "an 'h' inside a word is not the compute type";
  EXPECT_FALSE(Is16BitCompute("cudnn::winograd::h2cudnn_kernel<float>", "")) << "2 digits: no MMA shape";
  // AMD's Tensile / hipBLASLt GEMMs by their input type (fp32 from the shared MI250 trace).
  EXPECT_TRUE(Is16BitCompute("Cijk_Ailk_Bljk_HHS_BH_MT128x128x16_MI16x16x16x1_SN_1LDSB0_APM1", ""));
  EXPECT_TRUE(Is16BitCompute("Cijk_Ailk_Bjlk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_CMS_SN", ""));
  EXPECT_TRUE(Is16BitCompute("Custom_Cijk_Ailk_Bljk_BSS_BH_Bias_SAV_UserArgs_MT128x128x64_MI16x16x1", ""));
  EXPECT_FALSE(Is16BitCompute("Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1", ""));
  EXPECT_FALSE(Is16BitCompute("Cijk_Ailk_Bljk_F8F8S_BH_MT128x128x64_MI16x16x1", "")) << "fp8 is not 16-bit";
  EXPECT_FALSE(Is16BitCompute("Cijk_Ailk", "")) << "cut short";
  // ATen's own kernels name their element type: c10::BFloat16 and c10::Half are 16-bit.
  EXPECT_TRUE(Is16BitCompute("void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
                             "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
                             ""));
  EXPECT_TRUE(Is16BitCompute("void at::native::(anonymous namespace)::fused_dropout_kernel_vec<c10::BFloat16, float, "
                             "unsigned int, 1, 8, bool>(at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>)",
                             ""));
  EXPECT_TRUE(Is16BitCompute("void at::native::reduce_kernel<128, 4, at::native::ReduceOp<c10::Half, "
                             "at::native::func_wrapper_t<c10::Half, at::native::sum_functor<c10::Half, float, float>>>>",
                             ""));
  EXPECT_TRUE(Is16BitCompute("void at::native::vectorized_elementwise_kernel<8, at::native::float16_copy_kernel_cuda("
                             "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >",
                             ""));  // a cast to fp16 (an fp16 CNN on an H100)
  EXPECT_FALSE(Is16BitCompute("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, false>"
                              "(int, float, float const*, float const*, float const*, float*, float*, float*)",
                              ""));
}

TEST(OpNameTest, ContainsAnyIgnoreCaseFoldsTheTextOnce) {
  static constexpr std::string_view kPatterns[] = {"allreduce", "f16"};
  EXPECT_TRUE(ContainsAnyIgnoreCase("ncclDevKernel_AllReduce_Sum_f32", kPatterns));
  EXPECT_TRUE(ContainsAnyIgnoreCase("xmma_gemm_F16F16_tn", kPatterns));
  EXPECT_FALSE(ContainsAnyIgnoreCase("ncclDevKernel_AllGather_f32", kPatterns));
  EXPECT_FALSE(ContainsAnyIgnoreCase("", kPatterns));
  EXPECT_FALSE(ContainsAnyIgnoreCase("AllReduce", {}));
}

}  // namespace
}  // namespace stepscope::analysis
