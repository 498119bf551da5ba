// The batch commands (analyze, convert, import) read their inputs once and exit: they run
// with base::PrepareHeapForBatchRun's memory policy, sized from the files they will read.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace stepscope::cli {

// About the peak bytes reading `paths` takes: a few times their size, gzip'ed ones counted
// at a typical trace's compression ratio. Unreadable paths count 0 (the read reports them).
size_t ExpectedPeakBytes(const std::vector<std::string>& paths);

// PrepareHeapForBatchRun(ExpectedPeakBytes(paths)). Call before the command starts threads.
void PrepareHeapForInputs(const std::vector<std::string>& paths);

}  // namespace stepscope::cli
