// HLO op metrics: each HLO instruction that ran (ProfileModel::hlo_ops) with its cost
// (src/hlo/hlo_cost.h), measured rates, utilisation of the device's roofs and what bounds
// it. One computation for hlo_stats, op_profile, roofline_model, the overview and the
// advisor (STYLE.md: the same number is computed once).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/device_peaks.h"
#include "src/analysis/model/profile_model.h"
#include "src/hlo/hlo_module.h"

namespace stepscope::analysis {

// An op achieving less than this share of the roof at its arithmetic intensity is limited
// by neither compute nor bandwidth but by latency: launch overhead, too little parallel
// work to fill the device, synchronisation. 10 %: below it, even a perfect kernel of the
// same work would take under a tenth of the time, so the roofs explain nothing.
inline constexpr double kLatencyBoundRoofPercent = 10.0;

enum class BoundBy : uint8_t { kUnknown = 0, kCompute, kMemory, kLatency };
std::string_view BoundByName(BoundBy bound);  // "compute", "memory", "latency", "unknown"

struct HloOpMetrics {
  std::string program;  // the module as "name(program id)"
  std::string op_name;  // the instruction ("fusion.12")
  int32_t module = -1;  // into ProfileModel::hlo->modules; -1 when not in the profile's HLO
  int32_t instruction = -1;
  std::string opcode;    // "fusion", "custom-call", ...; empty when not resolved
  std::string category;  // HloCategory()
  std::string expression;  // "f32[8,4]{1,0} fusion(dot.1), kind=kLoop"
  std::string framework_op;  // OpMetadata op_name ("jit(f)/jvp()/dot_general")
  std::string source;        // "model.py:42"; empty when unknown
  int64_t occurrences = 0;
  int64_t kernel_count = 0;
  int64_t total_time_ps = 0;  // device time (kernels); self time equals it
  // Per occurrence, from the cost model (0 when the instruction is not resolved).
  double flops = 0;
  double bytes_accessed = 0;
  // The cost model knows this op's FLOPs: the instruction is resolved and is not (nor
  // calls) a custom call the model cannot see into. Without it the rates, utilisations
  // and verdict are not computed (bound_by kUnknown).
  bool has_cost = false;
  // Measured over every occurrence: total_flops / time, total bytes / time.
  double flop_rate_per_s = 0;
  double bandwidth_bytes_per_s = 0;
  double arithmetic_intensity = 0;  // FLOP per byte accessed
  // Shares of the device roofs (%), and of the roof at this op's intensity (min(compute,
  // intensity x bandwidth); bandwidth alone for ops without FLOPs).
  double flops_utilization_percent = 0;
  double bandwidth_utilization_percent = 0;
  double roof_percent = 0;
  BoundBy bound_by = BoundBy::kUnknown;
  // XProf's op profile ordering: time x (1 - the better of the two utilisations).
  int64_t wasted_time_ps = 0;
};

struct HloOpSummary {
  DevicePeaks peaks;
  int64_t total_time_ps = 0;  // over every HLO op row
  // Of it, the time of ops whose FLOPs the cost model cannot know (custom calls such as
  // fused attention): the utilisations below count no FLOPs for it, so they are lower
  // bounds when this is not 0.
  int64_t unknown_flops_time_ps = 0;
  double total_flops = 0;
  double total_bytes = 0;
  // Device-wide: total FLOPs over the HLO ops' time, as a share of the compute roof.
  double flops_utilization_percent = 0;
  double bandwidth_utilization_percent = 0;
  HloKernelJoin join;
  int64_t modules = 0;       // programs in the profile's HLO
  int64_t instructions = 0;  // their instructions
};

// Every row of model.hlo_ops, in that order (by total time).
std::vector<HloOpMetrics> ComputeHloOpMetrics(const ProfileModel& model);
HloOpSummary SummarizeHloOps(const ProfileModel& model, const std::vector<HloOpMetrics>& ops);
// Whether the profile has XLA programs or kernels tied to HLO ops (the HLO tools apply).
bool HasHloData(const ProfileModel& model);
// What HasHloData needs, for the error when an HLO tool is asked for anyway (Tool::requirement).
inline constexpr std::string_view kHloDataRequirement =
    "XLA programs (Hlo Proto stats on /host:metadata) or kernels with hlo_op stats";

// The category of an instruction: "convolution", "matmul", "loop fusion", "input fusion",
// "output fusion", "custom fusion", "reduction", "elementwise", "data formatting",
// "collective", "custom-call", "control flow", "other".
std::string HloCategory(const hlo::HloModule& module, int32_t instruction);

}  // namespace stepscope::analysis
