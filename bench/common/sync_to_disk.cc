#include "bench/common/sync_to_disk.h"

#include <unistd.h>

namespace stepscope::bench {

bool SyncToDisk(FILE* file) { return std::fflush(file) == 0 && ::fsync(fileno(file)) == 0; }

}  // namespace stepscope::bench
