// What the columnar fuzzers compare: two readings of one input (one thread vs several,
// the message walk vs serialize-and-read) must give the same columns.
#pragma once

#include <cstring>

#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::fuzzing {

// True when two readings of one input gave the same columns (the checks a fuzzer can
// afford: sizes, every column's bytes, names and string pools).
template <typename T>
inline bool SameArray(const xspace::PodArray<T>& a, const xspace::PodArray<T>& b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
inline bool SameColumns(const xspace::ColumnarXSpace& a, const xspace::ColumnarXSpace& b) {
  if (a.time_origin_ns != b.time_origin_ns || a.planes.size() != b.planes.size() || a.errors != b.errors ||
      a.warnings != b.warnings || a.hostnames != b.hostnames) {
    return false;
  }
  for (size_t p = 0; p < a.planes.size(); ++p) {
    const xspace::ColumnarPlane& x = a.planes[p];
    const xspace::ColumnarPlane& y = b.planes[p];
    if (x.name != y.name || x.id != y.id || x.lines.size() != y.lines.size() || x.strings != y.strings ||
        x.event_metadata.size() != y.event_metadata.size() || x.stat_metadata.size() != y.stat_metadata.size() ||
        x.other_stats.size() != y.other_stats.size() || x.aggregated_events != y.aggregated_events ||
        x.long_durations_ps != y.long_durations_ps || x.wide_payloads != y.wide_payloads ||
        !SameArray(x.event_start_ps, y.event_start_ps) || !SameArray(x.event_duration, y.event_duration) ||
        !SameArray(x.event_metadata_index, y.event_metadata_index) ||
        !SameArray(x.event_stats_begin, y.event_stats_begin) || !SameArray(x.stat_key, y.stat_key) ||
        !SameArray(x.stat_payload, y.stat_payload)) {
      return false;
    }
    for (size_t m = 0; m < x.event_metadata.size(); ++m) {
      if (x.event_metadata[m].name != y.event_metadata[m].name) return false;
    }
    for (size_t m = 0; m < x.stat_metadata.size(); ++m) {
      if (x.stat_metadata[m].name != y.stat_metadata[m].name) return false;
    }
  }
  return true;
}

}  // namespace stepscope::fuzzing
