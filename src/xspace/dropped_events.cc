#include "src/xspace/dropped_events.h"

#include "src/xspace/schema.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::xspace {

std::optional<int64_t> DroppedEventCount(const XSpace& space) {
  std::optional<int64_t> dropped;
  for (const XPlane& raw_plane : space.planes()) {
    XPlaneVisitor plane(&raw_plane);
    plane.ForEachStat([&](const XStatVisitor& stat) {
      if (stat.type() != StatType::kDroppedTraces || !stat.IsNumeric()) return;
      int64_t total = 0;
      if (__builtin_add_overflow(dropped.value_or(0), stat.IntValue(), &total)) total = INT64_MAX;
      dropped = total;
    });
  }
  return dropped;
}

}  // namespace stepscope::xspace
