// diff: did my change help? Two analysed profiles side by side — run A (before) and run B
// (after): step time, each step-time category, the input share and verdict, and the ops
// and kernels whose time changed most, matched by name, with the ones only one run has.
//
// A pure function of two ProfileModels (`stepscope diff`, GET /api/compare and the UI's
// Compare page all call CompareProfiles), built from what the single-run tools compute:
// SummarizeSteps for steps, categories and the verdict, the models' op tables and kernel
// reports for ops and kernels. Nothing here reads files or knows where a model came from.
//
// The tables are declared once (DiffTableColumns): column ids, labels and units reach the
// JSON keys, CSV headers, /api/compare/tables and the UI from that one declaration, and
// docs/tools.md is checked against it by diff_test.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/output/table.h"
#include "src/analysis/tool.h"
#include "src/analysis/tools/device_models.h"
#include "src/analysis/tools/input_pipeline.h"

namespace stepscope::analysis {

// Text output and the UI show this many changed ops and kernels by default; JSON and CSV
// carry every matched name.
inline constexpr size_t kDiffTopChanges = 10;

// Op and kernel times are compared per step when both runs have steps: two captures of
// different length (40 steps before, 60 after) would otherwise differ by their length.
enum class DiffTimeBasis { kPerStep, kTotal };
std::string_view DiffTimeBasisName(DiffTimeBasis basis);  // "per_step", "total"

// How a name matched: in both runs, only in B (added) or only in A (removed).
enum class DiffChange { kMatched, kAdded, kRemoved };
std::string_view DiffChangeName(DiffChange change);  // "matched", "added", "removed"

// One profile as the comparison names it.
struct DiffSide {
  std::string label;  // what the user pointed at: run name, or file path
  std::vector<std::string> hosts;
  std::string framework;  // FrameworkKey
  int64_t steps = 0;
  std::string device_type;  // RunEnvironment::device_type
  std::vector<DeviceModelCount> devices;  // the device planes by model (CountDeviceModels)
};

// A number of both runs. `delta` = b - a; `delta_percent` = 100 * delta / a, absent when
// a is 0 or the metric is itself a percentage (its delta is in points then).
struct DiffMetric {
  std::string key;    // "step_time_mean_ms"
  std::string label;  // "Mean step time"
  std::string unit;   // "ms", "%", "count"
  std::optional<double> a;  // absent: does not apply to that run (no steps, no device)
  std::optional<double> b;
  std::optional<double> delta;
  std::optional<double> delta_percent;
};

// One step-time category: average ms per step and share of the step, in both runs.
struct DiffCategory {
  std::string category;  // TimeCategoryKey
  std::string label;     // TimeCategoryLabel
  double a_ms = 0;
  double b_ms = 0;
  double delta_ms = 0;
  std::optional<double> delta_percent;  // of a_ms; absent when a_ms is 0
  double a_percent = 0;  // share of A's step time
  double b_percent = 0;
};

// One run's input verdict (SummarizeSteps).
struct DiffInputVerdict {
  std::string side;   // "a" or "b"
  std::string label;  // DiffSide::label
  std::optional<double> input_bound_percent;  // absent without steps
  double input_ms = 0;  // mean per-step input time
  std::string verdict;         // InputBoundVerdictName
  std::string classification;  // "host", "both", "device", "unknown"
  std::string statement;
};

// An op (by side and name) or a kernel (by name) in either run.
struct DiffItem {
  std::string name;
  std::string kind;  // ops: "host" or "device"; kernels: "kernel"
  std::string type;  // ops: the op type (A's when both have it); kernels: empty
  DiffChange change = DiffChange::kMatched;
  double a_ms = 0;  // self time (ops) or total kernel time (kernels), on the time basis
  double b_ms = 0;
  double delta_ms = 0;
  std::optional<double> delta_percent;  // of a_ms; absent when a_ms is 0 (added)
  int64_t a_count = 0;  // occurrences / launches over the whole profile
  int64_t b_count = 0;
};

struct ProfileDiff {
  DiffSide a;
  DiffSide b;
  DiffTimeBasis time_basis = DiffTimeBasis::kTotal;
  std::vector<DiffMetric> summary;
  std::vector<DiffCategory> breakdown;  // categories that apply to either run
  std::vector<DiffInputVerdict> input_verdicts;  // a, then b
  // Every matched, added and removed name, by |delta_ms| descending, then name.
  std::vector<DiffItem> ops;
  std::vector<DiffItem> kernels;
  // One sentence with the headline numbers ("Mean step time 12.10 ms -> 6.05 ms (-50.0 %); ...").
  std::string statement;
  // "8× NVIDIA A100-SXM4-40GB → 2× Tesla V100-SXM2-16GB" when the runs' devices differ
  // (model, count or type); empty when they ran on the same devices.
  std::string device_change;
  std::vector<std::string> diagnostics;  // why a comparison may mislead (no steps, other framework, ...)
};

struct DiffOptions {
  std::string label_a = "A";
  std::string label_b = "B";
};

// Compares `a` (before) with `b` (after).
ProfileDiff CompareProfiles(const ProfileModel& a, const ProfileModel& b, const DiffOptions& options = {});

// The columns of each diff table, by table name ("summary", "step_time_breakdown",
// "input_verdicts", "ops", "kernels"): the one declaration of ids, labels and units.
std::vector<output::Table> DiffTableColumns(DiffTimeBasis basis);

// The tool-result presentation (tool.h): JSON object, tables, text.
void WriteResultJson(const ProfileDiff& diff, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const ProfileDiff& diff);
std::string FormatResultText(const ProfileDiff& diff, const ToolOptions& options);

// The changed (matched), added and removed items of `items`, at most `limit` of each, in
// the order of `items` (largest change first).
std::vector<DiffItem> TopItems(const std::vector<DiffItem>& items, DiffChange change, size_t limit);

}  // namespace stepscope::analysis
