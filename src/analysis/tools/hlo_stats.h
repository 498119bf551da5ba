// hlo_stats: one row per HLO instruction that ran on a device (XProf's HLO stats): how
// often, for how long, its category, the FLOP rate and memory bandwidth it achieved, what
// bounds it (compute / memory / latency) and where in the user's program it came from.
// Kernels are tied to instructions by their hlo_module / program_id / hlo_op stats
// (ProfileModel::hlo_ops); costs come from the HLO cost model (src/hlo/hlo_cost.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/model/units.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

struct HloStatsRow {
  int64_t rank = 0;
  HloOpMetrics op;
  double total_time_us = 0;
  double avg_time_us = 0;
  double time_percent = 0;             // of all HLO op time
  double cumulative_time_percent = 0;  // this row and those above it
};

struct HloStatsResult {
  HloOpSummary summary;
  std::vector<HloStatsRow> rows;  // by total time
  std::vector<std::string> diagnostics;
};

HloStatsResult ComputeHloStats(const ProfileModel& model);

// Units of the rate columns, shared by the HLO tools' tables.
inline constexpr double kFlopsPerGflop = 1e9;
inline constexpr double kBytesPerGb = 1e9;

// What the HLO tools say when the data is thin (no HLO, kernels without hlo_op, unknown
// peaks), one line each.
std::vector<std::string> HloDiagnostics(const ProfileModel& model, const HloOpSummary& summary);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

// The summary's "device": the roofs the utilisations are measured against.
struct HloDeviceRoofs {
  std::optional<double> peak_tflops;
  std::optional<double> peak_bandwidth_gbps;
  std::optional<double> ridge_flops_per_byte;
  std::string flops_source;
  std::string bandwidth_source;
};
HloDeviceRoofs DeviceRoofsOf(const DevicePeaks& peaks);

constexpr auto DescribeRecord(std::type_identity<HloDeviceRoofs>) {
  using R = HloDeviceRoofs;
  return output::Record(
      "HloDeviceRoofs",
      output::Field("peak_tflops", &R::peak_tflops,
                    {.unit = "TFLOP/s", .description = "the device's peak compute; null when unknown"}),
      output::Field("peak_bandwidth_gbps", &R::peak_bandwidth_gbps,
                    {.unit = "GB/s", .description = "the device's memory bandwidth; null when unknown"}),
      output::Field("ridge_flops_per_byte", &R::ridge_flops_per_byte,
                    {.unit = "FLOP/B",
                     .description = "where the roofs meet: below it an op is memory bound; null unless both are known"}),
      output::Field("flops_source", &R::flops_source, {.description = "where the peak compute comes from"}),
      output::Field("bandwidth_source", &R::bandwidth_source, {.description = "where the bandwidth comes from"}));
}

constexpr auto DescribeRecord(std::type_identity<HloOpSummary>) {
  using R = HloOpSummary;
  auto if_known = [](const R& r, double value) { return output::OptionalIf(r.peaks.known(), value); };
  return output::Record(
      "HloOpSummary",
      output::Field("programs", &R::modules, {.unit = "count", .description = "XLA programs in the profile"}),
      output::Field("hlo_instructions", &R::instructions, {.unit = "count"}),
      output::Computed<R>("kernels", [](const R& r) { return r.join.kernels; },
                          {.unit = "count", .description = "device kernels"}),
      output::Computed<R>("kernels_with_hlo_op", [](const R& r) { return r.join.kernels_with_hlo_op; },
                          {.unit = "count", .description = "kernels carrying an `hlo_op` stat"}),
      output::Computed<R>("kernels_joined", [](const R& r) { return r.join.kernels_joined; },
                          {.unit = "count", .description = "kernels tied to an instruction of the profile's programs"}),
      output::Computed<R>("join_rate_percent", [](const R& r) { return 100.0 * r.join.join_rate(); },
                          {.unit = "%", .description = "kernels joined, of all kernels"}),
      output::Computed<R>("total_time_ms", [](const R& r) { return PsToMs(r.total_time_ps); },
                          {.unit = "ms", .description = "over every HLO op row"}),
      output::Computed<R>("unknown_flops_time_percent",
                          [](const R& r) {
                            return Percent(static_cast<double>(r.unknown_flops_time_ps),
                                           static_cast<double>(r.total_time_ps));
                          },
                          {.unit = "%",
                           .description = "of HLO op time, in ops whose FLOPs the cost model cannot know (custom "
                                          "calls): the utilisations are lower bounds when not 0"}),
      output::Computed<R>("total_gflops", [](const R& r) { return r.total_flops / kFlopsPerGflop; }, {.unit = "GFLOP"}),
      output::Computed<R>("total_gb", [](const R& r) { return r.total_bytes / kBytesPerGb; },
                          {.unit = "GB", .description = "bytes accessed"}),
      output::Computed<R>("flops_utilization_percent",
                          [if_known](const R& r) { return if_known(r, r.flops_utilization_percent); },
                          {.unit = "%",
                           .description = "total FLOPs over the HLO ops' time, of the compute roof; null when the "
                                          "device's peaks are unknown"}),
      output::Computed<R>("bandwidth_utilization_percent",
                          [if_known](const R& r) { return if_known(r, r.bandwidth_utilization_percent); },
                          {.unit = "%", .description = "the same for bytes and the bandwidth roof"}),
      output::Computed<R>("device", [](const R& r) { return DeviceRoofsOf(r.peaks); }));
}

constexpr auto DescribeRecord(std::type_identity<HloStatsRow>) {
  using R = HloStatsRow;
  // Cost-model figures: null for an op the profile's programs do not have.
  auto cost = [](const R& r, double value) { return output::OptionalIf(r.op.has_cost, value); };
  return output::Record(
      "HloStatsRow", output::Field("rank", &R::rank, {.label = "Rank", .description = "1 = the most device time"}),
      output::Computed<R>("program", [](const R& r) { return std::string_view(r.op.program); },
                          {.label = "Program", .description = "the module as `name(program id)`", .max_width = 30}),
      output::Computed<R>("op_name", [](const R& r) { return std::string_view(r.op.op_name); },
                          {.label = "HLO op", .max_width = 36}),
      output::Computed<R>("opcode", [](const R& r) { return std::string_view(r.op.opcode); },
                          {.label = "Opcode", .description = "empty when not resolved"}),
      output::Computed<R>("category", [](const R& r) { return std::string_view(r.op.category); },
                          {.label = "Category", .description = "convolution, matmul, loop fusion, ..."}),
      output::Computed<R>("occurrences", [](const R& r) { return r.op.occurrences; },
                          {.label = "Occurrences", .unit = "count"}),
      output::Computed<R>("kernels", [](const R& r) { return r.op.kernel_count; }, {.label = "Kernels", .unit = "count"}),
      output::Field("total_time_us", &R::total_time_us,
                    {.label = "Total time (µs)", .unit = "us", .description = "device (kernel) time", .decimals = 1}),
      output::Field("avg_time_us", &R::avg_time_us, {.label = "Avg time (µs)", .unit = "us"}),
      output::Computed<R>("total_self_time_us", [](const R& r) { return r.total_time_us; },
                          {.label = "Self time (µs)", .unit = "us", .description = "equals the total time",
                           .decimals = 1}),
      output::Field("time_percent", &R::time_percent,
                    {.label = "Time %", .unit = "%", .description = "of all HLO op time", .decimals = 1}),
      output::Field("cumulative_time_percent", &R::cumulative_time_percent,
                    {.label = "Cumulative %", .unit = "%", .description = "this row and those above it",
                     .decimals = 1}),
      output::Computed<R>("gflops", [cost](const R& r) { return cost(r, r.op.flops / kFlopsPerGflop); },
                          {.label = "GFLOP per occurrence", .unit = "GFLOP", .decimals = 4}),
      output::Computed<R>("gflop_rate", [cost](const R& r) { return cost(r, r.op.flop_rate_per_s / kFlopsPerGflop); },
                          {.label = "FLOP rate (GFLOP/s)", .unit = "GFLOP/s", .decimals = 1}),
      output::Computed<R>("memory_bw_gbps",
                          [cost](const R& r) { return cost(r, r.op.bandwidth_bytes_per_s / kBytesPerGb); },
                          {.label = "Memory BW (GB/s)", .unit = "GB/s", .decimals = 1}),
      output::Computed<R>("arithmetic_intensity", [cost](const R& r) { return cost(r, r.op.arithmetic_intensity); },
                          {.label = "Intensity (FLOP/B)", .unit = "FLOP/B", .description = "FLOP per byte accessed"}),
      output::Computed<R>("flops_utilization_percent",
                          [cost](const R& r) { return cost(r, r.op.flops_utilization_percent); },
                          {.label = "FLOP util %", .unit = "%", .decimals = 1}),
      output::Computed<R>("bandwidth_utilization_percent",
                          [cost](const R& r) { return cost(r, r.op.bandwidth_utilization_percent); },
                          {.label = "BW util %", .unit = "%", .decimals = 1}),
      output::Computed<R>("bound_by", [](const R& r) { return BoundByName(r.op.bound_by); },
                          {.label = "Bound by", .description = "`compute`, `memory`, `latency` or `unknown`"}),
      output::Computed<R>("framework_op", [](const R& r) { return std::string_view(r.op.framework_op); },
                          {.label = "Framework op", .max_width = 40}),
      output::Computed<R>("source", [](const R& r) { return std::string_view(r.op.source); },
                          {.label = "Source", .description = "`file.py:line`; empty when unknown", .max_width = 30}),
      output::Computed<R>("expression", [](const R& r) { return std::string_view(r.op.expression); },
                          {.label = "HLO expression", .max_width = 50}));
}

constexpr auto DescribeRecord(std::type_identity<HloStatsResult>) {
  using R = HloStatsResult;
  return output::Record(
      "HloStatsResult", output::Constant("tool", "hlo_stats"),
      output::Field("summary", &R::summary, {.description = "over every HLO op"}),
      output::TableField("hlo_ops", &R::rows, "HLO ops by total device time",
                         {.description = "one row per HLO op, by total device time"}),
      output::Field("diagnostics", &R::diagnostics, {.description = "why numbers are missing or partial"}));
}

std::string FormatResultText(const HloStatsResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeHloStatsTool();

}  // namespace stepscope::analysis
