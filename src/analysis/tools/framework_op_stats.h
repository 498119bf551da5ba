// framework_op_stats (TensorBoard's "TensorFlow Stats"): per op and per op type, on the
// host and on the device, how often it ran and how much total and self time it took,
// with percentages, cumulative percentages and the data for the four pie charts.
//
// Also home of op placement (host vs device share of op time), which the overview page
// and the advisor use.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/framework.h"

namespace stepscope::analysis {

// Pie charts show the largest slices and fold the rest into one "(other)" slice, so a
// chart stays readable with thousands of ops.
inline constexpr size_t kPieChartMaxSlices = 10;
// The name and type of the idle row when idle time is included (TensorBoard's spelling).
inline constexpr std::string_view kIdleOpName = "IDLE";

struct OpStatsRow {
  int64_t rank = 0;
  bool is_host = true;
  std::string type;
  std::string name;
  std::string category;  // OpCategoryName(), "idle" for the idle row
  int64_t occurrences = 0;
  double total_time_ms = 0;
  double total_self_time_ms = 0;
  // Of the side's total self time (plus idle when idle is included).
  double self_time_percent = 0;
  double cumulative_self_time_percent = 0;
  bool is_eager = false;
  bool is_idle = false;
  // Host ops of a profile that records allocations (OpMetricsDb::has_memory): bytes
  // allocated minus freed inside the op, with and without its children, on the host's
  // allocators and on the devices' (key_averages()' CPU Mem / Self CPU Mem / CUDA Mem /
  // Self CUDA Mem). Absent otherwise, and on the idle row.
  std::optional<int64_t> cpu_memory_bytes;
  std::optional<int64_t> self_cpu_memory_bytes;
  std::optional<int64_t> device_memory_bytes;
  std::optional<int64_t> self_device_memory_bytes;
};

struct OpTypeRow {
  int64_t rank = 0;
  bool is_host = true;
  std::string type;
  int64_t op_count = 0;  // distinct ops of this type
  int64_t occurrences = 0;
  double total_time_ms = 0;  // sum of the ops' total times (nested ops of one type add up)
  double total_self_time_ms = 0;
  double self_time_percent = 0;
  double cumulative_self_time_percent = 0;
};

struct PieSlice {
  std::string label;
  double self_time_ms = 0;
  double percent = 0;
};

// Where framework op time runs. Host time counts framework ops (TensorFlow, JAX and
// PyTorch names) that launched no device work: a GPU op's host event only launches
// kernels, so it is device time, not a host placement. Without a device every op is a
// host op. Not the same quantity as the host op table's total self time, which counts
// every host event (runtime calls, Python frames, annotations): pages label the two apart.
struct OpPlacement {
  double host_time_ms = 0;
  double device_time_ms = 0;
  double host_percent = 0;
  double device_percent = 0;
};
OpPlacement ComputeOpPlacement(const ProfileModel& model);
// "12.0 % on host only (3.000 ms of framework ops that launched no device work), 88.0 %
// device (22.000 ms)": the one wording of placement in text reports.
std::string PlacementText(const OpPlacement& placement);

struct FrameworkOpStats {
  bool include_idle = false;
  // The host ops carry memory columns (the profile records allocations).
  bool host_has_memory = false;
  // Some op of the side has a type other than its name (TensorFlow's "name:Type", HLO
  // kinds); false for frameworks without types (PyTorch's aten::add is its own type),
  // where a type column and the by-type tables would repeat the names.
  bool host_has_types = false;
  bool device_has_types = false;
  std::vector<OpStatsRow> host_ops;    // by self time, descending
  std::vector<OpStatsRow> device_ops;
  std::vector<OpTypeRow> host_op_types;
  std::vector<OpTypeRow> device_op_types;
  double host_total_self_time_ms = 0;  // idle excluded
  double device_total_self_time_ms = 0;
  double host_idle_time_ms = 0;
  double device_idle_time_ms = 0;
  std::vector<PieSlice> host_op_type_pie;
  std::vector<PieSlice> host_op_pie;
  std::vector<PieSlice> device_op_type_pie;
  std::vector<PieSlice> device_op_pie;
  OpPlacement placement;
  FrameworkGuess framework;
};

FrameworkOpStats ComputeFrameworkOpStats(const ProfileModel& model, bool include_idle);

void WriteResultJson(const FrameworkOpStats& stats, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const FrameworkOpStats& stats);
std::string FormatResultText(const FrameworkOpStats& stats, const ToolOptions& options);

std::unique_ptr<Tool> MakeFrameworkOpStatsTool();

}  // namespace stepscope::analysis
