// Counter tracks of the trace viewer: memory in use over time and the `_counters_` line's
// series, collected once when the index is built, and sampled for a view like tiles are:
// at most one point per pixel, keeping each pixel's largest value so that peaks stay
// visible at every zoom.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

// Every counter series of the sources (CounterSeries in trace_index.h says which), with
// `shifts_ps` (columnar time + shift = trace time) applied, by host then name.
std::vector<CounterSeries> CollectCounterSeries(const std::vector<TraceSourceInput>& sources,
                                                const std::vector<int64_t>& shifts_ps);

struct CounterPoints {
  uint32_t series = 0;  // index into TraceIndex::counters()
  // The value in force at start_ps (the last sample before it), then per pixel bucket of
  // [start_ps, end_ps) holding samples: the bucket's first sample time and its largest value,
  // and the last value of the bucket when it differs (so the level after it is right).
  std::vector<int64_t> t_ps;
  std::vector<double> value;
};

// kInvalidArgument for an empty or inverted range or a width of 0 or above kMaxTileWidthPx.
StatusOr<std::vector<CounterPoints>> QueryCounters(const TraceIndex& index, int64_t start_ps, int64_t end_ps,
                                                   uint32_t width_px);

// {"counters": [{id, name, host, unit, min, max, t: [...], v: [...]}]}.
std::string CountersJson(const TraceIndex& index, const std::vector<CounterPoints>& points);

}  // namespace stepscope::analysis::trace
