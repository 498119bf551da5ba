#include "src/xspace/validate.h"

#include <cstdint>
#include <string>

namespace stepscope::xspace {

namespace {

// The visitor computes absolute event times as line.timestamp_ns * 1000 + offset_ps (+
// duration_ps). Values that overflow int64 there would be undefined behaviour and
// meaningless times, so such files are rejected up front. Real files use ns relative to
// the profile start (TensorFlow normalizes them) and are far from the limit.
bool EventTimesFitInt64Ps(int64_t line_timestamp_ns, const XEvent& event) {
  int64_t line_ps = 0, begin_ps = 0, end_ps = 0;
  return !__builtin_mul_overflow(line_timestamp_ns, int64_t{1000}, &line_ps) &&
         !__builtin_add_overflow(line_ps, event.offset_ps(), &begin_ps) &&
         !__builtin_add_overflow(begin_ps, event.duration_ps(), &end_ps);
}

}  // namespace

Status ValidateXSpace(const XSpace& space) {
  if (space.planes_size() == 0) {
    return DataLossError(std::string(kNoPlanesMessage));
  }
  for (const XPlane& plane : space.planes()) {
    int64_t events = 0;
    int64_t unnamed = 0;
    for (const XLine& line : plane.lines()) {
      for (const XEvent& event : line.events()) {
        ++events;
        if (!EventTimesFitInt64Ps(line.timestamp_ns(), event)) {
          if (line.timestamp_ns() > INT64_MAX / 1000 || line.timestamp_ns() < INT64_MIN / 1000) {
            return DataLossError("plane '" + plane.name() + "' line '" + line.name() + "' has timestamp_ns=" +
                                 std::to_string(line.timestamp_ns()) +
                                 ", wall-clock time rather than time since the profile start (saved "
                                 "TensorFlow/JAX profiles are normalized); this reader needs normalized times");
          }
          return DataLossError("plane '" + plane.name() + "' line '" + line.name() +
                               "' has an event whose time does not fit in int64 picoseconds (timestamp_ns=" +
                               std::to_string(line.timestamp_ns()) + ", offset_ps=" +
                               std::to_string(event.offset_ps()) + ", duration_ps=" +
                               std::to_string(event.duration_ps()) + "; corrupt file?)");
        }
        if (plane.event_metadata().find(event.metadata_id()) == plane.event_metadata().end()) ++unnamed;
      }
    }
    if (events > 0 && unnamed == events) {
      return DataLossError("plane '" + plane.name() + "' has " + std::to_string(events) +
                           " events but none refers to known event metadata (corrupt file?)");
    }
  }
  return OkStatus();
}

}  // namespace stepscope::xspace
