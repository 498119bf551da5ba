#include "src/gpu/occupancy.h"

namespace stepscope::gpu {

double OccupancyPercent(const cudaOccDeviceProp& device, int block_threads, int registers_per_thread,
                        int static_shared_bytes, int dynamic_shared_bytes) {
  if (block_threads <= 0 || device.warpSize <= 0 || device.maxThreadsPerMultiprocessor <= 0) return 0.0;
  cudaOccFuncAttributes function;
  function.maxThreadsPerBlock = device.maxThreadsPerBlock;
  function.numRegs = registers_per_thread;
  function.sharedSizeBytes = static_cast<size_t>(static_shared_bytes);
  function.maxDynamicSharedSizeBytes = static_cast<size_t>(dynamic_shared_bytes);
  function.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;  // the launch ran: its shared memory was allowed
  function.numBlockBarriers = 1;
  cudaOccDeviceState state;
  cudaOccResult result{};
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &device, &function, &state, block_threads,
                                              static_cast<size_t>(dynamic_shared_bytes)) != CUDA_OCC_SUCCESS) {
    return 0.0;
  }
  const int warps_per_block = (block_threads + device.warpSize - 1) / device.warpSize;
  const int max_warps = device.maxThreadsPerMultiprocessor / device.warpSize;
  return 100.0 * result.activeBlocksPerMultiprocessor * warps_per_block / max_warps;
}

}  // namespace stepscope::gpu
