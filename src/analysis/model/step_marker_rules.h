// What makes an event a step marker: the one definition both the profile model's step
// grouping (host_analysis, device_analysis) and FindStepMarkers (step_markers.h, used by
// `stepscope info`) apply. Rules from TF's grouping (reference/xspace.md §3).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "src/analysis/model/event_stats.h"

namespace stepscope::analysis {

// Root level of a host event: its `_r` value (a root with `_r` <= 0 counts as level 1),
// 1 for a legacy TraceContext event, 0 when it is not a root.
inline int64_t RootLevel(const EventStats& stats, bool is_trace_context) {
  if (stats.has_root) return stats.root_level > 0 ? stats.root_level : 1;
  return is_trace_context ? 1 : 0;
}

// A host step's number, TF's precedence: iter_num, then step_num (group_id is the
// caller's last resort).
inline std::optional<int64_t> HostStepNumber(const EventStats& stats) {
  if (stats.has_iter_num) return stats.iter_num;
  if (stats.has_step_num) return stats.step_num;
  return std::nullopt;
}

// The derived `Steps` line of a device plane holds one event per step (files TF grouped).
bool IsDeviceStepLine(std::string_view plane_name, std::string_view line_name);

// The number of a device `Steps` event: the trailing integer of its step_name (or event
// name: "0", "train 41"), else its group_id.
std::optional<int64_t> DeviceStepNumber(std::string_view step_name, const EventStats& stats);

}  // namespace stepscope::analysis
