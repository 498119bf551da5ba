// The numbers `stepscope info` shows for one XSpace: planes, lines, event counts, steps,
// dropped events and the run environment. Computed once per file from the streaming
// reader's columns (the one reader of profiles); info.cc only formats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/model/step_markers.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::cli {

struct LineSummary {
  int64_t id = 0;
  std::string name;
  int64_t events = 0;
  // First event start and last event end in ps on the profile's timeline (the file's own
  // times, see ColumnarXSpace::time_origin_ns); unset without timed events.
  std::optional<int64_t> begin_ps;
  std::optional<int64_t> end_ps;
};

// A plane-level stat with its value kept in its own type (for JSON) and as text.
struct StatSummary {
  std::string name;
  enum class Kind { kInt, kUint, kDouble, kString, kBytes } kind = Kind::kString;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string text;  // any kind as text; "<N bytes>" for bytes
};

struct PlaneSummary {
  int64_t id = 0;
  std::string name;
  int64_t events = 0;
  int64_t event_metadata = 0;
  int64_t stat_metadata = 0;
  std::vector<LineSummary> lines;
  std::vector<StatSummary> stats;
};

struct StepSeriesSummary {
  analysis::StepMarkerKind kind;
  std::string plane_name;
  std::string name;
  int64_t root_level = 0;
  analysis::StepTimeStats stats;
};

struct XSpaceSummary {
  std::vector<std::string> hostnames;
  std::vector<PlaneSummary> planes;
  int64_t lines = 0;
  int64_t events = 0;
  // Sum of the `dropped_traces` plane stats; unset when no plane records one.
  std::optional<int64_t> dropped_events;
  std::vector<std::string> warnings;
  std::vector<std::string> errors;
  // Series as analysis::GroupStepMarkers orders them; the first is the headline.
  std::vector<StepSeriesSummary> step_series;
};

XSpaceSummary SummarizeXSpace(const xspace::ColumnarXSpace& space);

}  // namespace stepscope::cli
