#include "src/xspace/kernel_occupancy.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace stepscope::xspace {
namespace {

// An H100 SXM as PyTorch's Kineto writes it in deviceProperties.
OccupancyDevice H100() {
  return {.compute_major = 9,
          .compute_minor = 0,
          .warp_size = 32,
          .max_threads_per_sm = 2048,
          .max_threads_per_block = 1024,
          .registers_per_sm = 65536,
          .registers_per_block = 65536,
          .shared_per_sm = 233472,
          .shared_per_block = 49152,
          .shared_per_block_optin = 232448};
}

// Worked by hand from the calculator's rules; Kineto said 0 % for each of these kernels
// of a real H100 trace (tools/device/torch_trace.py).
TEST(OccupancyModelTest, LargeSharedMemoryKernelsOfARealTrace) {
  // sm80_xmma_fprop: 4 warps a block. Registers: 168 x 32 = 5,376 a warp, 16,384 per
  // sub-partition -> 3 warps each, 12 an SM, 3 blocks. Shared: 122,880 + 1,024 reserved ->
  // 1 block in 233,472. So 1 block of 4 warps of 64: 6.25 %.
  EXPECT_DOUBLE_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 128, .registers_per_thread = 168,
                                                         .shared_bytes = 122880}),
                   6.25);
  // nvjet (384 threads = 12 warps, 168 registers, 213,444 B): 1 block, 12 warps: 18.75 %.
  EXPECT_DOUBLE_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 384, .registers_per_thread = 168,
                                                         .shared_bytes = 213444}),
                   18.75);
  // cutlass dgrad (246 registers -> 7,936 a warp, 2 warps a sub-partition, 8 an SM: 2
  // blocks of 4 warps; shared 81,920 + 1,024 -> 2 blocks): 8 warps: 12.5 %.
  EXPECT_DOUBLE_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 128, .registers_per_thread = 246,
                                                         .shared_bytes = 81920}),
                   12.5);
}

TEST(OccupancyModelTest, EachLimitBinds) {
  // Warps: 1,024-thread blocks, few registers, no shared memory: 2 blocks fill 64 warps.
  EXPECT_DOUBLE_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 1024, .registers_per_thread = 16}), 100.0);
  // The architecture's block limit: 32-thread blocks, 32 blocks of 1 warp = 50 %.
  EXPECT_DOUBLE_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 32, .registers_per_thread = 16}), 50.0);
  // Registers: 64 a thread -> 2,048 a warp, 8 warps a sub-partition, 32 an SM: 50 %.
  EXPECT_DOUBLE_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 256, .registers_per_thread = 64}), 50.0);
  // A partly used warp counts whole: 33 threads are 2 warps.
  EXPECT_DOUBLE_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 33, .registers_per_thread = 16}), 100.0);
}

TEST(OccupancyModelTest, LaunchesThatCannotFitAreZero) {
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 2048, .registers_per_thread = 16}), 0.0);
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 1024, .registers_per_thread = 255}), 0.0);
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 128, .registers_per_thread = 300}), 0.0);
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 128, .shared_bytes = 240000}), 0.0);
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 0}), 0.0);
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 128, .registers_per_thread = -1}), 0.0);
  // Hostile values (a trace's args are anything): no overflow, no figure above 0.
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = INT64_MAX, .registers_per_thread = 16}), 0.0);
  EXPECT_EQ(*TheoreticalOccupancyPercent(H100(), {.block_threads = 128, .shared_bytes = INT64_MAX}), 0.0);
  OccupancyDevice unchecked = H100();
  unchecked.max_threads_per_block = 0;
  unchecked.shared_per_block = unchecked.shared_per_block_optin = 0;
  EXPECT_EQ(*TheoreticalOccupancyPercent(unchecked, {.block_threads = INT64_MAX}), 0.0);
  EXPECT_EQ(*TheoreticalOccupancyPercent(unchecked, {.block_threads = 128, .shared_bytes = INT64_MAX - 1}), 0.0);
}

TEST(OccupancyModelTest, UnknownDevicesHaveNoFigure) {
  OccupancyDevice unknown = H100();
  unknown.compute_major = 2;  // Fermi: not in the calculator any more
  EXPECT_FALSE(TheoreticalOccupancyPercent(unknown, {.block_threads = 128}).has_value());
  OccupancyDevice missing = H100();
  missing.registers_per_sm = 0;  // an old deviceProperties without the limits
  EXPECT_FALSE(TheoreticalOccupancyPercent(missing, {.block_threads = 128}).has_value());
  EXPECT_FALSE(TheoreticalOccupancyPercent(OccupancyDevice{}, {.block_threads = 128}).has_value());
}

}  // namespace
}  // namespace stepscope::xspace
