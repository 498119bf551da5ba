#include "src/analysis/tools/op_profile.h"

#include <algorithm>
#include <map>
#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tools/hlo_stats.h"
#include "src/hlo/hlo_cost.h"
#include "src/hlo/hlo_programs.h"

namespace stepscope::analysis {
namespace {

double Rate(double amount, int64_t time_ps) { return time_ps > 0 ? amount / (static_cast<double>(time_ps) * 1e-12) : 0; }

// Opcodes that name memory without touching it: not listed as fused ops.
bool IsBookkeeping(const std::string& opcode) {
  return opcode == "parameter" || opcode == "constant" || opcode == "tuple" || opcode == "get-tuple-element" ||
         opcode == "bitcast";
}

// The ops fused into `fusion`, with their FLOPs over the fusion's occurrences.
void AddFusedOps(const hlo::HloModule& module, const hlo::HloCostModel& costs, const HloOpMetrics& fusion,
                 OpProfileNode* node) {
  const hlo::Instruction& instruction = module.instructions[static_cast<size_t>(fusion.instruction)];
  const double occurrences = static_cast<double>(std::max<int64_t>(fusion.occurrences, 1));
  std::vector<OpProfileNode> fused;
  for (int32_t c : instruction.called_computations) {
    for (int32_t i : module.computations[static_cast<size_t>(c)].instructions) {
      const hlo::Instruction& inner = module.instructions[static_cast<size_t>(i)];
      if (IsBookkeeping(inner.opcode)) continue;
      OpProfileNode& child = fused.emplace_back();
      child.level = OpProfileLevel::kFusedOp;
      child.name = inner.name;
      child.program = fusion.program;
      child.category = HloCategory(module, i);
      child.opcode = inner.opcode;
      child.expression = inner.shape.ToString() + " " + inner.opcode;
      child.flops = costs.cost(i).flops * occurrences;
      child.flops_share_percent = Percent(costs.cost(i).flops, fusion.flops);
    }
  }
  std::stable_sort(fused.begin(), fused.end(), [](const OpProfileNode& a, const OpProfileNode& b) { return a.flops > b.flops; });
  if (fused.size() > kMaxFusedOpsPerFusion) fused.resize(kMaxFusedOpsPerFusion);
  node->children = std::move(fused);
}

OpProfileNode OpNode(const HloOpMetrics& op) {
  OpProfileNode node;
  node.level = OpProfileLevel::kOp;
  node.name = op.op_name;
  node.program = op.program;
  node.category = op.category;
  node.opcode = op.opcode;
  node.expression = op.expression;
  node.bound_by = std::string(BoundByName(op.bound_by));
  node.occurrences = op.occurrences;
  node.time_ps = op.total_time_ps;
  const double occurrences = static_cast<double>(std::max<int64_t>(op.occurrences, 1));
  node.flops = op.flops * occurrences;
  node.bytes_accessed = op.bytes_accessed * occurrences;
  node.flops_utilization_percent = op.flops_utilization_percent;
  node.bandwidth_utilization_percent = op.bandwidth_utilization_percent;
  node.wasted_time_ps = op.wasted_time_ps;
  return node;
}

// Sums children into `node` (time, FLOPs, bytes, wasted time), derives its utilisation and
// orders the children by wasted time, then time, then name.
void Roll(const DevicePeaks& peaks, OpProfileNode* node) {
  for (OpProfileNode& child : node->children) {
    if (child.level != OpProfileLevel::kOp && child.level != OpProfileLevel::kFusedOp &&
        child.level != OpProfileLevel::kIdle) {
      Roll(peaks, &child);
    }
  }
  if (node->level == OpProfileLevel::kOp || node->level == OpProfileLevel::kFusedOp) return;
  node->time_ps = node->flops = node->bytes_accessed = 0;
  node->wasted_time_ps = 0;
  for (const OpProfileNode& child : node->children) {
    node->time_ps += child.time_ps;
    node->flops += child.flops;
    node->bytes_accessed += child.bytes_accessed;
    node->wasted_time_ps += child.wasted_time_ps;
    node->occurrences += child.occurrences;
  }
  if (peaks.known()) {
    node->flops_utilization_percent = Percent(Rate(node->flops, node->time_ps), peaks.peak_flops_per_s);
    node->bandwidth_utilization_percent = Percent(Rate(node->bytes_accessed, node->time_ps), peaks.memory_bandwidth_bytes_per_s);
  }
  std::stable_sort(node->children.begin(), node->children.end(), [](const OpProfileNode& a, const OpProfileNode& b) {
    if (a.wasted_time_ps != b.wasted_time_ps) return a.wasted_time_ps > b.wasted_time_ps;
    if (a.time_ps != b.time_ps) return a.time_ps > b.time_ps;
    return a.name < b.name;
  });
}

void SetPercents(int64_t total_ps, OpProfileNode* node) {
  node->time_percent = Percent(static_cast<double>(node->time_ps), static_cast<double>(total_ps));
  for (OpProfileNode& child : node->children) SetPercents(total_ps, &child);
}

void Flatten(const OpProfileNode& node, int64_t depth, std::vector<OpProfileRow>* rows) {
  if (node.level != OpProfileLevel::kRoot) rows->push_back({&node, depth});
  for (const OpProfileNode& child : node.children) Flatten(child, depth + 1, rows);
}

}  // namespace

std::string_view OpProfileLevelName(OpProfileLevel level) {
  switch (level) {
    case OpProfileLevel::kProgram: return "program";
    case OpProfileLevel::kCategory: return "category";
    case OpProfileLevel::kOp: return "op";
    case OpProfileLevel::kFusedOp: return "fused_op";
    case OpProfileLevel::kIdle: return "idle";
    default: return "root";
  }
}

// ComputeOpProfile's body, reading the model's derivations from the cache in use (the model's, or
// a fresh one for ComputeOpProfile).
static OpProfileResult BuildOpProfile(const ProfileModel& model, const ToolOptions& options) {
  OpProfileResult r;
  std::vector<HloOpMetrics> ops = HloOpsOf(model);  // a copy: the rows take its strings
  r.summary = HloSummaryOf(model);
  r.diagnostics = HloDiagnostics(model, r.summary);
  r.include_idle = options.include_idle;
  r.idle_time_ps = model.device_ops.idle_time_ps;
  r.root.level = OpProfileLevel::kRoot;
  r.root.name = "all programs";
  std::map<std::string, size_t> program_index;
  std::map<std::pair<size_t, std::string>, size_t> category_index;
  std::map<int32_t, std::unique_ptr<hlo::HloCostModel>> costs;
  for (const HloOpMetrics& op : ops) {
    auto [p, new_program] = program_index.try_emplace(op.program, r.root.children.size());
    if (new_program) {
      OpProfileNode& program = r.root.children.emplace_back();
      program.level = OpProfileLevel::kProgram;
      program.name = op.program;
    }
    OpProfileNode& program = r.root.children[p->second];
    auto [c, new_category] = category_index.try_emplace({p->second, op.category}, program.children.size());
    if (new_category) {
      OpProfileNode& category = program.children.emplace_back();
      category.level = OpProfileLevel::kCategory;
      category.name = op.category;
      category.program = op.program;
    }
    OpProfileNode& node = program.children[c->second].children.emplace_back(OpNode(op));
    if (op.opcode == "fusion" && model.hlo != nullptr) {
      const hlo::HloModule& module = model.hlo->modules[static_cast<size_t>(op.module)];
      auto& cost_model = costs[op.module];
      if (!cost_model) cost_model = std::make_unique<hlo::HloCostModel>(module);
      AddFusedOps(module, *cost_model, op, &node);
    }
  }
  if (r.include_idle && r.idle_time_ps > 0) {
    OpProfileNode& idle = r.root.children.emplace_back();
    idle.level = OpProfileLevel::kIdle;
    idle.name = "IDLE";
    idle.time_ps = r.idle_time_ps;
    idle.wasted_time_ps = r.idle_time_ps;  // idle device time is all shortfall
  }
  Roll(r.summary.peaks, &r.root);
  SetPercents(r.root.time_ps, &r.root);
  return r;
}

OpProfileResult ComputeOpProfile(const ProfileModel& model, const ToolOptions& options) {
  return WithFreshDerivations(model, [&] { return BuildOpProfile(model, options); });
}

std::vector<OpProfileRow> FlattenOpProfile(const OpProfileResult& r) {
  std::vector<OpProfileRow> rows;
  Flatten(r.root, -1, &rows);
  return rows;
}

std::string FormatResultText(const OpProfileResult& r, const ToolOptions& options) {
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Device time", output::FormatFixed(PsToMs(r.root.time_ps), 3) + " ms" +
                          (r.include_idle ? " (idle included)" : " (idle excluded)")},
      {"Wasted time", output::FormatFixed(PsToMs(r.root.wasted_time_ps), 3) + " ms"}};
  if (r.summary.peaks.known()) {
    rows.push_back({"FLOP utilisation", output::FormatFixed(r.root.flops_utilization_percent, 2) + " %"});
    rows.push_back({"Bandwidth utilisation", output::FormatFixed(r.root.bandwidth_utilization_percent, 2) + " %"});
  }
  std::string out = output::FormatKeyValues("Op profile", rows);
  return out + output::FormatResultTextEnd(output::RecordTables(r), r.diagnostics, options.text_max_rows);
}

namespace {

class OpProfileTool final : public DeclaredTool<OpProfileResult> {
 public:
  std::string_view id() const override { return "op_profile"; }
  std::string_view description() const override {
    return "HLO ops by program and category: time share, FLOP and bandwidth utilisation, wasted time.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasHloData(model); }
  std::string_view requirement() const override { return kHloDataRequirement; }
  std::vector<std::string_view> option_names() const override { return {"include_idle"}; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions& options) const override {
    return MakeToolResult(BuildOpProfile(model, options));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeOpProfileTool() { return std::make_unique<OpProfileTool>(); }

}  // namespace stepscope::analysis
