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
#include "src/analysis/tools/hlo_stats.h"

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

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

constexpr auto DescribeRecord(std::type_identity<RooflinePoint>) {
  using R = RooflinePoint;
  // Cost figures: null for a point without FLOPs and bytes; the roof also needs the
  // device's peaks and an intensity above 0 (the point is not placed otherwise).
  auto cost = [](const R& r, double value) { return output::OptionalIf(r.has_cost, value); };
  auto placed = [](const R& r, double value) {
    return output::OptionalIf(r.has_cost && r.attainable_gflop_rate > 0, value);
  };
  return output::Record(
      "RooflinePoint",
      output::Field("level", &R::level, {.label = "Level", .description = "`total`, `program` or `op`"}),
      output::Field("program", &R::program, {.label = "Program", .max_width = 28}),
      output::Field("name", &R::name,
                    {.label = "Name", .description = "the op; the program's name for programs; `all programs`",
                     .max_width = 36}),
      output::Field("category", &R::category, {.label = "Category", .description = "ops only, as in hlo_stats"}),
      output::Field("occurrences", &R::occurrences, {.label = "Occurrences", .unit = "count"}),
      output::Field("time_us", &R::time_us, {.label = "Time (µs)", .unit = "us", .decimals = 1}),
      output::Field("time_percent", &R::time_percent,
                    {.label = "Time %", .unit = "%", .description = "of all HLO op time", .decimals = 1}),
      output::Computed<R>("gflops", [cost](const R& r) { return cost(r, r.gflops); },
                          {.label = "GFLOP", .unit = "GFLOP", .description = "over all occurrences", .decimals = 3}),
      output::Computed<R>("arithmetic_intensity", [cost](const R& r) { return cost(r, r.arithmetic_intensity); },
                          {.label = "Intensity (FLOP/B)", .unit = "FLOP/B", .decimals = 3}),
      output::Computed<R>("gflop_rate", [cost](const R& r) { return cost(r, r.gflop_rate); },
                          {.label = "Achieved (GFLOP/s)", .unit = "GFLOP/s", .decimals = 1}),
      output::Computed<R>("bandwidth_gbps", [cost](const R& r) { return cost(r, r.bandwidth_gbps); },
                          {.label = "Bandwidth (GB/s)", .unit = "GB/s", .decimals = 1}),
      output::Computed<R>("attainable_gflop_rate", [placed](const R& r) { return placed(r, r.attainable_gflop_rate); },
                          {.label = "Roof (GFLOP/s)", .unit = "GFLOP/s",
                           .description = "the roof at this intensity: min(peak compute, intensity x bandwidth)",
                           .decimals = 1}),
      output::Computed<R>("roof_percent", [placed](const R& r) { return placed(r, r.roof_percent); },
                          {.label = "Of roof %", .unit = "%", .description = "achieved / attainable", .decimals = 1}),
      output::Field("bound_by", &R::bound_by,
                    {.label = "Bound by", .description = "ops and programs: `compute`, `memory`, `latency`, `unknown`"}));
}

constexpr auto DescribeRecord(std::type_identity<RooflineResult>) {
  using R = RooflineResult;
  return output::Record(
      "RooflineResult", output::Constant("tool", "roofline_model"),
      output::Field("step", &R::step, {.description = "the step the model is of; null: the whole profile"}),
      output::Field("summary", &R::summary, {.description = "as hlo_stats' `summary`"}),
      output::TableField("roofline", &R::points, "Roofline: ops, programs and the total against the device roofs",
                         {.description = "the total, then programs and ops by time"}),
      output::Field("diagnostics", &R::diagnostics, {.description = "why numbers are missing or partial"}));
}

std::string FormatResultText(const RooflineResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeRooflineModelTool();

}  // namespace stepscope::analysis
