// Step markers: the events that delimit training steps in an XSpace, found the way
// TensorFlow's profiler finds them (reference/xspace.md §3), before any grouping:
//
//  - host roots: any event carrying an `_r` stat; its value is the root level.
//    `tf.profiler.experimental.Trace('train', step_num=n, _r=1)`, JAX's
//    StepTraceAnnotation and stepscope::Step all record one of these.
//  - legacy roots: events named `TraceContext` (root level 1).
//  - device steps: events on a device plane's derived `Steps` line (one per step group,
//    written by TensorFlow's post-processing).
//
// As in TensorFlow's grouping, a root nested (by time, on one line) inside an earlier root
// of the same level is not a step of its own. This is a pure function of the XSpace; the
// full profile model (steps with their ops, device/host alignment) builds on top of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/xplane.h"

namespace stepscope::analysis {

enum class StepMarkerKind {
  kHostRoot,      // event with an `_r` stat
  kTraceContext,  // legacy `TraceContext` event
  kDeviceStep,    // event on a device plane's `Steps` line
};

// "host root", "TraceContext", "device Steps".
const char* StepMarkerKindName(StepMarkerKind kind);

struct StepMarker {
  StepMarkerKind kind = StepMarkerKind::kHostRoot;
  // TensorFlow's precedence: `iter_num`, then `step_num`, then `group_id`; for device steps
  // also the `step_name` stat or event name when numeric. nullopt when none is present.
  std::optional<int64_t> step_num;
  // Host: the event name ("train"). Device: the `step_name` stat, else the event name.
  std::string name;
  // The `_r` value; 1 for TraceContext; 0 for device steps.
  int64_t root_level = 0;
  // Absolute within the file (line timestamp + offset), in picoseconds.
  int64_t begin_ps = 0;
  int64_t end_ps = 0;
  int plane_index = 0;  // index in XSpace.planes
  int64_t plane_id = 0;
  std::string plane_name;
  int64_t line_id = 0;
  std::string line_name;

  int64_t duration_ps() const { return end_ps - begin_ps; }
};

// Every step marker in `space`, in plane order, then line order, then begin time.
// Aggregated events (num_occurrences instead of a time) are never markers. What counts as
// a marker (root levels, TraceContext, device Steps lines, step numbers) is the profile
// model's definition (step_marker_rules.h); this lists the raw markers before grouping.
// The XSpace overload goes through the columnar reader, as the model does; an XSpace
// that cannot be serialized (over 2 GiB) yields no markers.
std::vector<StepMarker> FindStepMarkers(const xspace::ColumnarXSpace& space);
std::vector<StepMarker> FindStepMarkers(const xspace::XSpace& space);

// Markers that belong together: same plane, same kind and, for host roots, the same
// event name and root level (a program marking "train" and "eval" has two series).
struct StepSeries {
  StepMarkerKind kind = StepMarkerKind::kHostRoot;
  std::string plane_name;
  std::string name;       // host: event name; device: the line name ("Steps")
  int64_t root_level = 0;
  std::vector<StepMarker> markers;  // by begin time
};

// Groups markers into series. Order: host roots (higher root level first), then
// TraceContext, then device steps; ties by plane order, then more markers first. The first
// series is the one a one-line summary should report.
std::vector<StepSeries> GroupStepMarkers(const std::vector<StepMarker>& markers);

struct StepTimeStats {
  int64_t count = 0;
  double mean_ps = 0;
  int64_t min_ps = 0;
  int64_t max_ps = 0;
};

// Count and mean/min/max duration of `markers` (all zero when empty).
StepTimeStats ComputeStepTimeStats(const std::vector<StepMarker>& markers);

}  // namespace stepscope::analysis
