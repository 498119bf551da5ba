#include "src/analysis/model/device_event_details.h"

#include <array>
#include <charconv>
#include <string>

#include "src/analysis/model/op_name.h"

namespace stepscope::analysis {
namespace {

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  *out = value;
  return true;
}

void ParseDims(std::string_view text, std::array<int64_t, 3>* dims) {
  std::array<int64_t, 3> parsed{1, 1, 1};
  for (int i = 0; i < 3 && !text.empty(); ++i) {
    size_t comma = text.find(',');
    if (!ParseNumber(text.substr(0, comma), &parsed[i])) return;
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  *dims = parsed;
}

// Calls fn(key, value) for each "key:value" token separated by spaces or newlines.
template <typename Fn>
void ForEachKeyValue(std::string_view details, Fn fn) {
  while (!details.empty()) {
    size_t sep = details.find_first_of(" \n");
    std::string_view token = details.substr(0, sep);
    details = sep == std::string_view::npos ? std::string_view() : details.substr(sep + 1);
    size_t colon = token.find(':');
    if (colon == std::string_view::npos) continue;
    fn(token.substr(0, colon), token.substr(colon + 1));
  }
}

bool IsDeviceKind(std::string_view kind) {
  return ContainsIgnoreCase(kind, "device") || ContainsIgnoreCase(kind, "array") || kind == "d";
}

}  // namespace

KernelLaunchParams ParseKernelDetails(std::string_view details, std::string* implausible) {
  KernelLaunchParams params;
  int64_t value_read = 0;
  bool shared_written = false;
  double occupancy = 0;
  ForEachKeyValue(details, [&](std::string_view key, std::string_view value) {
    if (key == "regs") {
      if (ParseNumber(value, &value_read)) params.registers_per_thread = value_read;
    } else if (key == "static_shared" || key == "shm" || key == "group_mem") {
      if (ParseNumber(value, &value_read)) params.static_shared_memory_bytes = value_read;
    } else if (key == "dynamic_shared") {
      shared_written = ParseNumber(value, &params.dynamic_shared_memory_bytes) || shared_written;
    } else if (key == "grid") {
      ParseDims(value, &params.grid);
    } else if (key == "block") {
      ParseDims(value, &params.block);
    } else if (key == "occ_pct") {
      if (ParseNumber(value, &occupancy)) params.occupancy_pct = occupancy;
    }
  });
  // A dynamic size alone says the static part is 0 (the current format writes both).
  if (shared_written && !params.static_shared_memory_bytes) params.static_shared_memory_bytes = 0;
  // Every kernel runs on registers, so 0 is a tracer's "not known" (ROCm's tracers write
  // regs:0 or nothing), and so is an occupancy of 0 for a kernel that ran.
  if (params.registers_per_thread == 0) params.registers_per_thread.reset();
  if (params.occupancy_pct && !(*params.occupancy_pct > 0 && *params.occupancy_pct <= 100)) {
    params.occupancy_pct.reset();
  }
  // A register count past any GPU's register file per thread, or a negative size, is not a
  // measurement: a legacy ROCm tracer wrote uninitialised memory into every field, so the
  // record's other sizes are dropped with it.
  const bool impossible_registers =
      params.registers_per_thread && (*params.registers_per_thread < 0 || *params.registers_per_thread > kMaxRegistersPerThread);
  const bool impossible_shared =
      (params.static_shared_memory_bytes &&
       (*params.static_shared_memory_bytes < 0 || *params.static_shared_memory_bytes > kMaxSharedMemoryBytes)) ||
      params.dynamic_shared_memory_bytes < 0 || params.dynamic_shared_memory_bytes > kMaxSharedMemoryBytes;
  if (impossible_registers || impossible_shared) {
    if (implausible) *implausible = std::string(details);
    params.registers_per_thread.reset();
    params.static_shared_memory_bytes.reset();
    params.dynamic_shared_memory_bytes = 0;
    params.occupancy_pct.reset();
  }
  return params;
}

MemcpyDetails ParseMemcpyDetails(std::string_view details) {
  MemcpyDetails result;
  std::string_view src, dst;
  ForEachKeyValue(details, [&](std::string_view key, std::string_view value) {
    if (key == "size" || key == "num_bytes") {
      ParseNumber(value, &result.bytes);
    } else if (key == "kind_src") {
      src = value;
    } else if (key == "kind_dst") {
      dst = value;
    }
  });
  result.source_kind = src;
  if (!src.empty() && !dst.empty()) {
    bool src_device = IsDeviceKind(src), dst_device = IsDeviceKind(dst);
    result.direction = src_device && dst_device   ? MemcpyDirection::kDeviceToDevice
                       : src_device               ? MemcpyDirection::kDeviceToHost
                       : dst_device               ? MemcpyDirection::kHostToDevice
                                                  : MemcpyDirection::kHostToHost;
  }
  return result;
}

namespace {

// cuBLAS's Hopper-era GEMMs are named nvjet_sm<arch>_<types>_<tile>..., the types' first
// letter the inputs' type: h (fp16: nvjet_sm90_hss_* for cublasGemmEx on fp16 inputs, and
// hsh_* under fp16 autocast), t (bf16: nvjet_sm90_tst_* under bf16 autocast; all three
// seen in PyTorch 2.11 on an H100), b, and q/e (fp8) run on Tensor Cores; s and d (fp32,
// fp64) do not. The letter, or 0 for other kernels.
char NvjetInputType(std::string_view kernel_name) {
  constexpr std::string_view kPrefix = "nvjet_sm";
  const size_t at = kernel_name.find(kPrefix);
  if (at == std::string_view::npos) return 0;
  const size_t types = kernel_name.find('_', at + kPrefix.size());
  if (types == std::string_view::npos || types + 1 >= kernel_name.size()) return 0;
  return kernel_name[types + 1];
}

// The input type of a Tensile / hipBLASLt GEMM (rocBLAS and hipBLASLt on AMD GPUs):
// "Cijk_<A layout>_<B layout>_<types>_...", the types' first letter is A's and B's element
// type: H (fp16: HHS, HSS, HB), B (bf16: BBS, BSS), S (fp32: SB, SS), D, C, Z, I (int8),
// F (fp8: F8F8S, F8HS). 0 for other names.
char TensileInputType(std::string_view kernel_name) {
  constexpr std::string_view kPrefix = "Cijk_";
  const size_t at = kernel_name.find(kPrefix);
  if (at == std::string_view::npos) return 0;
  size_t field = at + kPrefix.size();
  for (int skip = 0; skip < 2; ++skip) {  // A's and B's layout
    field = kernel_name.find('_', field);
    if (field == std::string_view::npos) return 0;
    ++field;
  }
  return field < kernel_name.size() ? kernel_name[field] : 0;
}

// cuBLAS's and cuDNN's half-precision kernels of the Maxwell-to-Ampere era, named by their
// compute type 'h' (half) at the start of a name segment: "maxwell_hgemm_128x64_nn",
// "volta_h884gemm_256x128_ldg8_nn", "turing_h1688gemm_128x128_ldg8_tn",
// "ampere_h16816gemm_64x64_ldg8_stages_64x5_nn", "volta_h884cudnn_256x64_ldg8_relu_exp_small_nhwc_tn_v1"
// (HMMA 8x8x4 and its successors). Their 's' twins ("volta_s884gemm_fp16") say fp16 in
// another segment.
bool IsHalfPrecisionBlasName(std::string_view kernel_name) {
  for (size_t at = kernel_name.find('h'); at != std::string_view::npos; at = kernel_name.find('h', at + 1)) {
    if (at > 0 && kernel_name[at - 1] != '_') continue;
    size_t end = at + 1;
    while (end < kernel_name.size() && kernel_name[end] >= '0' && kernel_name[end] <= '9') ++end;
    const size_t digits = end - at - 1;
    if (digits != 0 && digits < 3) continue;  // the MMA shape: 884, 1688, 16816, ...
    const std::string_view rest = kernel_name.substr(end);
    if (rest.starts_with("gemm") || (digits >= 3 && rest.starts_with("cudnn"))) return true;
  }
  return false;
}

bool IsNvjetTensorCoreKernel(std::string_view kernel_name) {
  const char input_type = NvjetInputType(kernel_name);
  return input_type == 'h' || input_type == 'b' || input_type == 't' || input_type == 'q' || input_type == 'e';
}

}  // namespace

bool IsKernelUsingTensorCore(std::string_view kernel_name) {
  // XProf's list (cuDNN/cuBLAS names up to Turing/Volta), plus the names of the Ampere and
  // Hopper era XProf does not know: CUTLASS "tensorop"/"wmma" kernels (PyTorch's matmuls),
  // Hopper's warpgroup "gmma" kernels, and the fused attention kernels built on MMA
  // instructions (FlashAttention's flash_fwd/flash_bwd, xFormers/cuDNN "fmha"), and cuDNN's
  // Hopper XMMA convolutions (xmma_fprop/dgrad/wgrad_*, seen in PyTorch 2.11 on an H100).
  static constexpr std::array<std::string_view, 28> kPatterns = {
      "16816", "c1688", "conv1x1", "conv2d_c1_k1", "dgrad_1x1_stride_2x2", "direct_group",
      "first_layer_wgrad_kernel", "flash_bwd", "flash_fwd", "fmha", "gmma", "h1688", "h884", "hmma", "i16832",
      "i8816", "s884", "s1688", "tensorop", "wmma", "xmma_gemm", "xmma_implicit_gemm", "xmma_sparse_conv",
      "xmma_sparse_gemm", "xmma_warp_specialized_implicit_gemm", "xmma_fprop", "xmma_dgrad", "xmma_wgrad"};
  for (std::string_view pattern : kPatterns) {
    if (kernel_name.find(pattern) != std::string_view::npos) return true;
  }
  return IsNvjetTensorCoreKernel(kernel_name);
}

bool IsOpTensorCoreEligible(std::string_view op_name) {
  static constexpr std::array<std::string_view, 12> kSuffixes = {
      "Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput", "Conv3D", "DepthwiseConv2dNative",
      "DepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNativeBackpropInput", "/MatMul", "FusedMatMul",
      "/CudnnRNN", "XlaDot", "XlaDotV2"};
  static constexpr std::array<std::string_view, 4> kInfixes = {"BatchMatMul", "CudnnRNNV", "CudnnRNNForward",
                                                               "CudnnRNNBackprop"};
  for (std::string_view suffix : kSuffixes) {
    if (op_name.ends_with(suffix)) return true;
  }
  for (std::string_view infix : kInfixes) {
    if (op_name.find(infix) != std::string_view::npos) return true;
  }
  // PyTorch ops (stepscope addition; XProf knows TF/XLA names only): the name after
  // "aten::", leading underscores dropped, is a matmul or starts with a convolution or RNN
  // prefix (aten::mm, addmm, bmm, matmul, linear, _scaled_mm, conv2d, convolution_backward,
  // cudnn_convolution, _cudnn_rnn, ...), or fused attention (scaled_dot_product_*,
  // flash_attention_*, efficient_attention_*), whose kernels IsKernelUsingTensorCore knows.
  if (!op_name.starts_with("aten::")) return false;
  std::string_view op = op_name.substr(6);
  while (op.starts_with('_')) op.remove_prefix(1);
  static constexpr std::array<std::string_view, 15> kAtenMatmuls = {
      "mm", "addmm", "bmm", "baddbmm", "addbmm", "matmul", "matmul_backward", "linear", "linear_backward",
      "einsum", "scaled_mm", "int_mm", "addmm_activation", "mm_backward", "bmm_backward"};
  static constexpr std::array<std::string_view, 10> kAtenPrefixes = {
      "conv", "cudnn_conv", "miopen_conv", "cudnn_rnn", "miopen_rnn", "lstm", "gru", "scaled_dot_product",
      "flash_attention", "efficient_attention"};
  for (std::string_view matmul : kAtenMatmuls) {
    if (op == matmul) return true;
  }
  for (std::string_view prefix : kAtenPrefixes) {
    if (op.starts_with(prefix)) return true;
  }
  return false;
}

bool IsEinsumTensorCoreEligible(std::string_view equation) {
  size_t arrow = equation.find("->");
  if (equation.empty() || arrow == std::string_view::npos) return false;
  std::string_view inputs = equation.substr(0, arrow);
  size_t comma = inputs.find(',');
  return comma != std::string_view::npos && inputs.find(',', comma + 1) == std::string_view::npos;
}

bool Is16BitCompute(std::string_view kernel_name, std::string_view shape) {
  if (!shape.empty()) return shape.find("half") != std::string_view::npos || shape.find("bfloat16") != std::string_view::npos;
  // By name: "half", "fp16", and "f16" anywhere (bf16, cuDNN's sdpa_..._wgmma_f16_*,
  // XMMA's *_f16f16_*), "float16" (bfloat16 too: ATen's kernels are templates on c10::Half
  // or c10::BFloat16 and say so in their names - elementwise, reductions, dropout - and its
  // casts are float16_copy_kernel / bfloat16_copy_kernel); cuBLAS's and cuDNN's older half
  // kernels by their compute type (volta_h884gemm, maxwell_hgemm); cuBLAS's nvjet GEMMs and
  // AMD's Tensile GEMMs by their input type. A bf16 autocast run on an
  // H100 has only names of these kinds for its matmuls, attention and bf16 elementwise work.
  static constexpr std::array<std::string_view, 4> kHalfNames = {"half", "fp16", "f16", "float16"};
  if (ContainsAnyIgnoreCase(kernel_name, kHalfNames)) return true;
  if (IsHalfPrecisionBlasName(kernel_name)) return true;
  const char input_type = NvjetInputType(kernel_name);
  if (input_type == 'h' || input_type == 't' || input_type == 'b') return true;
  const char tensile_type = TensileInputType(kernel_name);
  return tensile_type == 'H' || tensile_type == 'B';
}

}  // namespace stepscope::analysis
