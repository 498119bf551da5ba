// Parsing the string stats of device events: kernel launch parameters, memcpy details,
// and the name patterns for Tensor Core use and 16-bit compute.
//
// Formats (reference/xspace.md §2): kernel_details current
// "regs:R static_shared:B dynamic_shared:B grid:x,y,z block:x,y,z occ_pct:F", 2020
// "regs:38 shm:0 grid:160,1,1 block:1024,1,1", ROCm "grid:.. block:.. private_mem:0
// group_mem:B occ_pct:F"; memcpy_details current "kind_src:K kind_dst:K size:N dest:D
// async:A", older "size:112 dest:4 async:0"; memalloc/memset "kind:K num_bytes:N".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// The most registers one thread can hold on any GPU (AMD CDNA: 512 VGPRs plus 512 AGPRs;
// NVIDIA: 255), and the most shared memory (LDS) one block can use (NVIDIA Hopper/Blackwell:
// 227 KiB; AMD: 64 to 160 KiB), with room for the next generation. Past these a value is
// garbage, not a kernel.
inline constexpr int64_t kMaxRegistersPerThread = 1024;
inline constexpr int64_t kMaxSharedMemoryBytes = int64_t{1} << 20;

// Unknown keys are ignored; malformed numbers leave the field absent. Values no kernel can
// have (KernelLaunchParams) are absent too; when the record held an impossible size, its
// text goes to `implausible` (when given) and its sizes are all dropped.
KernelLaunchParams ParseKernelDetails(std::string_view details, std::string* implausible = nullptr);

struct MemcpyDetails {
  int64_t bytes = 0;  // size: or num_bytes:
  // From kind_src / kind_dst when present; kUnknown otherwise.
  MemcpyDirection direction = MemcpyDirection::kUnknown;
  // kind_src as written, lower case in Kineto-derived files ("pinned", "pageable",
  // "device"); empty when absent. A view into the details text.
  std::string_view source_kind;
};
MemcpyDetails ParseMemcpyDetails(std::string_view details);

// XProf's kernel-name patterns of Tensor Core kernels (kernel_stats_utils).
bool IsKernelUsingTensorCore(std::string_view kernel_name);
// Ops that could use Tensor Cores: convolutions, matmuls, RNNs, XLA dots, and PyTorch's
// aten:: matmul / convolution / RNN ops (by op name).
bool IsOpTensorCoreEligible(std::string_view op_name);
// An einsum equation with two inputs ("ab,bc->ac").
bool IsEinsumTensorCoreEligible(std::string_view equation);

// 16-bit device compute: the `shape` stat mentions half (or bfloat16); without a shape,
// the kernel name mentions half or fp16 (XProf ClassifyDeviceCompute, plus bfloat16).
bool Is16BitCompute(std::string_view kernel_name, std::string_view shape);

}  // namespace stepscope::analysis
