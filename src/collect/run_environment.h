// Facts about the machine and process a profile was recorded on (capability 9): host
// name, logical cores, host memory, process id. Written as stats of the `/host:CPU`
// plane, plus XSpace.hostnames.
#pragma once

#include <cstdint>
#include <string>

#include "src/xspace/xplane.h"

namespace stepscope::collect {

struct RunEnvironment {
  std::string host_name;       // gethostname(); "localhost" if unavailable
  int64_t logical_cores = 0;   // online logical CPUs
  uint64_t host_memory_bytes = 0;  // physical memory
  int64_t process_id = 0;
};

RunEnvironment CurrentRunEnvironment();

// Adds host_name, logical_cores, host_memory_bytes, process_id and profile_start_time
// (wall ns) to `host_plane`, and the host name to `space`'s hostnames.
void AddRunEnvironment(const RunEnvironment& environment, uint64_t profile_start_wall_ns,
                       xspace::XPlane* host_plane, xspace::XSpace* space);

}  // namespace stepscope::collect
