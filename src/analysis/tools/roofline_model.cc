#include "src/analysis/tools/roofline_model.h"

#include <algorithm>
#include <map>
#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tools/hlo_stats.h"

namespace stepscope::analysis {
namespace {


struct Sum {
  int64_t time_ps = 0;
  int64_t occurrences = 0;
  double flops = 0;
  double bytes = 0;
  bool has_cost = false;
};

// A point from sums: rates over its time, and where the roofs put it.
RooflinePoint Point(std::string level, std::string program, std::string name, const Sum& sum, int64_t total_ps,
                    const DevicePeaks& peaks) {
  RooflinePoint p;
  p.level = std::move(level);
  p.program = std::move(program);
  p.name = std::move(name);
  p.occurrences = sum.occurrences;
  p.time_us = PsToUs(sum.time_ps);
  p.time_percent = Percent(static_cast<double>(sum.time_ps), static_cast<double>(total_ps));
  p.gflops = sum.flops / kFlopsPerGflop;
  p.has_cost = sum.has_cost;
  const double seconds = static_cast<double>(sum.time_ps) * 1e-12;
  p.arithmetic_intensity = sum.bytes > 0 ? sum.flops / sum.bytes : 0;
  p.gflop_rate = seconds > 0 ? sum.flops / seconds / kFlopsPerGflop : 0;
  p.bandwidth_gbps = seconds > 0 ? sum.bytes / seconds / kBytesPerGb : 0;
  if (peaks.known() && p.arithmetic_intensity > 0) {
    p.attainable_gflop_rate =
        std::min(peaks.peak_flops_per_s, p.arithmetic_intensity * peaks.memory_bandwidth_bytes_per_s) / kFlopsPerGflop;
    p.roof_percent = Percent(p.gflop_rate, p.attainable_gflop_rate);
  }
  return p;
}

}  // namespace

// ComputeRoofline's body, reading the model's derivations from the cache in use (the model's, or
// a fresh one for ComputeRoofline).
static RooflineResult BuildRoofline(const ProfileModel& model) {
  RooflineResult r;
  std::vector<HloOpMetrics> ops = HloOpsOf(model);  // a copy: the rows take its strings
  r.summary = HloSummaryOf(model);
  r.diagnostics = HloDiagnostics(model, r.summary);
  if (model.step_group) {
    for (const StepInfo& step : model.steps) {
      if (step.group_id == *model.step_group) r.step = step.step_number;
    }
  }
  const DevicePeaks& peaks = r.summary.peaks;
  Sum total;
  std::map<std::string, Sum> programs;
  for (const HloOpMetrics& op : ops) {
    const double occurrences = static_cast<double>(std::max<int64_t>(op.occurrences, 1));
    Sum s{op.total_time_ps, op.occurrences, op.flops * occurrences, op.bytes_accessed * occurrences, op.has_cost};
    for (Sum* into : {&total, &programs[op.program]}) {
      into->time_ps += s.time_ps;
      into->occurrences += s.occurrences;
      into->flops += s.flops;
      into->bytes += s.bytes;
      into->has_cost = into->has_cost || s.has_cost;
    }
  }
  RooflinePoint& all = r.points.emplace_back(Point("total", "", "all programs", total, total.time_ps, peaks));
  all.bound_by = "";
  for (const auto& [name, sum] : programs) r.points.push_back(Point("program", name, name, sum, total.time_ps, peaks));
  std::stable_sort(r.points.begin() + 1, r.points.end(),
                   [](const RooflinePoint& a, const RooflinePoint& b) { return a.time_us > b.time_us; });
  for (const HloOpMetrics& op : ops) {
    const double occurrences = static_cast<double>(std::max<int64_t>(op.occurrences, 1));
    Sum s{op.total_time_ps, op.occurrences, op.flops * occurrences, op.bytes_accessed * occurrences, op.has_cost};
    RooflinePoint& p = r.points.emplace_back(Point("op", op.program, op.op_name, s, total.time_ps, peaks));
    p.category = op.category;
    p.bound_by = std::string(BoundByName(op.bound_by));
  }
  return r;
}

RooflineResult ComputeRoofline(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return BuildRoofline(model); });
}

std::string FormatResultText(const RooflineResult& r, const ToolOptions& options) {
  const DevicePeaks& peaks = r.summary.peaks;
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Scope", r.step ? "step " + std::to_string(*r.step) : "whole profile"}};
  if (peaks.known()) {
    rows.push_back({"Compute roof", output::FormatFixed(peaks.peak_flops_per_s / 1e12, 1) + " TFLOP/s (" + peaks.flops_source + ")"});
    rows.push_back({"Bandwidth roof", output::FormatFixed(peaks.memory_bandwidth_bytes_per_s / 1e9, 0) + " GB/s (" +
                                          peaks.bandwidth_source + ")"});
    rows.push_back({"Ridge point", output::FormatFixed(peaks.ridge_flops_per_byte(), 1) + " FLOP/B"});
  } else {
    rows.push_back({"Roofs", "unknown for this device"});
  }
  std::string out = output::FormatKeyValues("Roofline model", rows);
  return out + output::FormatResultTextEnd(output::RecordTables(r), r.diagnostics, options.text_max_rows);
}

namespace {

class RooflineModelTool final : public DeclaredTool<RooflineResult> {
 public:
  std::string_view id() const override { return "roofline_model"; }
  std::string_view description() const override {
    return "HLO ops by arithmetic intensity against the device's compute and bandwidth roofs.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasHloData(model); }
  std::string_view requirement() const override { return kHloDataRequirement; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(BuildRoofline(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeRooflineModelTool() { return std::make_unique<RooflineModelTool>(); }

}  // namespace stepscope::analysis
