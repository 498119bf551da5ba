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

#include "src/analysis/model/op_placement.h"
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

// "12.0 % on host only (3.000 ms of framework ops that launched no device work), 88.0 %
// device (22.000 ms)": the one wording of placement in text reports.
std::string PlacementText(const OpPlacement& placement);

struct PieCharts {
  std::vector<PieSlice> host_op_type;
  std::vector<PieSlice> host_op;
  std::vector<PieSlice> device_op_type;
  std::vector<PieSlice> device_op;
};

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
  PieCharts pie_charts;
  OpPlacement placement;
  FrameworkGuess framework;
};

FrameworkOpStats ComputeFrameworkOpStats(const ProfileModel& model, bool include_idle);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

namespace op_stats_fields {
inline constexpr output::FieldInfo kRank{.label = "Rank", .description = "1 = the most self time"};
inline constexpr output::FieldInfo kWhere{.label = "Where", .description = "`host` or `device`"};
inline constexpr output::FieldInfo kOccurrences{.label = "Count", .unit = "count",
                                                .description = "how many times it ran"};
inline constexpr output::FieldInfo kTotal{.label = "Total (ms)", .unit = "ms", .decimals = 3};
inline constexpr output::FieldInfo kSelf{
    .label = "Self (ms)", .unit = "ms",
    .description = "total minus the time of its immediate children (device ops: = total)", .decimals = 3};
inline constexpr output::FieldInfo kSelfPercent{
    .label = "Self %", .unit = "%",
    .description = "of the side's total self time (plus idle time when idle is included)", .decimals = 1};
inline constexpr output::FieldInfo kCumulative{
    .label = "Cumulative %", .unit = "%",
    .description = "this row's and every row above it's self time percent (capped at 100)", .decimals = 1};
}  // namespace op_stats_fields

constexpr auto DescribeRecord(std::type_identity<OpStatsRow>) {
  using R = OpStatsRow;
  namespace f = op_stats_fields;
  auto avg = [](double total, int64_t n) { return n > 0 ? std::optional<double>(total / n) : std::nullopt; };
  return output::Record(
      "OpStatsRow", output::Field("rank", &R::rank, f::kRank),
      output::Computed<R>("host_or_device", [](const R& r) { return std::string_view(r.is_host ? "host" : "device"); },
                          f::kWhere),
      output::Field("type", &R::type,
                    {.label = "Type",
                     .description = "the op's type (`MatMul` for `model/dense/MatMul`); for frameworks without "
                                    "types the name itself",
                     .max_width = 24,
                     .when = "the side's ops have types (`host_has_types`, `device_has_types`)"}),
      output::Field("name", &R::name, {.label = "Operation", .max_width = 60}),
      output::Field("category", &R::category,
                    {.label = "Category",
                     .description = "what kind of op: `tensorflow`, `jax`, `pytorch`, `data_loader` (PyTorch's "
                                    "DataLoader iterations), `tf_data`, `cuda_runtime`, ...; `idle` for the idle "
                                    "row"}),
      output::Field("occurrences", &R::occurrences, f::kOccurrences),
      output::Field("total_time_ms", &R::total_time_ms,
                    {.label = "Total (ms)", .unit = "ms", .description = "including children", .decimals = 3}),
      output::Computed<R>("avg_time_ms", [avg](const R& r) { return avg(r.total_time_ms, r.occurrences); },
                          {.label = "Avg (ms)", .unit = "ms", .description = "total / count; null for the idle row",
                           .decimals = 3}),
      output::Field("total_self_time_ms", &R::total_self_time_ms, f::kSelf),
      output::Computed<R>("avg_self_time_ms", [avg](const R& r) { return avg(r.total_self_time_ms, r.occurrences); },
                          {.label = "Avg self (ms)", .unit = "ms", .decimals = 3}),
      output::Field("self_time_percent", &R::self_time_percent, f::kSelfPercent),
      output::Field("cumulative_self_time_percent", &R::cumulative_self_time_percent, f::kCumulative),
      output::Field("is_eager", &R::is_eager,
                    {.label = "Eager",
                     .description = "TensorFlow's `is_eager` stat",
                     .when = "TensorFlow and unknown profiles (others never record it)"}),
      output::Field("cpu_memory_bytes", &R::cpu_memory_bytes,
                    {.label = "CPU Mem (B)", .unit = "bytes",
                     .description = "key_averages()' CPU Mem: host allocator bytes allocated minus freed within "
                                    "each occurrence, on any thread, summed per op",
                     .when = "host ops of a profile with allocator events (`host_has_memory`)"}),
      output::Field("self_cpu_memory_bytes", &R::self_cpu_memory_bytes,
                    {.label = "Self CPU Mem (B)", .unit = "bytes",
                     .description = "CPU Mem minus its direct children's (ops nested in it on its thread)",
                     .when = "as `cpu_memory_bytes`"}),
      output::Field("device_memory_bytes", &R::device_memory_bytes,
                    {.label = "Device Mem (B)", .unit = "bytes",
                     .description = "key_averages()' CUDA Mem: the same on the devices' allocators",
                     .when = "as `cpu_memory_bytes`"}),
      output::Field("self_device_memory_bytes", &R::self_device_memory_bytes,
                    {.label = "Self Device Mem (B)", .unit = "bytes",
                     .description = "Device Mem minus its direct children's",
                     .when = "as `cpu_memory_bytes`"}));
}

constexpr auto DescribeRecord(std::type_identity<OpTypeRow>) {
  using R = OpTypeRow;
  namespace f = op_stats_fields;
  return output::Record(
      "OpTypeRow", output::Field("rank", &R::rank, f::kRank),
      output::Computed<R>("host_or_device", [](const R& r) { return std::string_view(r.is_host ? "host" : "device"); },
                          f::kWhere),
      output::Field("type", &R::type, {.label = "Type", .max_width = 40}),
      output::Field("op_count", &R::op_count, {.label = "Ops", .unit = "count", .description = "distinct ops"}),
      output::Field("occurrences", &R::occurrences, f::kOccurrences),
      output::Field("total_time_ms", &R::total_time_ms,
                    {.label = "Total (ms)", .unit = "ms", .description = "sum of the ops' total times",
                     .decimals = 3}),
      output::Field("total_self_time_ms", &R::total_self_time_ms, f::kSelf),
      output::Field("self_time_percent", &R::self_time_percent, f::kSelfPercent),
      output::Field("cumulative_self_time_percent", &R::cumulative_self_time_percent, f::kCumulative));
}

constexpr auto DescribeRecord(std::type_identity<PieSlice>) {
  using R = PieSlice;
  return output::Record("PieSlice",
                        output::Field("label", &R::label, {.description = "op or op type; `(other)` for the rest"}),
                        output::Field("self_time_ms", &R::self_time_ms, {.unit = "ms"}),
                        output::Field("percent", &R::percent, {.unit = "%", .description = "of the side's self time"}));
}

constexpr auto DescribeRecord(std::type_identity<PieCharts>) {
  using R = PieCharts;
  constexpr output::FieldInfo kPie{.description = "the 10 largest slices, then one `(other)` slice for the rest"};
  return output::Record("PieCharts", output::Field("host_op_type", &R::host_op_type, kPie),
                        output::Field("host_op", &R::host_op, kPie),
                        output::Field("device_op_type", &R::device_op_type, kPie),
                        output::Field("device_op", &R::device_op, kPie));
}

constexpr auto DescribeRecord(std::type_identity<OpPlacement>) {
  using R = OpPlacement;
  return output::Record(
      "OpPlacement",
      output::Field("host_time_ms", &R::host_time_ms,
                    {.unit = "ms", .description = "self time of framework ops that launched no device work"}),
      output::Field("device_time_ms", &R::device_time_ms, {.unit = "ms", .description = "device op self time"}),
      output::Field("host_percent", &R::host_percent, {.unit = "%"}),
      output::Field("device_percent", &R::device_percent, {.unit = "%"}));
}

// The type column only where the side has types; Eager only where the framework can say;
// the memory columns only for host ops of a profile with allocations.
bool ShowColumn(const FrameworkOpStats& stats, std::string_view table, std::string_view column);

constexpr auto DescribeRecord(std::type_identity<FrameworkOpStats>) {
  using R = FrameworkOpStats;
  return output::Record(
      "FrameworkOpStats", output::Constant("tool", "framework_op_stats"), output::Inline(&R::framework),
      output::Field("include_idle", &R::include_idle, {.description = "whether idle time is counted as an `IDLE` op"}),
      output::Field("host_has_memory", &R::host_has_memory,
                    {.description = "the profile records allocator events, so `host_ops` carries the memory "
                                    "columns"}),
      output::Field("host_has_types", &R::host_has_types,
                    {.description = "some host op has a type other than its name (TensorFlow's `name:Type`, HLO "
                                    "kinds); false for PyTorch, where the op tables have no `type` column"}),
      output::Field("device_has_types", &R::device_has_types, {.description = "as `host_has_types`, device side"}),
      output::Field("host_total_self_time_ms", &R::host_total_self_time_ms,
                    {.unit = "ms",
                     .description = "sum of host op self time, idle excluded: every host event that is an op "
                                    "(runtime calls and annotations too, not step markers or Python frames)"}),
      output::Field("device_total_self_time_ms", &R::device_total_self_time_ms,
                    {.unit = "ms", .description = "sum of device op self time, idle excluded"}),
      output::Field("host_idle_time_ms", &R::host_idle_time_ms,
                    {.unit = "ms", .description = "time within the recorded span covered by no op, per thread"}),
      output::Field("device_idle_time_ms", &R::device_idle_time_ms,
                    {.unit = "ms", .description = "time with no kernel or copy running"}),
      output::Field("op_placement", &R::placement,
                    {.description = "where framework op time runs: host only (no device work launched) or device"}),
      output::TableField("host_ops", &R::host_ops, "Host ops", {.description = "one row per host op, by self time"}),
      output::TableField("device_ops", &R::device_ops, "Device ops",
                         {.description = "one row per device op, by self time"}),
      output::TableField("host_op_types", &R::host_op_types, "Host op types",
                         {.description = "one row per host op type, by self time"}),
      output::TableField("device_op_types", &R::device_op_types, "Device op types",
                         {.description = "one row per device op type, by self time"}),
      output::Field("pie_charts", &R::pie_charts, {.description = "self time by op and op type, per side"}));
}

std::string FormatResultText(const FrameworkOpStats& stats, const ToolOptions& options);

std::unique_ptr<Tool> MakeFrameworkOpStatsTool();

}  // namespace stepscope::analysis
