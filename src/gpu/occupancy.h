// Theoretical occupancy of a kernel launch (the `occ_pct` of kernel_details): active warps
// per SM over the SM's maximum, from the launch's block size, registers and shared memory
// and the device's limits, by CUDA's own occupancy calculator (cuda_occupancy.h, header
// only: no GPU or driver needed, so tests check it here). TensorFlow's CUPTI tracer
// computes the same figure the same way.
#pragma once

#include <cuda_occupancy.h>

namespace stepscope::gpu {

// 0 when the calculator rejects the inputs (unknown device, block over the limits).
double OccupancyPercent(const cudaOccDeviceProp& device, int block_threads, int registers_per_thread,
                        int static_shared_bytes, int dynamic_shared_bytes);

}  // namespace stepscope::gpu
