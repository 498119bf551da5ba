#include "src/xspace/validate.h"

#include <string>

namespace stepscope::xspace {

Status ValidateXSpace(const XSpace& space) {
  if (space.planes_size() == 0) {
    return DataLossError("holds no XSpace planes (empty, truncated or not an xplane.pb file)");
  }
  for (const XPlane& plane : space.planes()) {
    int64_t events = 0;
    int64_t unnamed = 0;
    for (const XLine& line : plane.lines()) {
      for (const XEvent& event : line.events()) {
        ++events;
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
