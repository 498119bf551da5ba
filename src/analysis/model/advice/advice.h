// The advisor's rules: the recommendations of the TensorFlow performance guides, each fired
// only by evidence in the model and citing that evidence with its numbers.
//
// Every rule (the XLA one on profiles with XLA programs only) is evaluated and reported in
// `checks` (fired or not, with the measured value against its threshold), so a user can
// see why a recommendation is absent as well as why one is present. Findings are ordered
// by severity, then by the share of step time they concern.
//
// A derivation of the model (derivations.h: AdviceOf), read by the advisor tool and the
// overview page's recommendations. The rules read only other derivations (step summary,
// input analysis, kernels, op placement, memory, multi-GPU, HLO ops) and the model. They
// live one family per file (rule_context.h lists them); advice.cc is the registry that
// runs them in order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/analysis/model/kernel_summary.h"
#include "src/analysis/model/profile_model.h"
#include "src/analysis/model/step_summary.h"

namespace stepscope::analysis {

// Thresholds, with why. Input/output/launch/all-other use the TF Profiler's values so
// the advice agrees with TensorBoard's overview page.
// Kernel launch >= 15 % of step time: TF Profiler's "high" launch overhead.
inline constexpr double kLaunchBoundHighPercent = 15.0;
// >= 3 %: TF Profiler's "moderate" launch overhead, worth fusing ops for.
inline constexpr double kLaunchBoundModeratePercent = 3.0;
// gpu_thread_mode: kernel launch >= kLaunchBoundModeratePercent of step time, no
// tf_gpu_private launch threads, and the launching threads are busy at the same time as
// tf.data's threads for >= 25 % of their busy time: the guide's TF_GPU_THREAD_MODE=gpu_private
// case (launch_threads.h).
inline constexpr double kLaunchInputOverlapPercent = 25.0;
// A median kernel under 50 us is small enough that launch cost (~5-10 us each) is a
// real share of it: fusing and bigger batches help. With larger kernels, high launch
// time means slow launching (a starved or synchronising host thread) instead.
inline constexpr double kSmallKernelUs = 50.0;
// Device-to-host >= 20 % / >= 5 %: TF Profiler's output-bound thresholds.
inline constexpr double kOutputBoundHighPercent = 20.0;
inline constexpr double kOutputBoundModeratePercent = 5.0;
// Step time no event explains >= 15 %: TF Profiler's "high" all-other time.
inline constexpr double kUnexplainedTimeHighPercent = 15.0;
// Less than 10 % of device compute in 16-bit: TF Profiler's overview shows its
// mixed-precision tip below this share.
inline constexpr double k16BitComputeTipPercent = 10.0;
// Framework ops placed on the host take >= 20 % of op time: enough host work inside a
// GPU step to keep the device waiting (a fifth of op time is a cost worth a look).
inline constexpr double kHostOpPlacementPercent = 20.0;
// >= 10 % of kernel time in eligible ops without Tensor Cores: enough that mixed
// precision / aligned shapes could visibly shorten device compute.
inline constexpr double kTensorCoreUnusedPercent = 10.0;
// Half or more of launches are tiny kernels (< kTinyKernelThresholdUs): launch overhead
// rather than math sets the pace.
inline constexpr double kTinyKernelLaunchPercent = 50.0;
// Fewer launches than this say nothing about kernel sizes (warm-up, one-off kernels).
inline constexpr int64_t kMinLaunchesForKernelFindings = 100;
// >= 10 % of the time from the first step's start to the last step's end is between
// steps: work outside the measured steps that the step time hides.
inline constexpr double kStepGapPercent = 10.0;
// The device falls further behind the host by >= 2 % of the host's step interval every
// step (StepCadence): a queue that is still filling, so the device sets the pace and the
// host's step times understate the step.
inline constexpr double kDeviceFallsBehindPercent = 2.0;
// The host waits in blocking runtime calls (synchronisations, synchronous copies) for
// >= 5 % of step time (the TF Profiler's "moderate" level for a step-time category).
inline constexpr double kHostSyncWaitPercent = 5.0;
// The host-sync finding names at most this many (op, call) pairs, most time first.
inline constexpr size_t kHostSyncWaitsNamed = 3;
// Copies take >= 30 % of a device's busy time: data movement rivals compute.
inline constexpr double kCopyHeavyPercent = 30.0;
// ... and the copies add up to >= 5 % of step time (the TF Profiler's "moderate" level
// for a step-time category), so a device that only received a few tiny transfers does
// not count as copy heavy.
inline constexpr double kCopyHeavyMinStepPercent = 5.0;

// Memory (memory_profile): one op's live buffers are >= 50 % of an allocator's peak: that
// op's activations set the memory footprint, so it is the one to recompute, shrink or cast.
inline constexpr double kMemoryOneOpPercent = 50.0;
// Fragmentation >= 50 % at the peak (half the free memory is in pieces smaller than the
// largest free chunk) while free memory is <= 25 % of capacity: the next large request
// may fail although enough bytes are free.
inline constexpr double kMemoryFragmentationPercent = 50.0;
inline constexpr double kMemoryTightFreePercent = 25.0;
// Heap at the end of each step grows for >= 3 steps in a row, by >= 5 % of the peak heap:
// memory is kept from step to step (a leak, or a cache that only grows).
inline constexpr int kMemoryGrowthSteps = 3;
inline constexpr double kMemoryGrowthPercent = 5.0;
// Allocators whose peak is below this are not worth a finding.
inline constexpr int64_t kMemoryMinPeakBytes = int64_t{1} << 20;
// Several devices: the slowest device's compute exceeds the fastest's by >= 10 % of the
// step time on average: the others wait that long in their collectives every step.
inline constexpr double kGpuStragglerPercent = 10.0;
// Collectives (all-reduce, all-gather, ...) take >= 30 % of the devices' active time:
// communication, not math, sets the pace (TensorFlow's GPU guide, multi-GPU section).
inline constexpr double kCollectiveHeavyPercent = 30.0;
// Sized collectives whose bus bandwidth is below 50 % of the link's are not link-bound:
// NCCL reaches about 80-90 % of NVLink / PCIe peaks on large messages, so the rest is
// latency, small messages or waiting for another rank.
inline constexpr double kCollectiveLinkLowPercent = 50.0;

// XLA (hlo_op_metrics.h): an HLO op taking >= 5 % of HLO op time that reaches under 50 %
// of the roof at its arithmetic intensity is worth a look: a twentieth of device time
// running at under half the speed the device allows. The rule is evaluated (and listed
// in `checks`) only for profiles with XLA programs.
inline constexpr double kHloOpMinTimePercent = 5.0;
inline constexpr double kHloBelowRoofPercent = 50.0;
// The finding names at most this many ops (most wasted time first).
inline constexpr size_t kHloOpsNamed = 3;
// ... and is medium severity when their wasted time is >= 25 % of HLO op time.
inline constexpr double kHloWastedMediumPercent = 25.0;

enum class Severity { kHigh, kMedium, kLow };
std::string_view SeverityName(Severity severity);  // "high", "medium", "low"

// One number behind a finding, e.g. {"input_percent", 62.0, "%"}.
struct EvidenceValue {
  std::string name;
  double value = 0;
  std::string unit;
};

struct Finding {
  std::string id;  // stable, e.g. "input_bound"
  Severity severity = Severity::kLow;
  std::string title;     // short, with the key number: "Input is 62.0 % of step time"
  std::string evidence;  // the numbers that fired the rule, in words
  std::vector<EvidenceValue> numbers;
  std::string advice;  // what to change
  std::string tool;    // the tool id that shows the evidence
  double impact_percent = 0;  // share of step (or device) time concerned; for ordering
};

// Outcome of one rule, fired or not.
struct CheckOutcome {
  std::string id;
  bool fired = false;
  std::string detail;  // the measured value against the threshold, or why not applicable
};

struct AdvisorReport {
  std::vector<Finding> findings;  // by severity, then impact
  std::vector<CheckOutcome> checks;  // every rule, in evaluation order
};

// Runs every rule on the model. Tools read the cached report: AdviceOf(model).
AdvisorReport EvaluateAdvice(const ProfileModel& model);

}  // namespace stepscope::analysis
