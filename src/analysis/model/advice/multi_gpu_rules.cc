// The advisor's rules for several devices (the multi-GPU analysis): a straggler device,
// collectives taking much of the devices' time.
#include <algorithm>

#include "src/analysis/model/advice/rule_context.h"

namespace stepscope::analysis::advice {

void Rules::GpuStraggler() {
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

void Rules::CollectiveHeavy() {
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

}  // namespace stepscope::analysis::advice
