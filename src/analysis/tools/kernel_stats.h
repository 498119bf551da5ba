// kernel_stats: per GPU kernel and the op it ran for, ranked by total time, with launch
// parameters, occupancy, Tensor Core eligibility and use (XProf's kernel_stats tool).
// The kernel reports themselves (merge key, Tensor Core rules) live in the model; this
// tool ranks, converts units and summarises.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/kernel_summary.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

// XProf keeps the 1000 kernels with the largest total time; a longer table is noise in a
// UI and the summary numbers below still cover every kernel.
inline constexpr size_t kMaxKernelRows = 1000;

struct KernelRow {
  int64_t rank = 0;
  std::string kernel_name;
  std::string op_name;
  // Absent where the profile does not hold them (KernelLaunchParams).
  std::optional<int64_t> registers_per_thread;
  std::optional<int64_t> shared_memory_bytes;  // static + dynamic
  std::string block_dim;  // "x,y,z"
  std::string grid_dim;
  std::optional<double> occupancy_pct;
  bool is_op_tensor_core_eligible = false;
  bool is_kernel_using_tensor_core = false;
  int64_t occurrences = 0;
  double total_duration_us = 0;
  double avg_duration_us = 0;
  double min_duration_us = 0;
  double max_duration_us = 0;
};

// Kernel time of one framework op, over all its kernels (the per-op pie).
struct KernelOpRow {
  std::string op_name;  // empty: kernels with no known framework op
  int64_t kernels = 0;  // distinct kernel names
  int64_t launches = 0;
  double total_time_ms = 0;
  double percent = 0;  // of all kernel time
};

// One kernel name over every op and launch configuration it ran with: the kernel table's
// rows that differ only in grid, block or op, summed (the grouped-by-kernel view).
struct KernelNameRow {
  std::string kernel_name;
  int64_t configurations = 0;  // distinct (registers, shared memory, grid, block)
  int64_t ops = 0;             // distinct framework ops, "no op" counting as one
  int64_t occurrences = 0;
  double total_duration_us = 0;
  double avg_duration_us = 0;
  double percent = 0;  // of all kernel time
};

struct KernelStatsResult {
  KernelSummary summary;
  std::vector<KernelRow> kernels;      // at most kMaxKernelRows, by total time
  std::vector<KernelOpRow> ops;        // every op, by total time
  std::vector<KernelNameRow> names;    // at most kMaxKernelRows, by total time
};

KernelStatsResult ComputeKernelStats(const ProfileModel& model);
// True when the profile has a GPU device plane (XProf lists the tool only then).
bool HasGpuPlane(const ProfileModel& model);

void WriteResultJson(const KernelStatsResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const KernelStatsResult& result);
std::string FormatResultText(const KernelStatsResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeKernelStatsTool();

}  // namespace stepscope::analysis
