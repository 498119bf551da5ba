// Benchmarks that write a large input and then time reading it sync the file first: the
// kernel's writeback of a fresh gigabyte otherwise runs during the timed read (on the
// other core of a small machine) and makes the figure swing between runs.
#pragma once

#include <cstdio>

namespace stepscope::bench {

// Flushes `file`'s buffer and waits until its data is on disk; false on an error.
bool SyncToDisk(FILE* file);

}  // namespace stepscope::bench
