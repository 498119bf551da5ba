#include "src/base/clock.h"

#include <time.h>

#include <cstdio>

namespace stepscope::base {

uint64_t MonotonicNowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t WallNowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

std::string LocalTimestampString(uint64_t wall_ns) {
  time_t seconds = static_cast<time_t>(wall_ns / 1000000000ull);
  tm local;
  localtime_r(&seconds, &local);
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%04d_%02d_%02d_%02d_%02d_%02d", local.tm_year + 1900,
                local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec);
  return buffer;
}

}  // namespace stepscope::base
