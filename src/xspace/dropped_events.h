// How many events a profile's collectors lost (e.g. to full per-thread buffers), read from
// the `dropped_traces` stat each collector puts on its plane (schema.h, kDroppedTraces).
// One place for the rule, used by `stepscope info` and `stepscope capture`.
#pragma once

#include <cstdint>
#include <optional>

#include "src/xspace/xplane.h"

namespace stepscope::xspace {

// The sum over every plane's numeric `dropped_traces` stat, saturating at INT64_MAX (a
// corrupt file must not overflow it); nullopt when no plane records one (the collector
// does not count drops, e.g. host tracing was off).
std::optional<int64_t> DroppedEventCount(const XSpace& space);

}  // namespace stepscope::xspace
