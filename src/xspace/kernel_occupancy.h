// Theoretical occupancy of an NVIDIA kernel launch without the CUDA toolkit: the CUDA
// occupancy calculator's published rules (blocks per SM limited by warps, registers,
// shared memory and the architecture's block limit; default shared-memory carveout), for
// profiles that carry the launch's resources and the device's limits but not the figure
// itself - PyTorch's Kineto traces write `registers per thread`, `shared memory` and
// `block` per kernel and the device's limits in `deviceProperties`, and their own
// `est. achieved occupancy %` is 0 for every kernel using more than 48 KiB of shared
// memory. It is the `occ_pct` of kernel_details (schema.h) for such profiles. Pinned
// against cuda_occupancy.h (src/gpu/occupancy.h) by src/gpu/occupancy_vs_cuda_test.cc
// where CUDA is installed.
#pragma once

#include <cstdint>
#include <optional>

namespace stepscope::xspace {

// A device's limits, as cudaDeviceProp (and Kineto's deviceProperties) name them.
struct OccupancyDevice {
  int compute_major = 0;
  int compute_minor = 0;
  int warp_size = 32;
  int max_threads_per_sm = 0;        // maxThreadsPerMultiprocessor
  int max_threads_per_block = 0;     // maxThreadsPerBlock (0: not checked)
  int64_t registers_per_sm = 0;      // regsPerMultiprocessor
  int64_t registers_per_block = 0;   // regsPerBlock
  int64_t shared_per_sm = 0;         // sharedMemPerMultiprocessor
  int64_t shared_per_block = 0;      // sharedMemPerBlock (the default limit)
  int64_t shared_per_block_optin = 0;  // sharedMemPerBlockOptin
};

// A launch's resources: threads per block, registers per thread, static + dynamic shared
// memory per block in bytes.
struct OccupancyLaunch {
  int64_t block_threads = 0;
  int64_t registers_per_thread = 0;
  int64_t shared_bytes = 0;
};

// Active warps per SM over the SM's maximum, in percent; nullopt when the device's
// architecture is unknown (compute capability outside 3.x-12.x) or a limit is missing, 0
// when the launch does not fit the device.
std::optional<double> TheoreticalOccupancyPercent(const OccupancyDevice& device, const OccupancyLaunch& launch);

}  // namespace stepscope::xspace
