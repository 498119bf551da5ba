#include "src/analysis/tools/hlo_stats.h"

#include <utility>

#include "src/analysis/model/derivations.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/analysis/tools/tool_util.h"
#include "src/hlo/hlo_programs.h"

namespace stepscope::analysis {
namespace {

using output::ColumnType;
using output::Table;

output::Column Col(std::string id, std::string label, ColumnType type, std::string unit, int decimals = 2,
                   int width = 0) {
  output::Column c{std::move(id), std::move(label), type, decimals, width};
  c.unit = std::move(unit);
  return c;
}

Table HloOpTable(const HloStatsResult& r) {
  Table t;
  t.name = "hlo_ops";
  t.title = "HLO ops by total device time";
  t.columns = {Col("rank", "Rank", ColumnType::kInt, ""),
               Col("program", "Program", ColumnType::kString, "", 2, 30),
               Col("op_name", "HLO op", ColumnType::kString, "", 2, 36),
               Col("opcode", "Opcode", ColumnType::kString, ""),
               Col("category", "Category", ColumnType::kString, ""),
               Col("occurrences", "Occurrences", ColumnType::kInt, "count"),
               Col("kernels", "Kernels", ColumnType::kInt, "count"),
               Col("total_time_us", "Total time (us)", ColumnType::kDouble, "us", 1),
               Col("avg_time_us", "Avg time (us)", ColumnType::kDouble, "us", 2),
               Col("total_self_time_us", "Self time (us)", ColumnType::kDouble, "us", 1),
               Col("time_percent", "Time %", ColumnType::kDouble, "%", 1),
               Col("cumulative_time_percent", "Cumulative %", ColumnType::kDouble, "%", 1),
               Col("gflops", "GFLOP per occurrence", ColumnType::kDouble, "GFLOP", 4),
               Col("gflop_rate", "FLOP rate (GFLOP/s)", ColumnType::kDouble, "GFLOP/s", 1),
               Col("memory_bw_gbps", "Memory BW (GB/s)", ColumnType::kDouble, "GB/s", 1),
               Col("arithmetic_intensity", "Intensity (FLOP/B)", ColumnType::kDouble, "FLOP/B", 2),
               Col("flops_utilization_percent", "FLOP util %", ColumnType::kDouble, "%", 1),
               Col("bandwidth_utilization_percent", "BW util %", ColumnType::kDouble, "%", 1),
               Col("bound_by", "Bound by", ColumnType::kString, ""),
               Col("framework_op", "Framework op", ColumnType::kString, "", 2, 40),
               Col("source", "Source", ColumnType::kString, "", 2, 30),
               Col("expression", "HLO expression", ColumnType::kString, "", 2, 50)};
  for (const HloStatsRow& row : r.rows) {
    const HloOpMetrics& op = row.op;
    auto cost = [&](double v) { return op.has_cost ? output::Cell(v) : output::Cell(); };
    t.AddRow({row.rank, op.program, op.op_name, op.opcode, op.category, op.occurrences, op.kernel_count,
              row.total_time_us, row.avg_time_us, row.total_time_us, row.time_percent, row.cumulative_time_percent,
              cost(op.flops / kFlopsPerGflop), cost(op.flop_rate_per_s / kFlopsPerGflop),
              cost(op.bandwidth_bytes_per_s / kBytesPerGb), cost(op.arithmetic_intensity),
              cost(op.flops_utilization_percent), cost(op.bandwidth_utilization_percent),
              std::string(BoundByName(op.bound_by)), op.framework_op, op.source, op.expression});
  }
  return t;
}

}  // namespace

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

void WriteHloSummaryJson(const HloOpSummary& s, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("programs", s.modules);
  w->Field("hlo_instructions", s.instructions);
  w->Field("kernels", s.join.kernels);
  w->Field("kernels_with_hlo_op", s.join.kernels_with_hlo_op);
  w->Field("kernels_joined", s.join.kernels_joined);
  w->Field("join_rate_percent", 100.0 * s.join.join_rate());
  w->Field("total_time_ms", PsToMs(s.total_time_ps));
  w->Field("unknown_flops_time_percent",
           Percent(static_cast<double>(s.unknown_flops_time_ps), static_cast<double>(s.total_time_ps)));
  w->Field("total_gflops", s.total_flops / kFlopsPerGflop);
  w->Field("total_gb", s.total_bytes / kBytesPerGb);
  w->Key("flops_utilization_percent");
  s.peaks.known() ? w->Double(s.flops_utilization_percent) : w->Null();
  w->Key("bandwidth_utilization_percent");
  s.peaks.known() ? w->Double(s.bandwidth_utilization_percent) : w->Null();
  w->Key("device");
  w->BeginObject();
  w->Key("peak_tflops");
  s.peaks.peak_flops_per_s > 0 ? w->Double(s.peaks.peak_flops_per_s / 1e12) : w->Null();
  w->Key("peak_bandwidth_gbps");
  s.peaks.memory_bandwidth_bytes_per_s > 0 ? w->Double(s.peaks.memory_bandwidth_bytes_per_s / kBytesPerGb) : w->Null();
  w->Key("ridge_flops_per_byte");
  s.peaks.known() ? w->Double(s.peaks.ridge_flops_per_byte()) : w->Null();
  w->Field("flops_source", s.peaks.flops_source);
  w->Field("bandwidth_source", s.peaks.bandwidth_source);
  w->EndObject();
  w->EndObject();
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

std::vector<Table> BuildTables(const HloStatsResult& r) { return {HloOpTable(r)}; }

void WriteResultJson(const HloStatsResult& r, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "hlo_stats");
  w->Key("summary");
  WriteHloSummaryJson(r.summary, w);
  output::WriteTablesJson(BuildTables(r), w);
  output::EndResultJson(r.diagnostics, w);
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
  return out + output::FormatResultTextEnd(BuildTables(r), r.diagnostics, options.text_max_rows);
}

namespace {

class HloStatsTool final : public Tool {
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
