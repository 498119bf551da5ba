// Which XSpace planes and lines become trace-viewer sections and tracks, in what order and
// under which names: the layout of TensorFlow Profiler's trace viewer.
//
//   - one section per device plane ("/device:GPU:0", TPU, custom devices), devices first,
//     ordered by kind and ordinal; its tracks are the derived lines in a fixed order
//     (Steps, XLA Modules, Framework/TensorFlow Ops, name scopes, XLA Ops, ...) followed
//     by one track per stream (by stream id) and any other line (by name);
//   - one "Host Threads" section for /host:CPU with a track per thread, by thread name
//     (TensorFlow sorts host lines by name);
//   - any other plane with events (e.g. an unmerged /host:CUPTI) as a section of its own.
// Planes without events (Task Environment, /host:metadata) and the counter line
// (`_counters_`, sampled values rather than spans) are not shown.
//
// Pure functions of names, so the ordering is testable without building any index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::analysis::trace {

// What a track shows; the UI colours and the flow search use it.
enum class TrackKind : uint8_t {
  kSteps,
  kXlaModules,
  kFrameworkOps,
  kNameScope,
  kXlaOps,
  kAsyncXlaOps,
  kLaunchStats,
  kSource,
  kStream,   // a GPU stream (kernels, copies)
  kThread,   // a host thread
  kOther,
};

// Stable lowercase id of a kind for JSON ("steps", "stream", ...).
std::string_view TrackKindName(TrackKind kind);

enum class SectionKind : uint8_t { kDevice, kHost, kOther };

// How a plane is shown. `sort_key` orders sections: devices by (kind, ordinal), then the
// host, then others by name.
// Host planes whose lines are OS threads (/host:CPU, and the unmerged /host:CUPTI, python
// tracer, TPU runtime, ROCm tracer of raw captures) all place in one "Host Threads"
// section, so one OS thread's lines sit together (by tid) instead of in several sections.
struct SectionPlacement {
  SectionKind kind = SectionKind::kOther;
  std::string name;       // "/device:GPU:0", "Host Threads", or the plane name
  std::string sort_key;
  // For host thread planes other than /host:CPU, what their lanes add to the thread's name
  // (" [CUPTI]"), so two lanes of one thread can be told apart. Empty otherwise.
  std::string lane_suffix;
};
SectionPlacement PlaceSection(std::string_view plane_name);

// False for lines the viewer leaves out (the counter line).
bool IsShownLine(std::string_view line_name, int64_t line_id);

// A line's kind on a plane of `section_kind`.
TrackKind ClassifyLine(SectionKind section_kind, std::string_view line_name);

// Orders tracks within a section: kind rank, then (streams) line id, then name; host
// threads by name, then thread id (so the lanes of one OS thread from several planes,
// given the same name, are adjacent).
struct TrackSortKey {
  int kind_rank = 0;
  int64_t line_id = 0;
  std::string name;
  bool operator<(const TrackSortKey& other) const;
};
TrackSortKey MakeTrackSortKey(TrackKind kind, int64_t line_id, std::string_view name);

}  // namespace stepscope::analysis::trace
