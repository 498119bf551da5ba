#include "src/xspace/kernel_occupancy.h"

#include <algorithm>
#include <limits>

namespace stepscope::xspace {
namespace {

// Architecture facts of the CUDA occupancy calculator, by compute capability.
struct Architecture {
  int max_blocks_per_sm;
  int register_granularity;       // registers are given to warps in units of this many
  int max_registers_per_thread;
  int sub_partitions;             // an SM's register file is split between these
  int shared_granularity;         // shared memory is given to blocks in units of this many bytes
  int reserved_shared_per_block;  // bytes the driver keeps per block (Ampere on)
};

std::optional<Architecture> ArchitectureOf(int major, int minor) {
  Architecture a{32, 256, 256, 4, 128, 0};
  switch (major) {
    case 3:
      a.max_blocks_per_sm = 16;
      a.max_registers_per_thread = 255;
      a.shared_granularity = 256;
      break;
    case 5:
    case 6:
      a.max_registers_per_thread = 255;
      a.shared_granularity = 256;
      if (major == 6 && minor == 0) a.sub_partitions = 2;
      break;
    case 7:
      a.max_blocks_per_sm = minor == 5 ? 16 : 32;
      a.shared_granularity = 256;
      break;
    case 8:
      a.max_blocks_per_sm = minor == 0 ? 32 : minor == 9 ? 24 : 16;
      a.reserved_shared_per_block = 1024;
      break;
    case 9:
      a.reserved_shared_per_block = 1024;
      break;
    case 10:
      a.max_blocks_per_sm = minor == 1 ? 24 : 32;
      a.reserved_shared_per_block = 1024;
      break;
    case 11:
      a.max_blocks_per_sm = minor == 0 ? 24 : 32;
      a.reserved_shared_per_block = 1024;
      break;
    case 12:
      a.max_blocks_per_sm = 24;
      a.reserved_shared_per_block = 1024;
      break;
    default:
      return std::nullopt;
  }
  return a;
}

int64_t RoundUp(int64_t value, int64_t unit) { return (value + unit - 1) / unit * unit; }

constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();

}  // namespace

std::optional<double> TheoreticalOccupancyPercent(const OccupancyDevice& device, const OccupancyLaunch& launch) {
  std::optional<Architecture> arch = ArchitectureOf(device.compute_major, device.compute_minor);
  if (!arch || device.warp_size <= 0 || device.max_threads_per_sm < device.warp_size || device.registers_per_sm <= 0 ||
      device.shared_per_sm <= 0) {
    return std::nullopt;
  }
  // Far above any GPU's limits; keeps the arithmetic below in range for hostile input.
  constexpr int64_t kMaxBlockThreads = int64_t{1} << 20;
  constexpr int64_t kMaxSharedBytes = int64_t{1} << 40;
  if (launch.block_threads <= 0 || launch.registers_per_thread < 0 || launch.shared_bytes < 0 ||
      launch.block_threads > kMaxBlockThreads || launch.shared_bytes > kMaxSharedBytes ||
      launch.registers_per_thread > arch->max_registers_per_thread ||
      (device.max_threads_per_block > 0 && launch.block_threads > device.max_threads_per_block)) {
    return 0.0;
  }
  const int64_t max_warps = device.max_threads_per_sm / device.warp_size;
  const int64_t block_warps = (launch.block_threads + device.warp_size - 1) / device.warp_size;

  // Warps: as many blocks as the SM has warp slots for.
  const int64_t by_warps = max_warps / block_warps;

  // Registers: each warp gets its registers rounded up to the allocation unit, and a
  // warp's registers come from one sub-partition of the register file.
  int64_t by_registers = kUnlimited;
  if (launch.registers_per_thread > 0) {
    const int64_t per_warp = RoundUp(launch.registers_per_thread * device.warp_size, arch->register_granularity);
    if (device.registers_per_block > 0 && per_warp * block_warps > device.registers_per_block) return 0.0;
    const int64_t warps_per_partition = (device.registers_per_sm / arch->sub_partitions) / per_warp;
    by_registers = warps_per_partition * arch->sub_partitions / block_warps;
  }

  // Shared memory: the block's bytes plus the driver's reserve, rounded up to the unit,
  // against the SM's shared memory at the default carveout (the most it can have). A
  // launch above the per-block opt-in limit could not have run.
  int64_t by_shared = kUnlimited;
  const int64_t shared = RoundUp(launch.shared_bytes + arch->reserved_shared_per_block, arch->shared_granularity);
  const int64_t block_limit = std::max(device.shared_per_block, device.shared_per_block_optin);
  if (block_limit > 0 && shared > block_limit + arch->reserved_shared_per_block) return 0.0;
  if (shared > 0) by_shared = device.shared_per_sm / shared;

  const int64_t blocks = std::min({by_warps, by_registers, by_shared, static_cast<int64_t>(arch->max_blocks_per_sm)});
  return 100.0 * static_cast<double>(blocks * block_warps) / static_cast<double>(max_warps);
}

}  // namespace stepscope::xspace
