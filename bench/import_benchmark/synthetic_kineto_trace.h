// A synthetic PyTorch profiler (Kineto) trace of any size, for the import benchmark: the
// category mix, args and formatting of a real CUDA training trace (ns-fraction float
// timestamps, ops nesting launches, ac2g flows to kernels with launch parameters,
// memcpys, memory instants, python frames, ProfilerStep markers), written to a file.
#pragma once

#include <cstdint>
#include <string>

#include "stepscope/status.h"

namespace stepscope::bench {

struct SyntheticTraceInfo {
  uint64_t bytes = 0;
  uint64_t events = 0;  // elements of traceEvents
  int steps = 0;
};

// Writes about `target_bytes` of trace JSON to `path` (uncompressed).
StatusOr<SyntheticTraceInfo> WriteSyntheticKinetoTrace(const std::string& path, uint64_t target_bytes);

// Writes `from` gzipped (one member, zlib level 6, gzip's default) to `to`, streaming.
Status GzipFile(const std::string& from, const std::string& to);

}  // namespace stepscope::bench
