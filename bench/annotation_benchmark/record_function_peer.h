// The libtorch peer for the annotation benchmark, kept in its own translation unit so
// only this file pays for libtorch's headers.
#pragma once

#include <cstdint>

namespace stepscope::bench {

// Installs a global RecordFunction observer whose callbacks only count calls (no
// timestamps, no allocation): the cheapest observer any libtorch-based profiler can
// have, so the peer figure is a lower bound.
void AddCountingObserver();
void RemoveCountingObserver();
// Calls observed by the start callback on this thread since the process started.
uint64_t ObservedCallsOnThisThread();

// Runs `scopes` RECORD_FUNCTION scopes back to back (8 per loop trip, like the
// stepscope loops).
void RunRecordFunctionScopes(int64_t scopes);

}  // namespace stepscope::bench
