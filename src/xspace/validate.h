// Sanity checks for XSpace read from outside: protobuf parsing accepts any bytes that
// happen to be well-formed wire data, including empty input and unrelated messages.
// These checks catch what parsing alone does not.
#pragma once

#include "src/xspace/read_rules.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

// Fails with kDataLoss when the space has no planes at all (an empty or foreign file
// parses as an empty XSpace) or when events refer to metadata ids the plane lacks in
// a way no writer produces (every event unnamed), or when an event's absolute time
// (line timestamp_ns * 1000 + offset_ps + duration_ps) does not fit in int64 ps.
Status ValidateXSpace(const XSpace& space);

}  // namespace stepscope::xspace
