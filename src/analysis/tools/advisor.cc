#include "src/analysis/tools/advisor.h"

#include <algorithm>

#include "src/analysis/output/text_table.h"
#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/tools/framework.h"
#include "src/analysis/tools/framework_op_stats.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/analysis/model/launch_threads.h"
#include "src/analysis/tools/kernel_stats.h"
#include "src/analysis/tools/memory_profile.h"
#include "src/analysis/tools/multi_gpu.h"
#include "src/analysis/tools/tool_util.h"

namespace stepscope::analysis {
namespace {

using output::ColumnType;
using output::FormatFixed;
using output::Table;

std::string Pct(double percent) { return FormatFixed(percent, 1) + " %"; }
std::string Ms(double ms) { return FormatFixed(ms, 2) + " ms"; }
std::string Us(double us) { return FormatFixed(us, 1) + " us"; }
std::string Num(int64_t n) { return std::to_string(n); }

// The framework's own knobs for the advice that is not about input (input_pipeline.cc
// words that): fusing ops, mixed precision, fetching the batch inside the step.
std::string FuseOps(Framework f) {
  switch (f) {
    case Framework::kPyTorch: return "fuse ops with torch.compile(model) (mode=\"reduce-overhead\" also captures CUDA graphs)";
    case Framework::kTensorFlow: return "fuse ops with XLA (tf.function(jit_compile=True))";
    case Framework::kJax: return "jit larger regions (one jax.jit over the whole step) so XLA fuses more";
    default: break;
  }
  return "fuse ops (XLA jit_compile / torch.compile)";
}

std::string MixedPrecision(Framework f) {
  switch (f) {
    case Framework::kPyTorch:
      return "Use mixed precision: run the forward pass under torch.autocast(device_type=\"cuda\", "
             "dtype=torch.bfloat16) (with float16, add torch.cuda.amp.GradScaler)";
    case Framework::kTensorFlow: return "Use mixed precision: tf.keras.mixed_precision.set_global_policy('mixed_float16')";
    case Framework::kJax: return "Compute in bfloat16 (cast activations and weights with jnp.bfloat16, keep a float32 master copy)";
    case Framework::kStepscope: return "Use 16-bit (fp16/bf16) kernels for the matrix math";
    case Framework::kUnknown: break;
  }
  return "Use mixed precision (tf.keras.mixed_precision.set_global_policy('mixed_float16'), torch.autocast)";
}

std::string FetchInsideStep(Framework f) {
  switch (f) {
    case Framework::kPyTorch:
      return "Call prof.step() once per iteration at the end of the loop body, so each batch's fetch "
             "(enumerate(DataLoader)#...__next__) falls inside a ProfilerStep.";
    case Framework::kTensorFlow:
      return "Fetch the next batch inside the step scope: `with tf.profiler.experimental.Trace('train', "
             "step_num=step, _r=1): batch = next(iterator)`.";
    case Framework::kJax:
      return "Fetch the next batch inside `with jax.profiler.StepTraceAnnotation('train', step_num=step):`.";
    case Framework::kStepscope:
      return "Fetch the next batch inside the step: stepscope::Step step(\"train\", n); then "
             "{ stepscope::ScopedGetNext get_next; batch = pipeline.Next(); }.";
    case Framework::kUnknown: break;
  }
  return "Fetch the next batch inside the step scope: `with tf.profiler.experimental.Trace('train', "
         "step_num=step, _r=1): batch = next(iterator)` (Python) or inside stepscope::Step (C++).";
}

std::string HostOpAdvice(Framework f) {
  switch (f) {
    case Framework::kPyTorch:
      return "Cut the host-only PyTorch ops: create tensors on the device (device=...) instead of on the CPU, "
             "avoid .item() / .cpu() / .numpy() inside the step, move CPU-side preprocessing into the DataLoader's "
             "workers, and where many small ops cost more to dispatch than to run, compile the step "
             "(torch.compile) or capture it in a CUDA graph.";
    case Framework::kJax:
      return "Move this work into jitted code: host-side NumPy and Python between jax.jit calls runs on the host "
             "while the device waits.";
    default: break;
  }
  return "Move these ops to the device: look for ops without a GPU kernel (soft placement), NumPy/Python work "
         "inside the step, and preprocessing that could run in the input pipeline instead.";
}

// Everything the rules read, computed once.
struct Context {
  const ProfileModel& model;
  StepTimeSummary steps;
  InputPipelineAnalysis input;
  KernelSummary kernels;
  OpPlacement placement;
  MemoryProfileResult memory;
  MultiGpuResult multi_gpu;  // empty with fewer than two active devices
  LaunchThreadCompetition launch_threads;
  std::vector<HloOpMetrics> hlo_ops;  // XLA profiles only
  HloOpSummary hlo;
};

class Rules {
 public:
  explicit Rules(const Context& c) : c_(c) {}

  AdvisorReport Run() {
    NoSteps();
    InputBound();
    GetNextOutsideSteps();
    OutputBound();
    LaunchBound();
    TinyKernels();
    HostOpPlacement();
    No16BitCompute();
    TensorCoresUnused();
    CopyHeavy();
    StepGaps();
    DeviceFallsBehind();
    HostWaitsOnDevice();
    UnexplainedTime();
    DroppedEvents();
    MemoryPeakOneOp();
    MemoryFragmentation();
    MemoryGrowth();
    GpuStraggler();
    CollectiveHeavy();
    HloOpsBelowRoof();
    GpuThreadMode();
    std::stable_sort(report_.findings.begin(), report_.findings.end(), [](const Finding& a, const Finding& b) {
      if (a.severity != b.severity) return a.severity < b.severity;
      return a.impact_percent > b.impact_percent;
    });
    return std::move(report_);
  }

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

  void NoSteps() {
    if (HasSteps()) {
      Check("no_steps", false, Num(c_.steps.step_count) + " steps found");
      return;
    }
    Fire({"no_steps", Severity::kHigh, "No training steps were found",
          "the profile has no step markers (" + Num(c_.model.total_events) +
              " events read), so step time and its breakdown cannot be computed",
          {{"steps", 0, ""}},
          std::string(HowToMarkSteps(framework())),
          "overview_page", 100});
  }

  void InputBound() {
    const StepTimeSummary& s = c_.steps;
    if (!HasSteps()) {
      Check("input_bound", false, "not applicable: no steps");
      return;
    }
    const std::string numbers = "input " + Pct(s.input_percent) + " of step time (" +
                                Ms(s.input_time_ms.mean) + " of " + Ms(s.avg_step_time_ms) + " per step)";
    if (s.verdict == InputBoundVerdict::kHighly || s.verdict == InputBoundVerdict::kModerately) {
      const bool highly = s.verdict == InputBoundVerdict::kHighly;
      const std::optional<PipelineBottleneckLink>& stage = c_.input.pipeline_bottleneck;
      if (stage.has_value()) {
        // The stage to fix and its own suggestion, from tf_data_bottleneck_analysis.
        Fire({"input_bound", highly ? Severity::kHigh : Severity::kMedium,
              std::string(highly ? "Highly" : "Moderately") + " input bound \u2014 the bottleneck is stage " +
                  stage->stage,
              numbers + "; " + stage->statement,
              {{"input_percent", s.input_percent, "%"},
               {"input_ms_per_step", s.input_time_ms.mean, "ms"},
               {"bottleneck_share_percent", stage->share_percent, "%"}},
              stage->suggestion, "tf_data_bottleneck_analysis", s.input_percent});
        return;
      }
      Fire({"input_bound", highly ? Severity::kHigh : Severity::kMedium,
            std::string(highly ? "Highly" : "Moderately") + " input bound: input is " + Pct(s.input_percent) +
                " of step time",
            numbers,
            {{"input_percent", s.input_percent, "%"}, {"input_ms_per_step", s.input_time_ms.mean, "ms"}},
            c_.input.recommendation, "input_pipeline_analyzer", s.input_percent});
    } else if (s.potentially_input_bound) {
      Fire({"input_bound", Severity::kLow,
            "Possibly input bound: " + Pct(s.all_other_percent) + " of step time is unexplained",
            numbers + "; " + Pct(s.all_other_percent) + " of step time is covered by no recorded event",
            {{"input_percent", s.input_percent, "%"}, {"all_other_percent", s.all_other_percent, "%"}},
            c_.input.recommendation, "input_pipeline_analyzer", s.all_other_percent});
    } else {
      Check("input_bound", false, numbers + " < " + Pct(kModeratelyInputBoundThresholdPercent));
    }
  }

  void GetNextOutsideSteps() {
    const InputPipelineFacts& f = c_.model.input_pipeline;
    if (f.get_next_outside_steps <= 0 || !HasSteps()) {
      Check("get_next_outside_step", false,
            Num(f.get_next_outside_steps) + " of " + Num(f.get_next_count) + " input fetches outside steps");
      return;
    }
    Fire({"get_next_outside_step", Severity::kMedium, "The dataset iterator is fetched outside the step",
          Num(f.get_next_outside_steps) + " of " + Num(f.get_next_count) +
              " input fetches (IteratorGetNext, DataLoader __next__) happen outside any step, so their wait is "
              "missing from the step breakdown "
              "and the input share is understated",
          {{"get_next_outside_steps", static_cast<double>(f.get_next_outside_steps), ""},
           {"get_next_count", static_cast<double>(f.get_next_count), ""}},
          FetchInsideStep(framework()),
          "input_pipeline_analyzer", 0});
  }

  void OutputBound() {
    const double p = c_.steps.output_percent;
    if (!HasSteps() || p < kOutputBoundModeratePercent) {
      Check("output_bound", false, "device-to-host " + Pct(p) + " of step time < " + Pct(kOutputBoundModeratePercent));
      return;
    }
    Fire({"output_bound", p >= kOutputBoundHighPercent ? Severity::kHigh : Severity::kMedium,
          "Output (device-to-host) is " + Pct(p) + " of step time",
          "device-to-host copies take " + Pct(p) + " of step time (" +
              Ms(c_.steps.avg_category_ms[static_cast<int>(TimeCategory::kOutput)]) + " per step)",
          {{"output_percent", p, "%"}},
          "Copy less back to the host each step: keep metrics on the device and fetch them every N steps, and "
          "avoid per-step .numpy() / .item() calls.",
          "overview_page", p});
  }

  void LaunchBound() {
    const double p = c_.steps.kernel_launch_percent;
    if (!c_.model.has_device || !HasSteps()) {
      Check("launch_bound", false, "not applicable: no device or no steps");
      return;
    }
    if (p < kLaunchBoundModeratePercent) {
      Check("launch_bound", false, "kernel launch " + Pct(p) + " of step time < " + Pct(kLaunchBoundModeratePercent));
      return;
    }
    std::string advice =
        c_.kernels.median_duration_us < kSmallKernelUs
            ? "Launch fewer, larger kernels: " + FuseOps(framework()) +
                  ", enlarge the batch so each kernel does more work, or capture the step in a CUDA graph."
            : "Kernels are not small, yet launching them takes long: the launching thread is slowed down "
              "(synchronous copies or syncs between launches, CPU contention, Python overhead); keep launches "
              "asynchronous and give the launching thread a core, or capture the step in a CUDA graph.";
    if (c_.model.input_pipeline.uses_tf_data) {
      advice += " tf.data threads compete with the launching thread: try TF_GPU_THREAD_MODE=gpu_private.";
    }
    Fire({"launch_bound", p >= kLaunchBoundHighPercent ? Severity::kHigh : Severity::kMedium,
          "Kernel launch is " + Pct(p) + " of step time",
          "kernel launch " + Pct(p) + " of step time and median kernel " + Us(c_.kernels.median_duration_us) +
              " over " + Num(c_.kernels.launches) + " launches",
          {{"kernel_launch_percent", p, "%"}, {"median_kernel_us", c_.kernels.median_duration_us, "us"}},
          advice, "overview_page", p});
  }

  void TinyKernels() {
    const KernelSummary& k = c_.kernels;
    if (k.launches < kMinLaunchesForKernelFindings || k.tiny_launch_percent < kTinyKernelLaunchPercent) {
      Check("tiny_kernels", false,
            Pct(k.tiny_launch_percent) + " of " + Num(k.launches) + " launches under " +
                FormatFixed(kTinyKernelThresholdUs, 0) + " us (fires at " + Pct(kTinyKernelLaunchPercent) +
                " with >= " + Num(kMinLaunchesForKernelFindings) + " launches)");
      return;
    }
    Fire({"tiny_kernels", Severity::kLow, "Most kernels are tiny",
          Pct(k.tiny_launch_percent) + " of " + Num(k.launches) + " kernel launches average under " +
              FormatFixed(kTinyKernelThresholdUs, 0) + " us (median " + Us(k.median_duration_us) + ")",
          {{"tiny_launch_percent", k.tiny_launch_percent, "%"}, {"median_kernel_us", k.median_duration_us, "us"}},
          "Tiny kernels cost more to launch than to run: " + FuseOps(framework()) + ", and use larger batches.",
          "kernel_stats", k.tiny_launch_percent * c_.steps.kernel_launch_percent / 100.0});
  }

  void HostOpPlacement() {
    const OpPlacement& p = c_.placement;
    if (!c_.model.has_device) {
      Check("host_op_placement", false, "not applicable: no device");
      return;
    }
    if (p.host_percent < kHostOpPlacementPercent) {
      Check("host_op_placement", false,
            "host ops " + Pct(p.host_percent) + " of op time < " + Pct(kHostOpPlacementPercent));
      return;
    }
    Fire({"host_op_placement", Severity::kMedium, "Host ops are " + Pct(p.host_percent) + " of op time",
          "framework ops that launched no device work take " + Ms(p.host_time_ms) + " on the host against " +
              Ms(p.device_time_ms) + " on the device (" + Pct(p.host_percent) + " host)",
          {{"host_op_percent", p.host_percent, "%"}, {"host_op_time_ms", p.host_time_ms, "ms"}},
          HostOpAdvice(framework()),
          "framework_op_stats", p.host_percent});
  }

  void No16BitCompute() {
    const auto& pct16 = c_.steps.device_compute_16bit_percent;
    if (!pct16.has_value()) {
      Check("no_16bit_compute", false, "not applicable: no device compute in steps");
      return;
    }
    if (*pct16 >= k16BitComputeTipPercent) {
      Check("no_16bit_compute", false, Pct(*pct16) + " 16-bit compute >= " + Pct(k16BitComputeTipPercent));
      return;
    }
    const double dc = c_.steps.device_compute_percent;
    Fire({"no_16bit_compute", dc >= 50 ? Severity::kMedium : Severity::kLow,
          Pct(*pct16) + " 16-bit compute",
          Pct(*pct16) + " of device compute time runs in 16-bit precision; device compute is " + Pct(dc) +
              " of step time",
          {{"device_compute_16bit_percent", *pct16, "%"}, {"device_compute_percent", dc, "%"}},
          MixedPrecision(framework()) + ": 16-bit math runs on Tensor Cores and halves memory traffic.",
          "overview_page", dc});
  }

  void TensorCoresUnused() {
    const KernelSummary& k = c_.kernels;
    if (k.launches == 0 || !k.tensor_cores_apply) {
      Check("tensor_cores_unused", false, "not applicable: no kernels, or a GPU without Tensor Cores");
      return;
    }
    if (k.eligible_without_tensor_core_percent < kTensorCoreUnusedPercent) {
      Check("tensor_cores_unused", false,
            "eligible kernels without Tensor Cores " + Pct(k.eligible_without_tensor_core_percent) +
                " of kernel time < " + Pct(kTensorCoreUnusedPercent));
      return;
    }
    Fire({"tensor_cores_unused", Severity::kMedium,
          "Tensor-Core-eligible ops run without Tensor Cores",
          Num(k.eligible_without_tensor_core_kernels) +
              (k.eligible_without_tensor_core_kernels == 1 ? " kernel" : " kernels") + " of Tensor-Core-eligible ops take " +
              Ms(k.eligible_without_tensor_core_time_ms) + " (" + Pct(k.eligible_without_tensor_core_percent) +
              " of kernel time) without using Tensor Cores",
          {{"eligible_without_tensor_core_percent", k.eligible_without_tensor_core_percent, "%"},
           {"eligible_without_tensor_core_ms", k.eligible_without_tensor_core_time_ms, "ms"}},
          "Run these ops in fp16/bf16 (mixed precision) and keep matrix dimensions and channels multiples of 8 "
          "so cuBLAS/cuDNN choose Tensor Core kernels.",
          "kernel_stats", k.eligible_without_tensor_core_percent * c_.steps.device_compute_percent / 100.0});
  }

  void CopyHeavy() {
    if (!HasSteps()) {
      Check("copy_heavy_streams", false, "not applicable: no steps to weigh copies against");
      return;
    }
    const DeviceActivity* worst = nullptr;
    double worst_percent = 0, worst_step_percent = 0;
    for (const DeviceActivity& d : c_.model.devices) {
      if (d.busy_ps <= 0) continue;
      int64_t copy_ps = 0;
      for (const StreamActivity& s : d.streams) copy_ps += s.memcpy_time_ps;
      const double percent = std::min(100.0, Percent(copy_ps, d.busy_ps));
      const double step_percent = Percent(copy_ps, c_.steps.total_step_time_ps);
      if (step_percent < kCopyHeavyMinStepPercent) continue;
      if (percent > worst_percent) {
        worst_percent = percent;
        worst_step_percent = step_percent;
        worst = &d;
      }
    }
    if (worst == nullptr || worst_percent < kCopyHeavyPercent) {
      Check("copy_heavy_streams", false,
            "no device spends >= " + Pct(kCopyHeavyPercent) + " of its busy time on copies that add up to >= " +
                Pct(kCopyHeavyMinStepPercent) + " of step time");
      return;
    }
    const StreamActivity* stream = nullptr;
    for (const StreamActivity& s : worst->streams) {
      if (stream == nullptr || s.memcpy_time_ps > stream->memcpy_time_ps) stream = &s;
    }
    const MemcpyStats& h2d = worst->memcpy[static_cast<int>(MemcpyDirection::kHostToDevice)];
    const MemcpyStats& d2h = worst->memcpy[static_cast<int>(MemcpyDirection::kDeviceToHost)];
    std::string evidence = worst->plane_name + ": copies take " + Pct(worst_percent) + " of busy time (H2D " +
                           Num(h2d.count) + " copies, " + FormatFixed(h2d.bytes / 1e6, 1) + " MB; D2H " +
                           Num(d2h.count) + " copies, " + FormatFixed(d2h.bytes / 1e6, 1) + " MB)";
    if (stream != nullptr && stream->memcpy_time_ps > 0) {
      evidence += "; busiest copy stream " + stream->name + " with " + Ms(PsToMs(stream->memcpy_time_ps));
    }
    Fire({"copy_heavy_streams", Severity::kMedium, "Copies take " + Pct(worst_percent) + " of device busy time",
          evidence + "; copies equal " + Pct(worst_step_percent) + " of step time",
          {{"copy_percent_of_busy", worst_percent, "%"}, {"copy_percent_of_step", worst_step_percent, "%"}},
          "Keep data on the device between steps, prefetch to the device so copies overlap compute, use pinned "
          "host memory, and avoid fetching results every step.",
          "overview_page", worst_step_percent});
  }

  void StepGaps() {
    const auto& steps = c_.model.steps;
    if (steps.size() < 2) {
      Check("step_gaps", false, "not applicable: fewer than 2 steps");
      return;
    }
    int64_t gap_ps = 0, largest_gap_ps = 0, largest_after = 0, gaps = 0;
    int64_t first = steps.front().begin_ps, last_end = steps.front().begin_ps + steps.front().duration_ps;
    for (size_t i = 0; i + 1 < steps.size(); ++i) {
      const int64_t end = steps[i].begin_ps + steps[i].duration_ps;
      const int64_t gap = steps[i + 1].begin_ps - end;
      first = std::min(first, steps[i + 1].begin_ps);
      last_end = std::max(last_end, steps[i + 1].begin_ps + steps[i + 1].duration_ps);
      if (gap <= 0) continue;
      gap_ps += gap;
      ++gaps;
      if (gap > largest_gap_ps) {
        largest_gap_ps = gap;
        largest_after = steps[i].step_number;
      }
    }
    const double percent = Percent(gap_ps, last_end - first);
    if (percent < kStepGapPercent) {
      Check("step_gaps", false, "time between steps " + Pct(percent) + " < " + Pct(kStepGapPercent));
      return;
    }
    const double avg_gap_ms = PsToMs(gap_ps) / std::max<int64_t>(1, gaps);
    // What runs in the gaps, outermost host work first (the model's work_between_steps).
    std::string in_gaps;
    const std::vector<WorkBetweenSteps::Op>& work = c_.model.work_between_steps.ops;
    for (size_t i = 0; i < work.size() && i < 3; ++i) {
      in_gaps += (i > 0 ? ", " : "; in the gaps: ") + work[i].name + " " + Ms(PsToMs(work[i].time_ps));
    }
    if (work.empty()) in_gaps = "; no recorded host event runs in the gaps";
    Fire({"step_gaps", percent >= 25 ? Severity::kMedium : Severity::kLow,
          "Gaps between steps: " + Pct(percent) + " of the time",
          Pct(percent) + " of the time from the first step to the last is between steps (" + Num(gaps) +
              " gaps, average " + Ms(avg_gap_ms) + ", largest " + Ms(PsToMs(largest_gap_ps)) + " after step " +
              Num(largest_after) + ")" + in_gaps,
          {{"step_gap_percent", percent, "%"}, {"avg_gap_ms", avg_gap_ms, "ms"}},
          "Work between steps is invisible in step time: logging, checkpoints, summaries, metric fetches or a "
          "batch fetched outside the step. Do it less often or asynchronously, or move it inside the step.",
          "overview_page", percent});
  }

  void DeviceFallsBehind() {
    const std::optional<StepCadence>& cadence = c_.steps.cadence;
    if (!cadence || cadence->steps < 2 || cadence->host_interval_ps <= 0) {
      Check("device_falls_behind", false, "not applicable: no host and device cadence (fewer than 2 steps with device work)");
      return;
    }
    const double percent = Percent(cadence->lag_growth_per_step_ps(), cadence->host_interval_ps);
    if (percent < kDeviceFallsBehindPercent) {
      Check("device_falls_behind", false,
            "device lag grows " + Pct(percent) + " of the host's step interval per step < " +
                Pct(kDeviceFallsBehindPercent));
      return;
    }
    const double growth_ms = PsToMs(cadence->lag_growth_per_step_ps());
    Fire({"device_falls_behind", percent >= 10 ? Severity::kHigh : Severity::kMedium,
          "The device falls " + Ms(growth_ms) + " further behind the host every step",
          c_.steps.cadence_statement + " (device lag up to " + Ms(PsToMs(cadence->max_device_lag_ps)) + ")",
          {{"host_interval_ms", PsToMs(cadence->host_interval_ps), "ms"},
           {"device_interval_ms", PsToMs(cadence->device_interval_ps), "ms"},
           {"lag_growth_per_step_ms", growth_ms, "ms"}},
          "The device sets the pace: the host is still filling the launch queue, so its own step times understate "
          "the step and the profile has not reached steady state. Speed up the device work (kernel_stats), or "
          "profile more steps; host-side optimisations will not shorten the step.",
          "overview_page", percent});
  }

  void HostWaitsOnDevice() {
    if (!HasSteps() || !c_.model.has_device) {
      Check("host_waits_on_device", false, "not applicable: no steps with device work");
      return;
    }
    int64_t wait_ps = 0;
    for (const HostSyncWait& wait : c_.model.host_sync_waits) wait_ps += wait.in_steps_ps;
    const double percent = Percent(wait_ps, c_.steps.total_step_time_ps);
    if (percent < kHostSyncWaitPercent) {
      Check("host_waits_on_device", false,
            "blocking runtime calls " + Pct(percent) + " of step time < " + Pct(kHostSyncWaitPercent));
      return;
    }
    std::vector<const HostSyncWait*> named;
    for (const HostSyncWait& wait : c_.model.host_sync_waits) {
      if (wait.in_steps_ps > 0) named.push_back(&wait);
    }
    std::stable_sort(named.begin(), named.end(),
                     [](const HostSyncWait* a, const HostSyncWait* b) { return a->in_steps_ps > b->in_steps_ps; });
    std::string causes;
    for (size_t i = 0; i < named.size() && i < kHostSyncWaitsNamed; ++i) {
      const HostSyncWait& w = *named[i];
      causes += (i > 0 ? "; " : "") + (w.op.empty() ? std::string("(no op)") : w.op) + " → " + w.call + " " +
                Ms(PsToMs(w.in_steps_ps)) + " in " + Num(w.count) + " call" + (w.count == 1 ? "" : "s");
    }
    Fire({"host_waits_on_device", percent >= 20 ? Severity::kHigh : Severity::kMedium,
          "The host waits on the device for " + Pct(percent) + " of step time",
          "blocking runtime calls take " + Ms(PsToMs(wait_ps) / c_.steps.step_count) + " per step: " + causes,
          {{"host_sync_percent", percent, "%"}, {"host_sync_ms_per_step", PsToMs(wait_ps) / c_.steps.step_count, "ms"}},
          framework() == Framework::kPyTorch
              ? "Each synchronisation drains the device's queue, so the host cannot run ahead: avoid .item(), "
                ".cpu(), .tolist(), printing tensors and torch.cuda.synchronize() inside the step (log every N steps), "
                "copy with non_blocking=True from pinned memory, and avoid ops whose output size depends on the data "
                "(nonzero, masked_select) in the hot loop."
              : "Each synchronisation drains the device's queue, so the host cannot run ahead: remove device, stream "
                "and event synchronisations and synchronous copies from the step, or move them to every N steps.",
          "framework_op_stats", percent});
  }

  void UnexplainedTime() {
    const double p = c_.steps.all_other_percent;
    if (!HasSteps() || p < kUnexplainedTimeHighPercent || c_.steps.potentially_input_bound) {
      Check("unexplained_step_time", false,
            "unexplained " + Pct(p) + " of step time" +
                (c_.steps.potentially_input_bound ? " (reported as possibly input bound)"
                                                  : " < " + Pct(kUnexplainedTimeHighPercent)));
      return;
    }
    Fire({"unexplained_step_time", Severity::kLow, Pct(p) + " of step time is unexplained",
          Pct(p) + " of step time is covered by no recorded op, copy or kernel",
          {{"all_other_percent", p, "%"}},
          "Record the missing work: " + std::string(HowToAnnotate(framework())) +
              "; the usual culprits are Python overhead, eager ops and synchronisation.",
          "overview_page", p});
  }

  void DroppedEvents() {
    const int64_t dropped = c_.model.run_environment.dropped_traces;
    if (dropped <= 0) {
      Check("dropped_events", false, "no events dropped while recording");
      return;
    }
    const double percent = Percent(dropped, dropped + c_.model.total_events);
    Fire({"dropped_events", percent >= 1 ? Severity::kHigh : Severity::kMedium,
          Num(dropped) + " events were dropped while recording",
          Num(dropped) + " events (" + Pct(percent) +
              " of those recorded) were lost to full per-thread buffers; times and counts here undercount",
          {{"dropped_events", static_cast<double>(dropped), ""}, {"dropped_percent", percent, "%"}},
          "Record a shorter window, lower host_tracer_level, or raise ProfileOptions::per_thread_buffer_bytes.",
          "overview_page", percent});
  }

  static std::string MiB(int64_t bytes) { return FormatFixed(static_cast<double>(bytes) / (1 << 20), 1) + " MiB"; }
  bool NoMemory(const char* id) {
    if (!c_.memory.allocators.empty()) return false;
    Check(id, false, "not applicable: no allocator events (MemoryAllocation / MemoryDeallocation)");
    return true;
  }

  // The breakdown row holding the most bytes at an allocator's peak.
  void MemoryPeakOneOp() {
    if (NoMemory("memory_peak_one_op")) return;
    const PerAllocatorMemoryProfile* best = nullptr;
    const MemoryActivityMetadata* best_row = nullptr;
    double best_percent = 0;
    for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
      const int64_t peak = a.summary.peak_stats.peak_bytes_in_use;
      if (peak < kMemoryMinPeakBytes) continue;
      for (const ActiveAllocation& row : a.active_allocations) {
        if (row.special_index >= 0) continue;
        const MemoryActivityMetadata& m = a.active_snapshots[row.snapshot_index].activity_metadata;
        const double percent = Percent(static_cast<double>(m.allocation_bytes) * row.num_occurrences, peak);
        if (percent > best_percent) {
          best_percent = percent;
          best = &a;
          best_row = &m;
        }
      }
    }
    if (best == nullptr || best_percent < kMemoryOneOpPercent) {
      Check("memory_peak_one_op", false,
            "largest share of an allocator's peak held by one op " + Pct(best_percent) + " < " + Pct(kMemoryOneOpPercent));
      return;
    }
    const std::string op = best_row->tf_op_name.empty() ? "(unnamed op)" : best_row->tf_op_name;
    Fire({"memory_peak_one_op", Severity::kMedium,
          op + " holds " + Pct(best_percent) + " of " + best->memory_id + "'s peak memory",
          "at the peak of " + best->memory_id + " (" + MiB(best->summary.peak_stats.peak_bytes_in_use) + "), the live buffers of " + op +
              " add up to " + Pct(best_percent) + " of it",
          {{"op_share_of_peak_percent", best_percent, "%"},
           {"peak_bytes", static_cast<double>(best->summary.peak_stats.peak_bytes_in_use), "bytes"}},
          "Shrink what " + op + " keeps alive: recompute it in the backward pass instead of storing it "
              "(activation checkpointing), store it in 16-bit, or lower the batch size.",
          "memory_profile", best_percent});
  }

  void MemoryFragmentation() {
    if (NoMemory("memory_fragmentation")) return;
    const PerAllocatorMemoryProfile* worst = nullptr;
    for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
      const MemoryAggregationStats& p = a.summary.peak_stats;
      if (p.peak_bytes_in_use < kMemoryMinPeakBytes) continue;
      const double free_percent = Percent(p.free_memory_bytes, a.summary.memory_capacity);
      if (100.0 * p.fragmentation >= kMemoryFragmentationPercent && free_percent <= kMemoryTightFreePercent &&
          (worst == nullptr || p.fragmentation > worst->summary.peak_stats.fragmentation)) {
        worst = &a;
      }
    }
    if (worst == nullptr) {
      double max_fragmentation = 0;
      for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
        max_fragmentation = std::max(max_fragmentation, 100.0 * a.summary.peak_stats.fragmentation);
      }
      Check("memory_fragmentation", false,
            "fragmentation at the peak at most " + Pct(max_fragmentation) + " (fires at >= " +
                Pct(kMemoryFragmentationPercent) + " with <= " + Pct(kMemoryTightFreePercent) + " of capacity free)");
      return;
    }
    const MemoryAggregationStats& p = worst->summary.peak_stats;
    const double fragmentation = 100.0 * p.fragmentation;
    const double free_percent = Percent(p.free_memory_bytes, worst->summary.memory_capacity);
    Fire({"memory_fragmentation", Severity::kMedium,
          worst->memory_id + " is " + Pct(fragmentation) + " fragmented at its peak",
          "at the peak " + Pct(free_percent) + " of " + worst->memory_id + "'s capacity is free (" +
              MiB(p.free_memory_bytes) + "), and " + Pct(fragmentation) + " of that lies outside the largest free chunk",
          {{"fragmentation_percent", fragmentation, "%"}, {"free_percent_of_capacity", free_percent, "%"}},
          "Allocate the large, long-lived buffers first and keep tensor shapes stable between steps (varying "
              "shapes leave holes); a fixed pool for the largest buffers avoids splitting.",
          "memory_profile", fragmentation});
  }

  void MemoryGrowth() {
    if (NoMemory("memory_growth")) return;
    const PerAllocatorMemoryProfile* grower = nullptr;
    double growth_percent = 0;
    int64_t growth_bytes = 0, run_steps = 0;
    for (const PerAllocatorMemoryProfile& a : c_.memory.allocators) {
      const std::vector<std::pair<int64_t, int64_t>>& ends = a.heap_at_step_end;
      const int64_t peak_heap = a.summary.peak_stats.heap_allocated_bytes;
      if (peak_heap < kMemoryMinPeakBytes || ends.size() < static_cast<size_t>(kMemoryGrowthSteps)) continue;
      // The last run of steps whose end-of-step heap only grew.
      size_t first = ends.size() - 1;
      while (first > 0 && ends[first - 1].second < ends[first].second) --first;
      const int64_t steps = static_cast<int64_t>(ends.size() - first);
      const int64_t bytes = ends.back().second - ends[first].second;
      const double percent = Percent(static_cast<double>(bytes), peak_heap);
      if (steps >= kMemoryGrowthSteps && percent >= kMemoryGrowthPercent && percent > growth_percent) {
        grower = &a;
        growth_percent = percent;
        growth_bytes = bytes;
        run_steps = steps;
      }
    }
    if (grower == nullptr) {
      Check("memory_growth", false,
            "no allocator's heap grew at the end of " + Num(kMemoryGrowthSteps) + "+ steps in a row by >= " +
                Pct(kMemoryGrowthPercent) + " of its peak");
      return;
    }
    Fire({"memory_growth", Severity::kHigh,
          grower->memory_id + " grows by " + MiB(growth_bytes) + " over " + Num(run_steps) + " steps",
          "the heap left at the end of each of the last " + Num(run_steps) + " steps grew every step, by " +
              MiB(growth_bytes) + " in all (" + Pct(growth_percent) + " of the peak heap); " +
              Num(grower->diagnostics.never_freed) + " allocations are never freed",
          {{"growth_bytes", static_cast<double>(growth_bytes), "bytes"},
           {"growth_percent_of_peak", growth_percent, "%"},
           {"steps", static_cast<double>(run_steps), ""}},
          "Something keeps memory from step to step: tensors held in a Python list or a metric accumulated "
              "with its graph (loss instead of loss.item()), or a cache without a bound. The memory profile's "
              "never-freed allocations name the ops.",
          "memory_profile", growth_percent});
  }

  void GpuStraggler() {
    const MultiGpuResult& g = c_.multi_gpu;
    if (g.steps == 0 || c_.steps.avg_step_time_ms <= 0) {
      Check("gpu_straggler", false, "not applicable: fewer than two devices with work in the same steps");
      return;
    }
    const double percent = Percent(g.avg_imbalance_ms, c_.steps.avg_step_time_ms);
    if (percent < kGpuStragglerPercent) {
      Check("gpu_straggler", false,
            "device compute imbalance " + Ms(g.avg_imbalance_ms) + " = " + Pct(percent) + " of step time < " +
                Pct(kGpuStragglerPercent));
      return;
    }
    Fire({"gpu_straggler", Severity::kMedium, g.straggler + " holds the other devices back",
          g.straggler + " has the most compute in " + Num(g.straggler_steps) + " of " + Num(g.steps) +
              " steps; the others finish their compute " + Ms(g.avg_imbalance_ms) + " earlier per step (" +
              Pct(percent) + " of step time) and wait for it",
          {{"imbalance_ms", g.avg_imbalance_ms, "ms"}, {"imbalance_percent", percent, "%"}},
          "Give every device the same work (equal per-device batches and shapes); check that the straggler's host is "
          "not busier (input pipeline, other processes) and that its launch thread is not starved (TensorFlow: "
          "TF_GPU_THREAD_MODE=gpu_private); compare its kernels in kernel_stats.",
          "multi_gpu", percent});
  }

  void CollectiveHeavy() {
    const MultiGpuResult& g = c_.multi_gpu;
    if (g.device_count < 2) {
      Check("collective_heavy", false, "not applicable: fewer than two devices");
      return;
    }
    if (g.collective_percent < kCollectiveHeavyPercent) {
      Check("collective_heavy", false,
            "collectives " + Pct(g.collective_percent) + " of device time < " + Pct(kCollectiveHeavyPercent));
      return;
    }
    std::string evidence = "all-reduce / all-gather / reduce-scatter kernels take " + Ms(g.avg_step_collective_ms) +
                           " per device and step, " + Pct(g.collective_percent) + " of the devices' active time";
    std::vector<EvidenceValue> numbers = {{"collective_percent", g.collective_percent, "%"},
                                          {"collective_ms", g.avg_step_collective_ms, "ms"}};
    std::string advice =
        "Overlap communication with compute (gradient bucketing, async collectives), all-reduce fewer and larger "
        "tensors (gradient accumulation, larger per-device batches), and check the link: the time an all-reduce "
        "needs is about parameters x 4 B / link bandwidth.";
    if (g.sized_collectives > 0) {
      evidence += "; the sized ones run at " + FormatFixed(g.busbw_gbps, 1) + " GB/s bus bandwidth";
      numbers.push_back({"bus_bandwidth_gbps", g.busbw_gbps, "GB/s"});
      if (g.link_gbps > 0) {
        evidence += ", " + Pct(g.link_percent) + " of the " + FormatFixed(g.link_gbps, 0) + " GB/s link (" + g.link + ")";
        numbers.push_back({"link_percent", g.link_percent, "%"});
        advice += g.link_percent < kCollectiveLinkLowPercent
                      ? " Collectives reach well under the link's bandwidth: they are latency- or wait-bound (small "
                        "messages, a straggler, launch order), not link-bound; bucket gradients into larger "
                        "messages and look at the straggler."
                      : " Collectives already run near the link's bandwidth: move less data (fp16/bf16 gradients, "
                        "gradient compression) or overlap it with compute.";
      }
    }
    Fire({"collective_heavy", Severity::kMedium, "Collectives are " + Pct(g.collective_percent) + " of device time",
          evidence, numbers, advice, "multi_gpu", g.collective_percent});
  }

  // TensorFlow's GPU guide: launches slowed by tf.data threads on the same cores ->
  // TF_GPU_THREAD_MODE=gpu_private gives launching its own threads.
  void GpuThreadMode() {
    const LaunchThreadCompetition& t = c_.launch_threads;
    const double p = c_.steps.kernel_launch_percent;
    if (!c_.model.has_device || !HasSteps() || !t.measured || t.launch_threads == 0) {
      Check("gpu_thread_mode", false, "not applicable: no device, steps or host threads that launch device work");
      return;
    }
    if (t.gpu_private_threads > 0) {
      Check("gpu_thread_mode", false,
            "launches already have their own threads (" + Num(t.gpu_private_threads) + " tf_gpu_private threads)");
      return;
    }
    if (t.input_threads == 0) {
      Check("gpu_thread_mode", false, "no tf.data threads compete with the " + Num(t.launch_threads) + " launching threads");
      return;
    }
    if (p < kLaunchBoundModeratePercent || t.overlap_percent < kLaunchInputOverlapPercent) {
      Check("gpu_thread_mode", false,
            "kernel launch " + Pct(p) + " of step time (fires at " + Pct(kLaunchBoundModeratePercent) +
                "), launching threads busy alongside tf.data threads " + Pct(t.overlap_percent) + " of their time (fires at " +
                Pct(kLaunchInputOverlapPercent) + ")");
      return;
    }
    Fire({"gpu_thread_mode", p >= kLaunchBoundHighPercent ? Severity::kHigh : Severity::kMedium,
          "Kernel launches share the CPU with tf.data threads",
          "kernel launch " + Pct(p) + " of step time; the " + Num(t.launch_threads) + " threads that launch (" +
              Num(t.launches) + " launches) are busy at the same time as " + Num(t.input_threads) +
              " tf.data threads for " + Ms(t.overlap_ms) + ", " + Pct(t.overlap_percent) +
              " of their busy time; no tf_gpu_private threads",
          {{"kernel_launch_percent", p, "%"}, {"launch_input_overlap_percent", t.overlap_percent, "%"}},
          "Give kernel launches their own threads: set TF_GPU_THREAD_MODE=gpu_private (TF_GPU_THREAD_COUNT=2 per "
          "GPU by default) before TensorFlow starts, and leave tf.data's parallelism on AUTOTUNE so it does not "
          "take every core.",
          "overview_page", p});
  }

  // XLA: the HLO ops furthest below their roof, by the time that costs.
  void HloOpsBelowRoof() {
    if (c_.model.hlo == nullptr) return;  // not an XLA profile: the rule does not exist here
    if (!c_.hlo.peaks.known() || c_.hlo.total_time_ps <= 0) {
      Check("hlo_ops_below_roof", false, "not applicable: no HLO op time or unknown device peaks");
      return;
    }
    const double total_ps = static_cast<double>(c_.hlo.total_time_ps);
    std::vector<const HloOpMetrics*> below;
    for (const HloOpMetrics& op : c_.hlo_ops) {
      if (op.bound_by == BoundBy::kUnknown) continue;
      if (Percent(static_cast<double>(op.total_time_ps), total_ps) < kHloOpMinTimePercent) continue;
      if (op.roof_percent < kHloBelowRoofPercent) below.push_back(&op);
    }
    if (below.empty()) {
      Check("hlo_ops_below_roof", false,
            "no HLO op with >= " + Pct(kHloOpMinTimePercent) + " of HLO op time is under " +
                Pct(kHloBelowRoofPercent) + " of its roof");
      return;
    }
    std::stable_sort(below.begin(), below.end(),
                     [](const HloOpMetrics* a, const HloOpMetrics* b) { return a->wasted_time_ps > b->wasted_time_ps; });
    if (below.size() > kHloOpsNamed) below.resize(kHloOpsNamed);
    std::string evidence;
    double wasted_ps = 0;
    bool latency = false, memory = false, compute = false;
    for (const HloOpMetrics* op : below) {
      if (!evidence.empty()) evidence += "; ";
      evidence += op->op_name + " (" + op->category + ", " + Pct(Percent(op->total_time_ps, total_ps)) +
                  " of HLO op time) reaches " + Pct(op->roof_percent) + " of its roof, " +
                  std::string(BoundByName(op->bound_by)) + " bound";
      wasted_ps += static_cast<double>(op->wasted_time_ps);
      latency |= op->bound_by == BoundBy::kLatency;
      memory |= op->bound_by == BoundBy::kMemory;
      compute |= op->bound_by == BoundBy::kCompute;
    }
    const double wasted_percent = Percent(wasted_ps, total_ps);
    std::string advice;
    if (latency) {
      advice += "Latency-bound ops do too little work per launch: fuse them with neighbours, batch more per step, "
                "or check that XLA did not split them into many small kernels. ";
    }
    if (memory) {
      advice += "Memory-bound ops move more bytes than their math needs: let XLA fuse their producers and "
                "consumers, keep activations in bf16, avoid layout transposes. ";
    }
    if (compute) {
      advice += "Compute-bound ops below the roof: use bf16/fp8 matmuls and shapes that are multiples of 64/128. ";
    }
    advice += "The op profile orders every op by the time it wastes.";
    Fire({"hlo_ops_below_roof", wasted_percent >= kHloWastedMediumPercent ? Severity::kMedium : Severity::kLow,
          below.front()->op_name + " and other HLO ops run far below the device's roof", evidence,
          {{"wasted_percent", wasted_percent, "%"}, {"roof_percent", below.front()->roof_percent, "%"}},
          advice, "op_profile", wasted_percent});
  }

  const Context& c_;
  AdvisorReport report_;
};

Table FindingsTable(const std::vector<Finding>& findings) {
  Table t;
  t.name = "findings";
  t.title = "Findings";
  t.columns = {{"id", "Id"},
               {"severity", "Severity"},
               {"title", "Title", ColumnType::kString, 2, 60},
               {"evidence", "Evidence"},
               {"advice", "Advice"},
               {"tool", "Tool"},
               {"impact_percent", "Impact %", ColumnType::kDouble, 1}};
  for (const Finding& f : findings) {
    t.AddRow({f.id, std::string(SeverityName(f.severity)), f.title, f.evidence, f.advice, f.tool, f.impact_percent});
  }
  return t;
}

Table ChecksTable(const std::vector<CheckOutcome>& checks) {
  Table t;
  t.name = "checks";
  t.title = "Checks";
  t.columns = {{"id", "Check"}, {"fired", "Fired", ColumnType::kBool}, {"detail", "Detail", ColumnType::kString, 2, 100}};
  for (const CheckOutcome& c : checks) t.AddRow({c.id, c.fired, c.detail});
  return t;
}

}  // namespace

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kHigh: return "high";
    case Severity::kMedium: return "medium";
    case Severity::kLow: return "low";
  }
  return "low";
}

AdvisorReport ComputeAdvice(const ProfileModel& model) {
  Context context{model, SummarizeSteps(model), ComputeInputPipelineAnalysis(model), SummarizeKernels(model),
                  ComputeOpPlacement(model), ComputeMemoryProfile(model),
                  HasSeveralDevices(model) ? ComputeMultiGpu(model) : MultiGpuResult{},
                  model.launch_threads};
  if (model.hlo != nullptr) {
    context.hlo_ops = ComputeHloOpMetrics(model);
    context.hlo = SummarizeHloOps(model, context.hlo_ops);
  }
  return Rules(context).Run();
}

void WriteFindingsJson(const std::vector<Finding>& findings, output::JsonWriter* w) {
  w->BeginArray();
  for (const Finding& f : findings) {
    w->BeginObject();
    w->Field("id", f.id);
    w->Field("severity", SeverityName(f.severity));
    w->Field("title", f.title);
    w->Field("evidence", f.evidence);
    w->Key("numbers");
    w->BeginObject();
    for (const EvidenceValue& v : f.numbers) w->Field(v.name, v.value);
    w->EndObject();
    w->Field("advice", f.advice);
    w->Field("tool", f.tool);
    w->Field("impact_percent", f.impact_percent);
    w->EndObject();
  }
  w->EndArray();
}

void WriteResultJson(const AdvisorReport& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "advisor");
  w->Key("findings");
  WriteFindingsJson(r.findings, w);
  w->Key("checks");
  output::WriteTableRowsJson(ChecksTable(r.checks), w);
  w->EndObject();
}

std::vector<Table> BuildTables(const AdvisorReport& r) { return {FindingsTable(r.findings), ChecksTable(r.checks)}; }

std::string FormatFindingsText(const std::vector<Finding>& findings) {
  if (findings.empty()) return "  No problems found by the advisor's checks.\n";
  std::string out;
  int n = 0;
  for (const Finding& f : findings) {
    out += "  " + std::to_string(++n) + ". [" + std::string(SeverityName(f.severity)) + "] " +
           output::SanitizeForTerminal(f.title) + "\n";
    out += "     evidence: " + output::SanitizeForTerminal(f.evidence) + "\n";
    out += "     advice:   " + output::SanitizeForTerminal(f.advice) + "\n";
    out += "     see:      " + f.tool + "\n";
  }
  return out;
}

std::string FormatResultText(const AdvisorReport& r, const ToolOptions&) {
  std::string out = "Advisor findings\n" + FormatFindingsText(r.findings) + "\n";
  Table checks = ChecksTable(r.checks);
  out += output::FormatTextTable(checks);
  return out;
}

namespace {

class AdvisorTool final : public Tool {
 public:
  std::string_view id() const override { return "advisor"; }
  std::string_view description() const override {
    return "Recommendations from the TF performance guides, each tied to the numbers that triggered it.";
  }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(ComputeAdvice(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeAdvisorTool() { return std::make_unique<AdvisorTool>(); }

}  // namespace stepscope::analysis
