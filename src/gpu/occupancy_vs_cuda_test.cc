// The CUDA-free occupancy model (src/xspace/kernel_occupancy.h) gives what CUDA's own calculator (cuda_occupancy.h, via
// occupancy.h) gives, for every architecture it knows and launches across each limit.
#include <cuda_occupancy.h>

#include <gtest/gtest.h>

#include "src/gpu/occupancy.h"
#include "src/xspace/kernel_occupancy.h"

namespace stepscope::gpu {
namespace {

using xspace::OccupancyDevice;
using xspace::TheoreticalOccupancyPercent;

struct Device {
  const char* name;
  int major, minor, max_threads_per_sm, registers_per_sm;
  int64_t shared_per_sm, shared_per_block_optin;
};

// Limits as cudaGetDeviceProperties reports them for one GPU of each architecture.
constexpr Device kDevices[] = {
    {"P100", 6, 0, 2048, 65536, 65536, 49152},      {"GTX 1080", 6, 1, 2048, 65536, 98304, 49152},
    {"V100", 7, 0, 2048, 65536, 98304, 98304},      {"T4", 7, 5, 1024, 65536, 65536, 65536},
    {"A100", 8, 0, 2048, 65536, 167936, 166912},    {"A10", 8, 6, 1536, 65536, 102400, 101376},
    {"L4", 8, 9, 1536, 65536, 102400, 101376},      {"H100", 9, 0, 2048, 65536, 233472, 232448},
    {"B200", 10, 0, 2048, 65536, 233472, 232448},   {"RTX 5090", 12, 0, 1536, 65536, 102400, 101376},
};

TEST(OccupancyVsCudaTest, EveryArchitectureAndLimit) {
  int compared = 0;
  for (const Device& d : kDevices) {
    cudaOccDeviceProp cuda;
    cuda.computeMajor = d.major;
    cuda.computeMinor = d.minor;
    cuda.maxThreadsPerBlock = 1024;
    cuda.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
    cuda.regsPerBlock = 65536;
    cuda.regsPerMultiprocessor = d.registers_per_sm;
    cuda.warpSize = 32;
    cuda.sharedMemPerBlock = 49152;
    cuda.sharedMemPerMultiprocessor = static_cast<size_t>(d.shared_per_sm);
    cuda.numSms = 80;
    cuda.sharedMemPerBlockOptin = static_cast<size_t>(d.shared_per_block_optin);
    cuda.reservedSharedMemPerBlock = d.major >= 8 ? 1024 : 0;
    OccupancyDevice model{.compute_major = d.major,
                          .compute_minor = d.minor,
                          .warp_size = 32,
                          .max_threads_per_sm = d.max_threads_per_sm,
                          .max_threads_per_block = 1024,
                          .registers_per_sm = d.registers_per_sm,
                          .registers_per_block = 65536,
                          .shared_per_sm = d.shared_per_sm,
                          .shared_per_block = 49152,
                          .shared_per_block_optin = d.shared_per_block_optin};
    for (int block : {1, 32, 33, 64, 96, 128, 192, 256, 384, 512, 768, 1024}) {
      for (int registers : {0, 16, 24, 32, 40, 56, 64, 80, 96, 128, 168, 200, 255}) {
        for (int shared : {0, 16, 1000, 6912, 12288, 20480, 33792, 49152, 73728, 81920, 98304, 122880, 166912,
                           213444, 231424}) {
          if (shared > d.shared_per_block_optin) continue;  // such a launch cannot have run
          const double expected = OccupancyPercent(cuda, block, registers, 0, shared);
          const std::optional<double> actual =
              TheoreticalOccupancyPercent(model, {.block_threads = block, .registers_per_thread = registers,
                                                  .shared_bytes = shared});
          ASSERT_TRUE(actual.has_value()) << d.name;
          EXPECT_DOUBLE_EQ(*actual, expected)
              << d.name << ": block " << block << ", " << registers << " registers, " << shared << " B shared";
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 10000);
}

}  // namespace
}  // namespace stepscope::gpu
