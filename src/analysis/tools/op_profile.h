// op_profile: XProf's op profile for XLA programs - the hierarchy program -> category ->
// HLO op (-> the ops fused into it), each node with its share of device time, the FLOP and
// memory-bandwidth utilisation it achieved, and its "wasted time" (time x (1 - the better
// utilisation)), children ordered by wasted time so the costliest shortfalls come first.
// With ToolOptions::include_idle the device's idle time is a top-level node and part of
// every percentage (TensorBoard's "include idle" toggle).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/tool.h"

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

void WriteResultJson(const OpProfileResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const OpProfileResult& result);
std::string FormatResultText(const OpProfileResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeOpProfileTool();

}  // namespace stepscope::analysis
