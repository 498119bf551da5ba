// The advisor's rules about device and host work in the step: output and launch bound, tiny
// kernels, host op placement, 16-bit compute, Tensor Cores, copies, host syncs, GPU thread
// mode, and (XLA profiles) HLO ops below their roof.
#include <algorithm>

#include "src/analysis/model/advice/rule_context.h"

namespace stepscope::analysis::advice {
namespace {

// The framework's own knobs for the advice that is not about input (the input analysis
// words that): fusing ops, mixed precision, host op placement.
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

}  // namespace

void Rules::OutputBound() {
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

void Rules::LaunchBound() {
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

void Rules::TinyKernels() {
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

void Rules::HostOpPlacement() {
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

void Rules::No16BitCompute() {
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

void Rules::TensorCoresUnused() {
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

void Rules::CopyHeavy() {
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

void Rules::HostWaitsOnDevice() {
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

// XLA: the HLO ops furthest below their roof, by the time that costs.
void Rules::HloOpsBelowRoof() {
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

// TensorFlow's GPU guide: launches slowed by tf.data threads on the same cores ->
// TF_GPU_THREAD_MODE=gpu_private gives launching its own threads.
void Rules::GpuThreadMode() {
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

}  // namespace stepscope::analysis::advice
