#include "src/analysis/tools/multi_gpu.h"

#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {

MultiGpuResult ComputeMultiGpu(const ProfileModel& model, const ToolOptions& options) {
  return AnalyzeMultiGpu(model, {options.link_bandwidth_gbps, options.parameter_count});
}

std::string FormatResultText(const MultiGpuResult& r, const ToolOptions& options) {
  const bool whole = r.basis == "profile";
  const std::string per = whole ? " ms over the profile" : " ms per step";
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Devices", std::to_string(r.device_count) + " with activity, compared " +
                      (whole ? std::string("over the whole profile (no shared steps)")
                             : "over " + std::to_string(r.steps) + " steps")},
      {"Straggler", r.straggler.empty() ? "none (no device's compute exceeds the fastest's by " +
                                              output::FormatFixed(kStepStragglerMinPercent, 0) + " % of the step)"
                    : whole             ? r.straggler + " (most kernel time without collectives)"
                                        : r.straggler + " (slowest in " + std::to_string(r.straggler_steps) + " of " +
                                              std::to_string(r.steps) + " steps)"},
      {"Compute imbalance", output::FormatFixed(r.avg_imbalance_ms, 3) + per + " (slowest minus fastest device)"},
      {"Launch skew", !r.avg_launch_skew_ms
                          ? std::string("- (no step ran on two devices at the same time)")
                          : output::FormatFixed(*r.avg_launch_skew_ms, 3) + per +
                                (whole ? " (latest minus earliest first activity)"
                                       : " (latest minus earliest first kernel)")},
      {"Collectives", (whole ? std::string() : output::FormatFixed(r.avg_step_collective_ms, 3) + " ms per device and step, ") +
                          output::FormatFixed(r.collective_percent, 1) + " % of device time"}};
  if (r.sized_collectives > 0) {
    std::string bw = output::FormatFixed(r.busbw_gbps, 2) + " GB/s bus, " + output::FormatFixed(r.algbw_gbps, 2) +
                     " GB/s algorithm (" + std::to_string(r.sized_collectives) + " of " +
                     std::to_string(r.collectives) + " collectives sized)";
    rows.push_back({"Collective bandwidth", bw});
    rows.push_back({"Link", r.link_gbps > 0 ? "collectives reach " + output::FormatFixed(r.link_percent, 1) +
                                                  " % of link bandwidth (" + output::FormatFixed(r.link_gbps, 0) +
                                                  " GB/s, " + r.link + ")"
                                            : std::string("unknown (give --link_gbps)")});
  }
  if (r.all_reduce_mb_per_step > 0 || r.parameter_count > 0) {
    std::string ar = output::FormatFixed(r.all_reduce_mb_per_step, 1) + " MB in " +
                     output::FormatFixed(r.all_reduce_ms_per_step, 3) + " ms per device and " + (whole ? "profile" : "step");
    if (r.parameter_count > 0) {
      const std::string params = std::to_string(r.parameter_count) +
                                 (r.estimate_basis == "parameters" ? " parameters" : " parameters (all-reduce bytes / 4)");
      ar += r.estimated_all_reduce_ms > 0
                ? "; estimate " + params + " x 4 B / link = " + output::FormatFixed(r.estimated_all_reduce_ms, 3) + " ms"
                : "; " + params + ", no estimate (link bandwidth unknown)";
    }
    rows.push_back({"All-reduce", ar});
  }
  if (r.launch_threads.measured && r.launch_threads.launch_threads > 0) {
    const LaunchThreadCompetition& t = r.launch_threads;
    rows.push_back({"Launch threads", std::to_string(t.launch_threads) + " (" + std::to_string(t.gpu_private_threads) +
                                          " tf_gpu_private), busy alongside " + std::to_string(t.input_threads) +
                                          " tf.data threads for " + output::FormatFixed(t.overlap_ms, 3) + " ms (" +
                                          output::FormatFixed(t.overlap_percent, 1) + " % of their busy time)"});
  }
  std::string out = output::FormatKeyValues("Multi-GPU", rows);
  std::vector<output::Table> tables = output::RecordTables(r);
  if (r.collective_rows.empty()) tables.pop_back();  // the collectives table, last: no empty table in text
  return out + output::FormatResultTextEnd(tables, r.diagnostics, options.text_max_rows);
}

namespace {

class MultiGpuTool final : public DeclaredTool<MultiGpuResult> {
 public:
  std::string_view id() const override { return "multi_gpu"; }
  std::string_view description() const override {
    return "Several GPUs or ranks: per-device busy time, the straggler and the wait it causes, collectives, launch skew.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasSeveralDevices(model); }
  std::string_view requirement() const override { return "two or more devices with activity"; }
  std::vector<std::string_view> option_names() const override { return {"parameters", "link_gbps"}; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions& options) const override {
    // Without a link bandwidth or parameter count: the model's analysis, which the advisor reads too.
    if (!options.link_bandwidth_gbps && !options.parameter_count) return MakeToolResult(MultiGpuOf(model));
    return MakeToolResult(ComputeMultiGpu(model, options));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeMultiGpuTool() { return std::make_unique<MultiGpuTool>(); }

}  // namespace stepscope::analysis
