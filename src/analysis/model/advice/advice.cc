// The advisor's registry: every rule, in the order the report's `checks` lists them.
#include "src/analysis/model/advice/advice.h"

#include <algorithm>

#include "src/analysis/model/advice/rule_context.h"
#include "src/analysis/model/derivations.h"

namespace stepscope::analysis {
namespace {

using advice::Rules;

// The registry. A new rule: a member of Rules (rule_context.h) defined in its family's file,
// and one line here; its check then appears in every report, fired or not.
constexpr void (Rules::*kRules[])() = {
    &Rules::NoSteps,
    &Rules::InputBound,
    &Rules::GetNextOutsideSteps,
    &Rules::OutputBound,
    &Rules::LaunchBound,
    &Rules::TinyKernels,
    &Rules::HostOpPlacement,
    &Rules::No16BitCompute,
    &Rules::TensorCoresUnused,
    &Rules::CopyHeavy,
    &Rules::StepGaps,
    &Rules::DeviceFallsBehind,
    &Rules::HostWaitsOnDevice,
    &Rules::UnexplainedTime,
    &Rules::DroppedEvents,
    &Rules::MemoryPeakOneOp,
    &Rules::MemoryFragmentation,
    &Rules::MemoryGrowth,
    &Rules::GpuStraggler,
    &Rules::CollectiveHeavy,
    &Rules::HloOpsBelowRoof,
    &Rules::GpuThreadMode,
};

}  // namespace

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kHigh: return "high";
    case Severity::kMedium: return "medium";
    case Severity::kLow: return "low";
  }
  return "low";
}

AdvisorReport EvaluateAdvice(const ProfileModel& model) {
  static const MultiGpuResult kNoMultiGpu;
  static const std::vector<HloOpMetrics> kNoHloOps;
  static const HloOpSummary kNoHloSummary;
  const bool xla = model.hlo != nullptr;
  const advice::Context context{model,
                                StepSummaryOf(model),
                                InputAnalysisOf(model),
                                KernelSummaryOf(model),
                                OpPlacementOf(model),
                                MemoryAnalysisOf(model),
                                HasSeveralDevices(model) ? MultiGpuOf(model) : kNoMultiGpu,
                                model.launch_threads,
                                xla ? HloOpsOf(model) : kNoHloOps,
                                xla ? HloSummaryOf(model) : kNoHloSummary};
  Rules rules(context);
  for (void (Rules::*rule)() : kRules) (rules.*rule)();
  AdvisorReport report = rules.TakeReport();
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity < b.severity;
    return a.impact_percent > b.impact_percent;
  });
  return report;
}

}  // namespace stepscope::analysis
