#include "src/analysis/tools/multi_gpu.h"

#include <algorithm>
#include <map>
#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"

namespace stepscope::analysis {
namespace {

using output::ColumnType;
using output::Table;

output::Column Col(std::string id, std::string label, ColumnType type, std::string unit, int decimals = 2) {
  output::Column c{std::move(id), std::move(label), type, decimals};
  c.unit = std::move(unit);
  return c;
}

Table DeviceTable(const MultiGpuResult& r) {
  Table t;
  t.name = "devices";
  t.title = "Per device (averages over steps)";
  t.columns = {Col("host", "Host", ColumnType::kString, ""),
               Col("device", "Device", ColumnType::kString, ""),
               Col("steps", "Steps", ColumnType::kInt, "count"),
               Col("avg_active_ms", "Active (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_compute_ms", "Compute (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_collective_ms", "Collectives (ms)", ColumnType::kDouble, "ms", 3),
               Col("collective_percent", "Coll. %", ColumnType::kDouble, "%", 1),
               Col("collectives", "Coll. ops", ColumnType::kInt, "count"),
               Col("busy_ms", "Busy (ms)", ColumnType::kDouble, "ms", 3),
               Col("straggler_steps", "Slowest in", ColumnType::kInt, "count"),
               Col("avg_wait_ms", "Waits (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_launch_skew_ms", "Launch skew (ms)", ColumnType::kDouble, "ms", 3),
               Col("kernel_ms", "All kernels (ms)", ColumnType::kDouble, "ms", 3),
               Col("total_collective_ms", "All collectives (ms)", ColumnType::kDouble, "ms", 3),
               Col("first_kernel_offset_ms", "Starts after (ms)", ColumnType::kDouble, "ms", 3)};
  for (const MultiGpuDeviceRow& d : r.devices) {
    t.AddRow({d.host, d.device, d.steps, d.avg_active_ms, d.avg_compute_ms, d.avg_collective_ms, d.collective_percent,
              d.collectives, d.busy_ms, d.straggler_steps, d.avg_wait_ms, output::OptionalCell(d.avg_launch_skew_ms), d.kernel_ms,
              d.total_collective_ms, d.first_kernel_offset_ms});
  }
  return t;
}

Table StepTable(const MultiGpuResult& r) {
  Table t;
  t.name = "steps";
  t.title = "Per step";
  t.columns = {Col("step_number", "Step", ColumnType::kInt, ""),
               Col("devices", "Devices", ColumnType::kInt, "count"),
               Col("concurrent", "Ran together", ColumnType::kBool, ""),
               Col("straggler", "Straggler", ColumnType::kString, ""),
               Col("max_compute_ms", "Max compute (ms)", ColumnType::kDouble, "ms", 3),
               Col("min_compute_ms", "Min compute (ms)", ColumnType::kDouble, "ms", 3),
               Col("imbalance_ms", "Imbalance (ms)", ColumnType::kDouble, "ms", 3),
               Col("avg_collective_ms", "Collectives (ms)", ColumnType::kDouble, "ms", 3),
               Col("launch_skew_ms", "Launch skew (ms)", ColumnType::kDouble, "ms", 3)};
  for (const MultiGpuStepRow& s : r.step_rows) {
    t.AddRow({s.step_number, s.devices, s.concurrent, s.straggler, s.max_compute_ms, s.min_compute_ms, s.imbalance_ms,
              s.avg_collective_ms, output::OptionalCell(s.launch_skew_ms)});
  }
  return t;
}

Table CollectiveTable(const MultiGpuResult& r) {
  Table t;
  t.name = "collectives";
  t.title = "Collectives: size and bandwidth (sized ones)";
  t.columns = {Col("host", "Host", ColumnType::kString, ""),
               Col("device", "Device", ColumnType::kString, ""),
               Col("collective", "Collective", ColumnType::kString, ""),
               Col("count", "Count", ColumnType::kInt, "count"),
               Col("sized", "With size", ColumnType::kInt, "count"),
               Col("ranks", "Ranks", ColumnType::kInt, "count"),
               Col("ranks_source", "Ranks from", ColumnType::kString, ""),
               Col("time_ms", "Time (ms)", ColumnType::kDouble, "ms", 3),
               Col("size_mb", "Size (MB)", ColumnType::kDouble, "MB", 1),
               Col("size_per_step_mb", "Size/step (MB)", ColumnType::kDouble, "MB", 1),
               Col("algbw_gbps", "Alg. BW (GB/s)", ColumnType::kDouble, "GB/s", 2),
               Col("busbw_gbps", "Bus BW (GB/s)", ColumnType::kDouble, "GB/s", 2),
               Col("link_gbps", "Link (GB/s)", ColumnType::kDouble, "GB/s", 0),
               Col("link", "Link", ColumnType::kString, ""),
               Col("link_percent", "Of link %", ColumnType::kDouble, "%", 1)};
  for (const MultiGpuCollectiveRow& c : r.collective_rows) {
    t.AddRow({c.host, c.device, c.collective, c.count, c.sized, c.ranks, c.ranks_source, c.time_ms, c.size_mb,
              c.size_per_step_mb, c.algbw_gbps, c.busbw_gbps, c.link_gbps, c.link, c.link_percent});
  }
  return t;
}

}  // namespace

MultiGpuResult ComputeMultiGpu(const ProfileModel& model, const ToolOptions& options) {
  return AnalyzeMultiGpu(model, {options.link_bandwidth_gbps, options.parameter_count});
}

std::vector<Table> BuildTables(const MultiGpuResult& r) { return {DeviceTable(r), StepTable(r), CollectiveTable(r)}; }

void WriteResultJson(const MultiGpuResult& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "multi_gpu");
  w->Key("summary");
  w->BeginObject();
  w->Field("basis", r.basis);
  w->Field("device_count", r.device_count);
  w->Field("steps", r.steps);
  w->Field("straggler", r.straggler);
  w->Field("straggler_steps", r.straggler_steps);
  w->Field("non_concurrent_steps", r.non_concurrent_steps);
  w->Field("avg_imbalance_ms", r.avg_imbalance_ms);
  w->Field("avg_launch_skew_ms", r.avg_launch_skew_ms);
  w->Field("avg_step_collective_ms", r.avg_step_collective_ms);
  w->Field("collective_percent", r.collective_percent);
  w->Field("collectives", r.collectives);
  w->Field("sized_collectives", r.sized_collectives);
  w->Field("algbw_gbps", r.algbw_gbps);
  w->Field("busbw_gbps", r.busbw_gbps);
  w->Field("link_gbps", r.link_gbps);
  w->Field("link", r.link);
  w->Field("link_percent", r.link_percent);
  w->Field("all_reduce_mb_per_step", r.all_reduce_mb_per_step);
  w->Field("all_reduce_ms_per_step", r.all_reduce_ms_per_step);
  w->Field("parameter_count", r.parameter_count);
  w->Field("estimate_basis", r.estimate_basis);
  w->Field("estimated_all_reduce_ms", r.estimated_all_reduce_ms);
  const LaunchThreadCompetition& t = r.launch_threads;
  w->Field("launch_threads_measured", t.measured);
  w->Field("launch_threads", t.launch_threads);
  w->Field("input_threads", t.input_threads);
  w->Field("gpu_private_threads", t.gpu_private_threads);
  w->Field("launch_input_overlap_ms", t.overlap_ms);
  w->Field("launch_input_overlap_percent", t.overlap_percent);
  w->EndObject();
  output::WriteTablesJson(BuildTables(r), w);
  output::EndResultJson(r.diagnostics, w);
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
  std::vector<Table> tables = BuildTables(r);
  if (r.collective_rows.empty()) tables.pop_back();  // the collectives table, last: no empty table in text
  return out + output::FormatResultTextEnd(tables, r.diagnostics, options.text_max_rows);
}

namespace {

class MultiGpuTool final : public Tool {
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
