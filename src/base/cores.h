// How many CPU cores this process may run on: its affinity mask (taskset, a container's
// cpuset), not the machine's count that std::thread::hardware_concurrency() gives. Thread
// pools size themselves by it, so a process pinned to two of sixteen cores starts two
// workers, not sixteen that take turns.
#pragma once

namespace stepscope::base {

// At least 1.
int UsableCores();

}  // namespace stepscope::base
