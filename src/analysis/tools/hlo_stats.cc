#include "src/analysis/tools/hlo_stats.h"

#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/hlo/hlo_programs.h"

namespace stepscope::analysis {

std::vector<std::string> HloDiagnostics(const ProfileModel& model, const HloOpSummary& s) {
  std::vector<std::string> out;
  if (model.hlo == nullptr) {
    out.push_back("the profile carries no XLA programs (no `Hlo Proto` stats on /host:metadata): ops have times "
                  "but no FLOPs or bytes");
  } else {
    for (const std::string& d : model.hlo->diagnostics) out.push_back(d);
  }
  if (s.join.kernels > 0 && s.join.kernels_with_hlo_op == 0) {
    out.push_back("no device kernel carries an hlo_op stat, so no kernel time can be tied to HLO ops");
  } else if (s.join.kernels_with_hlo_op > s.join.kernels_joined) {
    out.push_back(std::to_string(s.join.kernels_with_hlo_op - s.join.kernels_joined) +
                  " kernels name an HLO op the profile's programs do not have (time kept, no cost)");
  }
  if (s.join.kernels > s.join.kernels_with_hlo_op && s.join.kernels_with_hlo_op > 0) {
    out.push_back(std::to_string(s.join.kernels - s.join.kernels_with_hlo_op) + " of " +
                  std::to_string(s.join.kernels) + " kernels carry no hlo_op stat (not in these tables)");
  }
  if (s.unknown_flops_time_ps > 0) {
    out.push_back(output::FormatFixed(Percent(static_cast<double>(s.unknown_flops_time_ps),
                                              static_cast<double>(s.total_time_ps)), 1) +
                  " % of HLO op time is in ops whose FLOPs the cost model cannot know (custom calls such as fused "
                  "attention): utilisations count no FLOPs there and are lower bounds");
  }
  if (!s.peaks.known()) {
    out.push_back("device peak FLOP/s or memory bandwidth unknown (no device stats and not in the table of "
                  "published peaks): no utilisation or bound-by verdicts");
  }
  return out;
}

HloDeviceRoofs DeviceRoofsOf(const DevicePeaks& p) {
  HloDeviceRoofs roofs;
  if (p.peak_flops_per_s > 0) roofs.peak_tflops = p.peak_flops_per_s / 1e12;
  if (p.memory_bandwidth_bytes_per_s > 0) roofs.peak_bandwidth_gbps = p.memory_bandwidth_bytes_per_s / kBytesPerGb;
  if (p.known()) roofs.ridge_flops_per_byte = p.ridge_flops_per_byte();
  roofs.flops_source = p.flops_source;
  roofs.bandwidth_source = p.bandwidth_source;
  return roofs;
}

// ComputeHloStats's body, reading the model's derivations from the cache in use (the model's, or
// a fresh one for ComputeHloStats).
static HloStatsResult BuildHloStats(const ProfileModel& model) {
  HloStatsResult r;
  std::vector<HloOpMetrics> ops = HloOpsOf(model);  // a copy: the rows take its strings
  r.summary = HloSummaryOf(model);
  r.diagnostics = HloDiagnostics(model, r.summary);
  double cumulative = 0;
  for (HloOpMetrics& op : ops) {
    HloStatsRow& row = r.rows.emplace_back();
    row.rank = static_cast<int64_t>(r.rows.size());
    row.total_time_us = PsToUs(op.total_time_ps);
    row.avg_time_us = op.occurrences > 0 ? row.total_time_us / static_cast<double>(op.occurrences) : 0;
    row.time_percent = Percent(static_cast<double>(op.total_time_ps), static_cast<double>(r.summary.total_time_ps));
    cumulative += row.time_percent;
    row.cumulative_time_percent = std::min(cumulative, 100.0);
    row.op = std::move(op);
  }
  return r;
}

HloStatsResult ComputeHloStats(const ProfileModel& model) {
  return WithFreshDerivations(model, [&] { return BuildHloStats(model); });
}

std::string FormatResultText(const HloStatsResult& r, const ToolOptions& options) {
  const HloOpSummary& s = r.summary;
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Programs", std::to_string(s.modules) + " (" + std::to_string(s.instructions) + " HLO instructions)"},
      {"Kernels joined", std::to_string(s.join.kernels_joined) + " of " + std::to_string(s.join.kernels) + " (" +
                             output::FormatFixed(100.0 * s.join.join_rate(), 1) + " %)"},
      {"HLO op time", output::FormatFixed(PsToMs(s.total_time_ps), 3) + " ms"}};
  if (s.peaks.known()) {
    rows.push_back({"FLOP utilisation", output::FormatFixed(s.flops_utilization_percent, 2) + " % of " +
                                            output::FormatFixed(s.peaks.peak_flops_per_s / 1e12, 1) + " TFLOP/s"});
    rows.push_back({"Bandwidth utilisation", output::FormatFixed(s.bandwidth_utilization_percent, 2) + " % of " +
                                                 output::FormatFixed(s.peaks.memory_bandwidth_bytes_per_s / 1e9, 0) +
                                                 " GB/s"});
  }
  std::string out = output::FormatKeyValues("HLO stats", rows);
  return out + output::FormatResultTextEnd(output::RecordTables(r), r.diagnostics, options.text_max_rows);
}

namespace {

class HloStatsTool final : public DeclaredTool<HloStatsResult> {
 public:
  std::string_view id() const override { return "hlo_stats"; }
  std::string_view description() const override {
    return "Per HLO op: occurrences, device time, category, FLOP rate, memory bandwidth, bound by, source line.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasHloData(model); }
  std::string_view requirement() const override { return kHloDataRequirement; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(BuildHloStats(model));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeHloStatsTool() { return std::make_unique<HloStatsTool>(); }

}  // namespace stepscope::analysis
