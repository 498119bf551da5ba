// hlo_stats: one row per HLO instruction that ran on a device (XProf's HLO stats): how
// often, for how long, its category, the FLOP rate and memory bandwidth it achieved, what
// bounds it (compute / memory / latency) and where in the user's program it came from.
// Kernels are tied to instructions by their hlo_module / program_id / hlo_op stats
// (ProfileModel::hlo_ops); costs come from the HLO cost model (src/hlo/hlo_cost.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

struct HloStatsRow {
  int64_t rank = 0;
  HloOpMetrics op;
  double total_time_us = 0;
  double avg_time_us = 0;
  double time_percent = 0;             // of all HLO op time
  double cumulative_time_percent = 0;  // this row and those above it
};

struct HloStatsResult {
  HloOpSummary summary;
  std::vector<HloStatsRow> rows;  // by total time
  std::vector<std::string> diagnostics;
};

HloStatsResult ComputeHloStats(const ProfileModel& model);

// Units of the rate columns, shared by the HLO tools' tables.
inline constexpr double kFlopsPerGflop = 1e9;
inline constexpr double kBytesPerGb = 1e9;

// What the HLO tools say when the data is thin (no HLO, kernels without hlo_op, unknown
// peaks), one line each.
std::vector<std::string> HloDiagnostics(const ProfileModel& model, const HloOpSummary& summary);
// The summary object every HLO tool writes ("summary" in their JSON).
void WriteHloSummaryJson(const HloOpSummary& summary, output::JsonWriter* writer);

void WriteResultJson(const HloStatsResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const HloStatsResult& result);
std::string FormatResultText(const HloStatsResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeHloStatsTool();

}  // namespace stepscope::analysis
