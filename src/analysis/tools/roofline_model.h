// roofline_model: every HLO op placed by arithmetic intensity (FLOP per byte accessed)
// against the device's two roofs - peak FLOP/s and peak memory bandwidth x intensity - as
// XProf's roofline tool does, with one point per program and one for everything. The model
// given decides the scope: the whole profile, or one step (the step selector, `--step N`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/hlo_op_metrics.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

struct RooflinePoint {
  std::string level;  // "total", "program" or "op"
  std::string program;
  std::string name;  // op name; the program's name for programs; "all programs"
  std::string category;
  int64_t occurrences = 0;
  double time_us = 0;
  double time_percent = 0;
  double gflops = 0;                // over all occurrences
  double arithmetic_intensity = 0;  // FLOP/B; 0 for ops without FLOPs (not plotted)
  double gflop_rate = 0;            // achieved GFLOP/s
  double bandwidth_gbps = 0;        // achieved GB/s
  double attainable_gflop_rate = 0;  // the roof at this intensity
  double roof_percent = 0;          // achieved / attainable
  std::string bound_by;
  bool has_cost = false;
};

struct RooflineResult {
  HloOpSummary summary;
  // The step the model is of (ProfileModel::step_group's step number); empty: whole profile.
  std::optional<int64_t> step;
  std::vector<RooflinePoint> points;  // total, programs, then ops by time
  std::vector<std::string> diagnostics;
};

RooflineResult ComputeRoofline(const ProfileModel& model);

void WriteResultJson(const RooflineResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const RooflineResult& result);
std::string FormatResultText(const RooflineResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeRooflineModelTool();

}  // namespace stepscope::analysis
