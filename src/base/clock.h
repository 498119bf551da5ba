// Clocks used outside the recording hot path (which has its own, see src/collect).
#pragma once

#include <cstdint>
#include <string>

namespace stepscope::base {

// CLOCK_MONOTONIC in ns.
uint64_t MonotonicNowNs();
// CLOCK_REALTIME in ns since the UNIX epoch.
uint64_t WallNowNs();
// Local time as "YYYY_MM_DD_HH_MM_SS", the TensorBoard run-directory name.
std::string LocalTimestampString(uint64_t wall_ns);

}  // namespace stepscope::base
