// Profile files -> the trace viewer's index (analysis/trace). Shared by `stepscope convert`
// and the server's trace store, so both read profiles and imported traces the same way.
#pragma once

#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "src/load/profile_loader.h"
#include "stepscope/status.h"

namespace stepscope::load {

// Reads `files` (one host, or several to show side by side) into one index. Errors name
// the file.
StatusOr<analysis::trace::TraceIndex> LoadTraceIndex(const std::vector<HostProfileFile>& files);

}  // namespace stepscope::load
