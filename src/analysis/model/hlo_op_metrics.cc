#include "src/analysis/model/hlo_op_metrics.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "src/hlo/hlo_cost.h"
#include "src/hlo/hlo_programs.h"

namespace stepscope::analysis {
namespace {

constexpr std::string_view kCollectiveOpcodes[] = {
    "all-reduce",        "all-reduce-start",        "all-gather",   "all-gather-start", "reduce-scatter",
    "all-to-all",        "collective-permute",      "collective-permute-start",          "collective-broadcast",
    "send",              "recv"};
constexpr std::string_view kDataFormattingOpcodes[] = {
    "copy",     "copy-start", "transpose",     "broadcast", "reshape",       "bitcast", "slice", "dynamic-slice",
    "dynamic-update-slice", "concatenate", "pad", "gather", "scatter", "convert", "reverse", "iota", "bitcast-convert"};

template <size_t N>
bool In(const std::string_view (&list)[N], std::string_view opcode) {
  return std::find(std::begin(list), std::end(list), opcode) != std::end(list);
}

// The opcode that makes a fusion what it is: a convolution or dot anywhere in its body.
std::string_view FusionHeart(const hlo::HloModule& module, const hlo::Instruction& fusion) {
  for (int32_t c : fusion.called_computations) {
    for (int32_t i : module.computations[static_cast<size_t>(c)].instructions) {
      const hlo::Instruction& inner = module.instructions[static_cast<size_t>(i)];
      if (inner.opcode == "convolution" || hlo::IsConvolutionCustomCall(inner)) return "convolution";
      if (inner.opcode == "dot" || hlo::IsGemmCustomCall(inner)) return "matmul";
    }
  }
  return {};
}

std::string FusionKindCategory(std::string_view kind) {
  if (kind == "kLoop") return "loop fusion";
  if (kind == "kInput") return "input fusion";
  if (kind == "kOutput") return "output fusion";
  if (kind == "kCustom") return "custom fusion";
  return "fusion";
}

// "f32[8,4]{1,0} fusion(dot.1, p0), kind=kLoop": HLO text's shape, opcode and operands.
std::string Expression(const hlo::HloModule& module, const hlo::Instruction& instruction) {
  // Shapes of big tuples run long; the expression is for reading, keep it to a line.
  constexpr size_t kMaxExpressionChars = 240;
  std::string out = instruction.shape.ToString() + " " + instruction.opcode + "(";
  for (size_t i = 0; i < instruction.operands.size(); ++i) {
    if (i > 0) out += ", ";
    out += module.instructions[static_cast<size_t>(instruction.operands[i])].name;
  }
  out += ")";
  if (!instruction.fusion_kind.empty()) out += ", kind=" + instruction.fusion_kind;
  if (!instruction.custom_call_target.empty()) out += ", custom_call_target=\"" + instruction.custom_call_target + "\"";
  if (out.size() > kMaxExpressionChars) out = out.substr(0, kMaxExpressionChars - 3) + "...";
  return out;
}

double Rate(double amount, int64_t time_ps) { return time_ps > 0 ? amount / (static_cast<double>(time_ps) * 1e-12) : 0; }
double Pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0; }

}  // namespace

std::string_view BoundByName(BoundBy bound) {
  switch (bound) {
    case BoundBy::kCompute: return "compute";
    case BoundBy::kMemory: return "memory";
    case BoundBy::kLatency: return "latency";
    default: return "unknown";
  }
}

std::string HloCategory(const hlo::HloModule& module, int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= module.instructions.size()) return "unknown";
  const hlo::Instruction& instruction = module.instructions[static_cast<size_t>(index)];
  const std::string& opcode = instruction.opcode;
  if (opcode == "convolution" || hlo::IsConvolutionCustomCall(instruction)) return "convolution";
  if (opcode == "dot" || hlo::IsGemmCustomCall(instruction)) return "matmul";
  if (opcode == "fusion") {
    std::string_view heart = FusionHeart(module, instruction);
    return heart.empty() ? FusionKindCategory(instruction.fusion_kind) : std::string(heart);
  }
  if (opcode == "reduce" || opcode == "reduce-window") return "reduction";
  if (In(kCollectiveOpcodes, opcode)) return "collective";
  if (In(kDataFormattingOpcodes, opcode)) return "data formatting";
  if (hlo::IsElementwiseOpcode(opcode)) return "elementwise";
  if (opcode == "custom-call") return "custom-call";
  if (opcode == "while" || opcode == "conditional" || opcode == "call") return "control flow";
  return "other";
}

bool HasHloData(const ProfileModel& model) { return model.hlo != nullptr || !model.hlo_ops.empty(); }

std::vector<HloOpMetrics> ComputeHloOpMetrics(const ProfileModel& model) {
  const DevicePeaks peaks = ModelDevicePeaks(model);
  // One cost model per module that has rows (a module's costs are computed once).
  std::map<int32_t, std::unique_ptr<hlo::HloCostModel>> costs;
  std::vector<HloOpMetrics> rows;
  rows.reserve(model.hlo_ops.size());
  for (const HloOpTime& time : model.hlo_ops) {
    HloOpMetrics& row = rows.emplace_back();
    row.program = time.module_name + (time.program_id >= 0 ? "(" + std::to_string(time.program_id) + ")" : "");
    row.op_name = time.op_name;
    row.module = time.module;
    row.instruction = time.instruction;
    row.occurrences = time.occurrences;
    row.kernel_count = time.kernel_count;
    row.total_time_ps = time.total_time_ps;
    row.category = "unknown";
    if (model.hlo != nullptr && time.module >= 0 && time.instruction >= 0) {
      const hlo::HloModule& module = model.hlo->modules[static_cast<size_t>(time.module)];
      const hlo::Instruction& instruction = module.instructions[static_cast<size_t>(time.instruction)];
      auto& cost_model = costs[time.module];
      if (!cost_model) cost_model = std::make_unique<hlo::HloCostModel>(module);
      const hlo::OpCost& cost = cost_model->cost(time.instruction);
      row.program = module.DisplayName();
      row.opcode = instruction.opcode;
      row.category = HloCategory(module, time.instruction);
      row.expression = Expression(module, instruction);
      row.framework_op = instruction.metadata.op_name;
      if (!instruction.metadata.source_file.empty()) {
        row.source = instruction.metadata.source_file + ":" + std::to_string(instruction.metadata.source_line);
      }
      row.flops = cost.flops;
      row.bytes_accessed = cost.bytes_accessed;
      row.has_cost = cost.flops_known;
    }
    const double occurrences = static_cast<double>(std::max<int64_t>(row.occurrences, 1));
    row.flop_rate_per_s = Rate(row.flops * occurrences, row.total_time_ps);
    row.bandwidth_bytes_per_s = Rate(row.bytes_accessed * occurrences, row.total_time_ps);
    row.arithmetic_intensity = row.bytes_accessed > 0 ? row.flops / row.bytes_accessed : 0;
    if (!row.has_cost || !peaks.known() || row.total_time_ps <= 0) continue;
    row.flops_utilization_percent = Pct(row.flop_rate_per_s, peaks.peak_flops_per_s);
    row.bandwidth_utilization_percent = Pct(row.bandwidth_bytes_per_s, peaks.memory_bandwidth_bytes_per_s);
    if (row.flops > 0) {
      const double attainable = std::min(peaks.peak_flops_per_s, row.arithmetic_intensity * peaks.memory_bandwidth_bytes_per_s);
      row.roof_percent = Pct(row.flop_rate_per_s, attainable);
    } else {
      row.roof_percent = row.bandwidth_utilization_percent;
    }
    if (row.roof_percent < kLatencyBoundRoofPercent) {
      row.bound_by = BoundBy::kLatency;
    } else if (row.flops > 0 && row.arithmetic_intensity >= peaks.ridge_flops_per_byte()) {
      row.bound_by = BoundBy::kCompute;
    } else {
      row.bound_by = BoundBy::kMemory;
    }
    const double best = std::clamp(std::max(row.flops_utilization_percent, row.bandwidth_utilization_percent) / 100.0, 0.0, 1.0);
    row.wasted_time_ps = static_cast<int64_t>(static_cast<double>(row.total_time_ps) * (1.0 - best));
  }
  return rows;
}

HloOpSummary SummarizeHloOps(const ProfileModel& model, const std::vector<HloOpMetrics>& ops) {
  HloOpSummary s;
  s.peaks = ModelDevicePeaks(model);
  s.join = model.hlo_join;
  if (model.hlo != nullptr) {
    s.modules = static_cast<int64_t>(model.hlo->modules.size());
    for (const hlo::HloModule& module : model.hlo->modules) s.instructions += static_cast<int64_t>(module.instructions.size());
  }
  for (const HloOpMetrics& op : ops) {
    s.total_time_ps += op.total_time_ps;
    if (!op.has_cost) s.unknown_flops_time_ps += op.total_time_ps;
    const double occurrences = static_cast<double>(std::max<int64_t>(op.occurrences, 1));
    s.total_flops += op.flops * occurrences;
    s.total_bytes += op.bytes_accessed * occurrences;
  }
  if (s.peaks.known()) {
    s.flops_utilization_percent = Pct(Rate(s.total_flops, s.total_time_ps), s.peaks.peak_flops_per_s);
    s.bandwidth_utilization_percent = Pct(Rate(s.total_bytes, s.total_time_ps), s.peaks.memory_bandwidth_bytes_per_s);
  }
  return s;
}

}  // namespace stepscope::analysis
