#include "src/collect/run_environment.h"

#include <unistd.h>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::collect {

RunEnvironment CurrentRunEnvironment() {
  RunEnvironment environment;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0 && host[0] != '\0') {
    environment.host_name = host;
  } else {
    environment.host_name = "localhost";
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  environment.logical_cores = cores > 0 ? cores : 0;
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    environment.host_memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  }
  environment.process_id = getpid();
  return environment;
}

void AddRunEnvironment(const RunEnvironment& environment, uint64_t profile_start_wall_ns,
                       xspace::XPlane* host_plane, xspace::XSpace* space) {
  xspace::XPlaneBuilder plane(host_plane);
  plane.AddStatValue(xspace::StatType::kHostName, std::string_view(environment.host_name));
  plane.AddStatValue(xspace::StatType::kLogicalCores, environment.logical_cores);
  plane.AddStatValue(xspace::StatType::kHostMemoryBytes, environment.host_memory_bytes);
  plane.AddStatValue(xspace::StatType::kProcessId, environment.process_id);
  plane.AddStatValue(xspace::StatType::kProfileStartTime, profile_start_wall_ns);
  bool listed = false;
  for (const std::string& host : space->hostnames()) listed = listed || host == environment.host_name;
  if (!listed) space->add_hostnames(environment.host_name);
}

}  // namespace stepscope::collect
