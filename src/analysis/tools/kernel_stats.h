// kernel_stats: per GPU kernel and the op it ran for, ranked by total time, with launch
// parameters, occupancy, Tensor Core eligibility and use (XProf's kernel_stats tool).
// The kernel reports themselves (merge key, Tensor Core rules) live in the model; this
// tool ranks, converts units and summarises.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/analysis/model/kernel_summary.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

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
  std::vector<KernelRow> kernels;      // at most max_kernels, by total time
  std::vector<KernelOpRow> ops;        // every op, by total time
  std::vector<KernelNameRow> names;    // at most max_kernels, by total time
};

// At most `max_kernels` rows in the kernel and kernel-name tables (ToolOptions::max_kernels).
KernelStatsResult ComputeKernelStats(const ProfileModel& model, size_t max_kernels = 1000);
// True when the profile has a GPU device plane (XProf lists the tool only then).
bool HasGpuPlane(const ProfileModel& model);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

namespace kernel_fields {
inline constexpr output::FieldInfo kKernelName{.label = "Kernel", .max_width = 50};
inline constexpr output::FieldInfo kCount{.label = "Count", .unit = "count", .description = "launches"};
inline constexpr output::FieldInfo kTotalUs{.label = "Total (µs)", .unit = "us", .decimals = 1};
inline constexpr output::FieldInfo kAvgUs{.label = "Avg (µs)", .unit = "us"};
inline constexpr output::FieldInfo kPercentOfKernelTime{.label = "% of kernel time", .unit = "%", .decimals = 1};
// Tensor Core figures where no GPU of the profile can have Tensor Cores: not 0, absent.
template <typename T>
std::optional<T> IfTensorCoresApply(const KernelSummary& s, T value) {
  return output::OptionalIf(s.tensor_cores_apply, std::move(value));
}
}  // namespace kernel_fields

constexpr auto DescribeRecord(std::type_identity<KernelRow>) {
  using R = KernelRow;
  namespace f = kernel_fields;
  constexpr std::string_view kUnknownSizes =
      "null when the file does not hold it, or holds a value no kernel can have (0 registers, 0 % occupancy, more "
      "than 1024 registers per thread or 1 MiB of shared memory); the diagnostics then name the record";
  return output::Record(
      "KernelRow", output::Field("rank", &R::rank, {.label = "Rank", .description = "1 = the most total time"}),
      output::Field("kernel_name", &R::kernel_name, f::kKernelName),
      output::Field("registers_per_thread", &R::registers_per_thread,
                    {.label = "Registers", .unit = "count", .description = kUnknownSizes}),
      output::Field("shmem_bytes", &R::shared_memory_bytes,
                    {.label = "Shared mem (B)", .unit = "bytes", .description = "static + dynamic; null as registers"}),
      output::Field("block_dim", &R::block_dim, {.label = "Block", .description = "`x,y,z`"}),
      output::Field("grid_dim", &R::grid_dim, {.label = "Grid", .description = "`x,y,z`"}),
      output::Field("occupancy_pct", &R::occupancy_pct,
                    {.label = "Occupancy %", .unit = "%",
                     .description = "theoretical occupancy: recorded by stepscope's tracer, computed for Kineto traces "
                                    "from the launch and the device's limits; null as registers",
                     .decimals = 1}),
      output::Field("is_op_tensor_core_eligible", &R::is_op_tensor_core_eligible,
                    {.label = "TC eligible",
                     .description = "the kernel's op can use Tensor Cores (convolutions, matrix products)",
                     .when = "`summary.tensor_cores_apply`"}),
      output::Field("is_kernel_using_tensor_core", &R::is_kernel_using_tensor_core,
                    {.label = "Uses TC",
                     .description = "the kernel's name says it uses Tensor Cores (`h884`, `s1688`, ...)",
                     .when = "`summary.tensor_cores_apply`"}),
      output::Field("op_name", &R::op_name,
                    {.label = "Op",
                     .description = "framework op; empty when none is known (e.g. a kernel launched before the capture)",
                     .max_width = 40}),
      output::Field("occurrences", &R::occurrences, f::kCount),
      output::Field("total_duration_us", &R::total_duration_us, f::kTotalUs),
      output::Field("avg_duration_us", &R::avg_duration_us, f::kAvgUs),
      output::Field("min_duration_us", &R::min_duration_us, {.label = "Min (µs)", .unit = "us"}),
      output::Field("max_duration_us", &R::max_duration_us, {.label = "Max (µs)", .unit = "us"}));
}

constexpr auto DescribeRecord(std::type_identity<KernelOpRow>) {
  using R = KernelOpRow;
  return output::Record(
      "KernelOpRow",
      output::Field("op_name", &R::op_name,
                    {.label = "Op", .description = "empty: kernels with no known framework op", .max_width = 50}),
      output::Field("kernels", &R::kernels, {.label = "Kernels", .unit = "count", .description = "distinct kernel names"}),
      output::Field("launches", &R::launches, {.label = "Launches", .unit = "count"}),
      output::Field("total_time_ms", &R::total_time_ms, {.label = "Total (ms)", .unit = "ms", .decimals = 3}),
      output::Field("percent", &R::percent, kernel_fields::kPercentOfKernelTime));
}

constexpr auto DescribeRecord(std::type_identity<KernelNameRow>) {
  using R = KernelNameRow;
  namespace f = kernel_fields;
  return output::Record(
      "KernelNameRow", output::Field("kernel_name", &R::kernel_name, f::kKernelName),
      output::Field("configurations", &R::configurations,
                    {.label = "Launch configs", .unit = "count",
                     .description = "distinct registers / shared memory / grid / block"}),
      output::Field("ops", &R::ops,
                    {.label = "Ops", .unit = "count", .description = "distinct framework ops, none counting as one"}),
      output::Field("occurrences", &R::occurrences, f::kCount),
      output::Field("total_duration_us", &R::total_duration_us, f::kTotalUs),
      output::Field("avg_duration_us", &R::avg_duration_us, f::kAvgUs),
      output::Field("percent", &R::percent, f::kPercentOfKernelTime));
}

// TensorBoard's Tensor Core pie: three parts of kernel time that sum to the total.
struct TensorCoreTime {
  double using_tensor_cores = 0;
  double eligible_not_using = 0;
  double not_eligible = 0;
};
constexpr auto DescribeRecord(std::type_identity<TensorCoreTime>) {
  using R = TensorCoreTime;
  return output::Record(
      "TensorCoreTime", output::Field("using_tensor_cores", &R::using_tensor_cores, {.unit = "ms"}),
      output::Field("eligible_not_using", &R::eligible_not_using,
                    {.unit = "ms", .description = "kernels of Tensor-Core-eligible ops that do not use them"}),
      output::Field("not_eligible", &R::not_eligible, {.unit = "ms"}));
}

constexpr auto DescribeRecord(std::type_identity<KernelSummary>) {
  using R = KernelSummary;
  using kernel_fields::IfTensorCoresApply;
  return output::Record(
      "KernelSummary",
      output::Field("distinct_kernel_names", &R::distinct_kernel_names,
                    {.unit = "count", .description = "distinct kernels by name"}),
      output::Field("kernel_op_groups", &R::kernel_op_groups,
                    {.unit = "count",
                     .description = "the kernel table's rows: a kernel run for two ops or with two launch shapes is one "
                                    "kernel, several groups"}),
      output::Computed<R>("distinct_kernels", [](const R& r) { return r.kernel_op_groups; },
                          {.unit = "count",
                           .description = "the old name of `kernel_op_groups`, kept with that value for existing "
                                          "readers; it never counted kernels"}),
      output::Field("launches", &R::launches, {.unit = "count"}),
      output::Field("total_time_ms", &R::total_time_ms, {.unit = "ms"}),
      output::Field("median_duration_us", &R::median_duration_us,
                    {.unit = "us", .description = "median over launches, each launch taking its group's average"}),
      output::Field("tiny_launches", &R::tiny_launches,
                    {.unit = "count", .description = "launches of groups averaging < 10 µs"}),
      output::Field("tiny_launch_percent", &R::tiny_launch_percent, {.unit = "%"}),
      output::Field("tensor_cores_apply", &R::tensor_cores_apply,
                    {.description = "false when no active GPU can have Tensor Cores (AMD, or NVIDIA below compute "
                                    "capability 7); the Tensor Core figures are then null"}),
      output::Computed<R>("tensor_core_time_percent",
                          [](const R& r) { return IfTensorCoresApply(r, r.tensor_core_time_percent); },
                          {.unit = "%", .description = "of kernel time, in kernels that use Tensor Cores"}),
      output::Computed<R>("eligible_without_tensor_core_kernels",
                          [](const R& r) { return IfTensorCoresApply(r, r.eligible_without_tensor_core_kernels); },
                          {.unit = "count"}),
      output::Computed<R>("eligible_without_tensor_core_time_ms",
                          [](const R& r) { return IfTensorCoresApply(r, r.eligible_without_tensor_core_time_ms); },
                          {.unit = "ms"}),
      output::Computed<R>("eligible_without_tensor_core_percent",
                          [](const R& r) { return IfTensorCoresApply(r, r.eligible_without_tensor_core_percent); },
                          {.unit = "%", .description = "of kernel time"}));
}

// The Tensor Core columns only where a GPU can have them.
bool ShowColumn(const KernelStatsResult& result, std::string_view table, std::string_view column);

constexpr auto DescribeRecord(std::type_identity<KernelStatsResult>) {
  using R = KernelStatsResult;
  return output::Record(
      "KernelStatsResult", output::Constant("tool", "kernel_stats"),
      output::Field("summary", &R::summary, {.description = "over all kernels"}),
      output::Computed<R>("tensor_core_time_ms",
                          [](const R& r) {
                            const KernelSummary& s = r.summary;
                            return kernel_fields::IfTensorCoresApply(
                                s, TensorCoreTime{s.tensor_core_time_ms, s.eligible_without_tensor_core_time_ms,
                                                  s.not_eligible_time_ms});
                          },
                          {.description = "TensorBoard's Tensor Core pie, over all kernels, summing to "
                                          "`summary.total_time_ms`; null when Tensor Cores do not apply"}),
      output::TableField("kernel_ops", &R::ops, "Kernel time by framework op",
                         {.description = "kernel time by framework op over all kernels (not only the listed ones), by "
                                         "total time"}),
      output::Computed<R>("truncated",
                          [](const R& r) { return r.summary.kernel_op_groups > static_cast<int64_t>(r.kernels.size()); },
                          {.description = "more kernel groups exist than `max_kernels`; only the largest by total time are "
                                          "listed"}),
      output::TableField("kernels", &R::kernels, "GPU kernels by total time",
                         {.description = "one row per kernel, framework op and launch configuration, by total time "
                                         "(at most `max_kernels`)"}),
      output::TableField("kernel_names", &R::names, "Kernels by name (every op and launch configuration)",
                         {.description = "one row per kernel name over every op and launch configuration it ran "
                                         "with, by total time (at most `max_kernels`)"}));
}

std::string FormatResultText(const KernelStatsResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeKernelStatsTool();

}  // namespace stepscope::analysis
