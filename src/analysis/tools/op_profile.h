// op_profile: XProf's op profile for XLA programs - the hierarchy program -> category ->
// HLO op (-> the ops fused into it), each node with its share of device time, the FLOP and
// memory-bandwidth utilisation it achieved, and its "wasted time" (time x (1 - the better
// utilisation)), children ordered by wasted time so the costliest shortfalls come first.
// With ToolOptions::include_idle the device's idle time is a top-level node and part of
// every percentage (TensorBoard's "include idle" toggle).
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
#include "src/analysis/tools/hlo_stats.h"

namespace stepscope::analysis {

// Fused ops listed under one fusion at most (the ones with the most FLOPs): bodies of
// thousands of instructions exist, and a tree node of thousands of children reads as noise.
inline constexpr size_t kMaxFusedOpsPerFusion = 50;

enum class OpProfileLevel : uint8_t { kRoot = 0, kProgram, kCategory, kOp, kFusedOp, kIdle };
std::string_view OpProfileLevelName(OpProfileLevel level);  // "root", "program", ...

struct OpProfileNode {
  OpProfileLevel level = OpProfileLevel::kRoot;
  std::string name;
  std::string program;   // for categories, ops and fused ops
  std::string category;  // for ops and fused ops
  std::string opcode;    // ops and fused ops
  std::string expression;
  std::string bound_by;  // ops
  int64_t occurrences = 0;  // ops: executions
  int64_t time_ps = 0;      // device time (fused ops: 0, their time is the fusion's)
  double time_percent = 0;  // of the root's time
  double flops = 0;         // over all occurrences
  double bytes_accessed = 0;
  double flops_utilization_percent = 0;
  double bandwidth_utilization_percent = 0;
  int64_t wasted_time_ps = 0;
  double flops_share_percent = 0;  // fused ops: share of their fusion's FLOPs
  std::vector<OpProfileNode> children;
};

struct OpProfileResult {
  HloOpSummary summary;
  bool include_idle = false;
  int64_t idle_time_ps = 0;
  OpProfileNode root;
  std::vector<std::string> diagnostics;
};

OpProfileResult ComputeOpProfile(const ProfileModel& model, const ToolOptions& options);

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

namespace op_profile_fields {
// A node's name-like fields apply to some levels only: left out of the JSON elsewhere.
inline std::optional<std::string_view> IfSet(const std::string& text) {
  return output::OptionalIf(!text.empty(), std::string_view(text));
}
// Fused ops have no time of their own (it is their fusion's): no time figures in the table.
inline std::optional<double> IfTimed(const OpProfileNode& node, double value) {
  return output::OptionalIf(node.level != OpProfileLevel::kFusedOp, value);
}
}  // namespace op_profile_fields

constexpr auto DescribeRecord(std::type_identity<OpProfileNode>) {
  using R = OpProfileNode;
  using op_profile_fields::IfSet;
  return output::Record(
      "OpProfileNode",
      output::Computed<R>("level", [](const R& r) { return OpProfileLevelName(r.level); },
                          {.description = "`root`, `program`, `category`, `op`, `fused_op` or `idle`"}),
      output::Field("name", &R::name,
                    {.description = "the program, category or HLO op; `all programs` for the root, `IDLE` for idle"}),
      output::Computed<R>("program", [](const R& r) { return IfSet(r.program); },
                          {.description = "the program the node is in", .when = "the node is a category, op or fused op"}),
      output::Computed<R>("category", [](const R& r) { return IfSet(r.category); },
                          {.description = "as in hlo_stats", .when = "the node is an op or fused op"}),
      output::Computed<R>("opcode", [](const R& r) { return IfSet(r.opcode); }, {.when = "the node is an op or fused op"}),
      output::Computed<R>("expression", [](const R& r) { return IfSet(r.expression); },
                          {.description = "the HLO expression", .when = "the node is an op or fused op"}),
      output::Computed<R>("bound_by", [](const R& r) { return IfSet(r.bound_by); },
                          {.description = "`compute`, `memory`, `latency` or `unknown`", .when = "the node is an op"}),
      output::Field("occurrences", &R::occurrences,
                    {.unit = "count", .description = "executions; summed over the children above ops"}),
      output::Computed<R>("time_us", [](const R& r) { return PsToUs(r.time_ps); },
                          {.unit = "us", .description = "device time; 0 for fused ops (their time is the fusion's)"}),
      output::Field("time_percent", &R::time_percent,
                    {.unit = "%", .description = "of the root: HLO op time, plus idle with `include_idle`"}),
      output::Computed<R>("gflops", [](const R& r) { return r.flops / kFlopsPerGflop; },
                          {.unit = "GFLOP", .description = "over all occurrences"}),
      output::Computed<R>("gb", [](const R& r) { return r.bytes_accessed / kBytesPerGb; },
                          {.unit = "GB", .description = "bytes accessed, over all occurrences"}),
      output::Field("flops_utilization_percent", &R::flops_utilization_percent,
                    {.unit = "%", .description = "achieved FLOP rate of the compute roof; 0 when the peaks are unknown"}),
      output::Field("bandwidth_utilization_percent", &R::bandwidth_utilization_percent,
                    {.unit = "%", .description = "the same for bytes and the bandwidth roof"}),
      output::Computed<R>("wasted_time_us", [](const R& r) { return PsToUs(r.wasted_time_ps); },
                          {.unit = "us", .description = "time x (1 - the better utilisation); all of idle time"}),
      output::Computed<R>("flops_share_percent",
                          [](const R& r) {
                            return output::OptionalIf(r.level == OpProfileLevel::kFusedOp, r.flops_share_percent);
                          },
                          {.unit = "%", .description = "of their fusion's FLOPs", .when = "the node is a fused op"}),
      output::Field("children", &R::children,
                    {.description = "by wasted time, then time, then name; fused ops: at most 50, most FLOPs first"}));
}

// A row of the tree flattened depth first (the `op_profile` table).
struct OpProfileRow {
  const OpProfileNode* node = nullptr;
  int64_t depth = 0;  // programs (and idle) 0
};
std::vector<OpProfileRow> FlattenOpProfile(const OpProfileResult& result);

constexpr auto DescribeRecord(std::type_identity<OpProfileRow>) {
  using R = OpProfileRow;
  using op_profile_fields::IfTimed;
  return output::Record(
      "OpProfileRow",
      output::Computed<R>("level", [](const R& r) { return OpProfileLevelName(r.node->level); }, {.label = "Level"}),
      output::Field("depth", &R::depth, {.label = "Depth", .description = "0 for programs, 1 categories, ..."}),
      output::Computed<R>("program", [](const R& r) { return std::string_view(r.node->program); },
                          {.label = "Program", .max_width = 28}),
      output::Computed<R>("category", [](const R& r) { return std::string_view(r.node->category); },
                          {.label = "Category"}),
      output::Computed<R>("name", [](const R& r) { return std::string_view(r.node->name); },
                          {.label = "Name", .max_width = 36}),
      output::Computed<R>("opcode", [](const R& r) { return std::string_view(r.node->opcode); }, {.label = "Opcode"}),
      output::Computed<R>("occurrences", [](const R& r) { return r.node->occurrences; },
                          {.label = "Occurrences", .unit = "count"}),
      output::Computed<R>("time_us", [](const R& r) { return IfTimed(*r.node, PsToUs(r.node->time_ps)); },
                          {.label = "Time (us)", .unit = "us", .description = "empty for fused ops", .decimals = 1}),
      output::Computed<R>("time_percent", [](const R& r) { return IfTimed(*r.node, r.node->time_percent); },
                          {.label = "Time %", .unit = "%", .decimals = 1}),
      output::Computed<R>("gflops", [](const R& r) { return r.node->flops / kFlopsPerGflop; },
                          {.label = "GFLOP", .unit = "GFLOP", .decimals = 3}),
      output::Computed<R>("flops_utilization_percent",
                          [](const R& r) { return IfTimed(*r.node, r.node->flops_utilization_percent); },
                          {.label = "FLOP util %", .unit = "%", .decimals = 1}),
      output::Computed<R>("bandwidth_utilization_percent",
                          [](const R& r) { return IfTimed(*r.node, r.node->bandwidth_utilization_percent); },
                          {.label = "BW util %", .unit = "%", .decimals = 1}),
      output::Computed<R>("wasted_time_us", [](const R& r) { return IfTimed(*r.node, PsToUs(r.node->wasted_time_ps)); },
                          {.label = "Wasted (us)", .unit = "us", .decimals = 1}),
      output::Computed<R>("bound_by", [](const R& r) { return std::string_view(r.node->bound_by); },
                          {.label = "Bound by"}));
}

constexpr auto DescribeRecord(std::type_identity<OpProfileResult>) {
  using R = OpProfileResult;
  return output::Record(
      "OpProfileResult", output::Constant("tool", "op_profile"),
      output::Field("summary", &R::summary, {.description = "as hlo_stats' `summary`"}),
      output::Field("include_idle", &R::include_idle,
                    {.description = "whether the device's idle time is a node and part of every percentage"}),
      output::Computed<R>("idle_time_us", [](const R& r) { return PsToUs(r.idle_time_ps); },
                          {.unit = "us", .description = "the device's idle time (`device_ops.idle_time_ps`)"}),
      output::Field("root", &R::root, {.description = "the tree: program > category > op > fused op (and idle)"}),
      output::TableView<R>("op_profile", [](const R& r) { return FlattenOpProfile(r); },
                           "Op profile: program > category > op > fused op, by wasted time",
                           {.description = "the tree flattened depth first, the root left out"}),
      output::Field("diagnostics", &R::diagnostics, {.description = "as hlo_stats'"}));
}

std::string FormatResultText(const OpProfileResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeOpProfileTool();

}  // namespace stepscope::analysis
