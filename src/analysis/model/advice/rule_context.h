// What the advisor's rules share: the context they read (derivations of one model), the
// report they add to, the wording of numbers, and the rules themselves, one family per file:
//   step_rules.cc       steps and recording: no steps, gaps, device falling behind,
//                       unexplained time, dropped events
//   input_rules.cc      input bound (with the tf.data bottleneck stage), fetches outside steps
//   device_rules.cc     output and launch bound, tiny kernels, host op placement, 16-bit
//                       compute, Tensor Cores, copies, host syncs, GPU thread mode, HLO roofs
//   memory_rules.cc     one op at the peak, fragmentation, growth between steps
//   multi_gpu_rules.cc  straggler device, collective-heavy steps
// advice.cc runs them in a fixed order (the order of `checks`). Internal to
// src/analysis/model/advice/; tools read advice.h.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/analysis/model/advice/advice.h"
#include "src/analysis/model/framework_guess.h"
#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/model/input_analysis.h"
#include "src/analysis/model/kernel_summary.h"
#include "src/analysis/model/launch_threads.h"
#include "src/analysis/model/memory_analysis.h"
#include "src/analysis/model/multi_gpu_analysis.h"
#include "src/analysis/model/op_placement.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/step_summary.h"
#include "src/analysis/model/units.h"
#include "src/base/format_number.h"

namespace stepscope::analysis::advice {

using base::FormatFixed;

inline std::string Pct(double percent) { return FormatFixed(percent, 1) + " %"; }
inline std::string Ms(double ms) { return FormatFixed(ms, 2) + " ms"; }
inline std::string Us(double us) { return FormatFixed(us, 1) + " us"; }
inline std::string Num(int64_t n) { return std::to_string(n); }
inline std::string MiB(int64_t bytes) { return FormatFixed(static_cast<double>(bytes) / (1 << 20), 1) + " MiB"; }

// Everything the rules read: the model and its derivations (derivations.h), each computed
// once per model.
struct Context {
  const ProfileModel& model;
  const StepTimeSummary& steps;
  const InputPipelineAnalysis& input;
  const KernelSummary& kernels;
  const OpPlacement& placement;
  const MemoryProfileResult& memory;
  const MultiGpuResult& multi_gpu;  // empty with fewer than two active devices
  const LaunchThreadCompetition& launch_threads;
  const std::vector<HloOpMetrics>& hlo_ops;  // XLA profiles only (empty otherwise)
  const HloOpSummary& hlo;
};

// The rules, as members so that each reads the context and adds to the report alike. Each
// adds exactly one check (fired or not), or none where the rule does not exist for the
// profile (the XLA rule without XLA programs).
class Rules {
 public:
  explicit Rules(const Context& c) : c_(c) {}

  // steps and recording (step_rules.cc)
  void NoSteps();
  void StepGaps();
  void DeviceFallsBehind();
  void UnexplainedTime();
  void DroppedEvents();
  // input (input_rules.cc)
  void InputBound();
  void GetNextOutsideSteps();
  // device and host work (device_rules.cc)
  void OutputBound();
  void LaunchBound();
  void TinyKernels();
  void HostOpPlacement();
  void No16BitCompute();
  void TensorCoresUnused();
  void CopyHeavy();
  void HostWaitsOnDevice();
  void GpuThreadMode();
  void HloOpsBelowRoof();
  // memory (memory_rules.cc)
  void MemoryPeakOneOp();
  void MemoryFragmentation();
  void MemoryGrowth();
  // several devices (multi_gpu_rules.cc)
  void GpuStraggler();
  void CollectiveHeavy();

  AdvisorReport TakeReport() { return std::move(report_); }

 private:
  void Check(std::string id, bool fired, std::string detail) {
    report_.checks.push_back({std::move(id), fired, std::move(detail)});
  }
  void Fire(Finding f) {
    Check(f.id, true, f.evidence);
    report_.findings.push_back(std::move(f));
  }
  bool HasSteps() const { return c_.steps.step_count > 0; }
  Framework framework() const { return c_.steps.framework.framework; }
  // Adds the check as not applicable and returns true when the profile has no allocator events.
  bool NoMemory(const char* id) {
    if (!c_.memory.allocators.empty()) return false;
    Check(id, false, "not applicable: no allocator events (MemoryAllocation / MemoryDeallocation)");
    return true;
  }

  const Context& c_;
  AdvisorReport report_;
};

}  // namespace stepscope::analysis::advice
