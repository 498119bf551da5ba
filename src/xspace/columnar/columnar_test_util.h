// Test helper: two ColumnarXSpaces compared field by field, column by column.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::xspace {

template <typename T>
std::vector<T> ColumnValues(const PodArray<T>& column) {
  return std::vector<T>(column.begin(), column.end());
}

// Every field of the two spaces (indices, string pool order and placeholders included).
inline void ExpectSameColumns(const ColumnarXSpace& want, const ColumnarXSpace& got) {
  EXPECT_EQ(got.time_origin_ns, want.time_origin_ns);
  EXPECT_EQ(got.errors, want.errors);
  EXPECT_EQ(got.warnings, want.warnings);
  EXPECT_EQ(got.hostnames, want.hostnames);
  ASSERT_EQ(got.planes.size(), want.planes.size());
  for (size_t p = 0; p < want.planes.size(); ++p) {
    SCOPED_TRACE("plane " + std::to_string(p));
    const ColumnarPlane& w = want.planes[p];
    const ColumnarPlane& g = got.planes[p];
    EXPECT_EQ(g.id, w.id);
    EXPECT_EQ(g.name, w.name);
    ASSERT_EQ(g.lines.size(), w.lines.size());
    for (size_t l = 0; l < w.lines.size(); ++l) {
      const ColumnarLine& wl = w.lines[l];
      const ColumnarLine& gl = g.lines[l];
      EXPECT_EQ(std::tie(gl.id, gl.display_id, gl.name, gl.display_name, gl.timestamp_ns, gl.duration_ps,
                         gl.event_begin, gl.event_end),
                std::tie(wl.id, wl.display_id, wl.name, wl.display_name, wl.timestamp_ns, wl.duration_ps,
                         wl.event_begin, wl.event_end));
    }
    ASSERT_EQ(g.event_metadata.size(), w.event_metadata.size());
    for (size_t m = 0; m < w.event_metadata.size(); ++m) {
      const ColumnarEventMetadata& wm = w.event_metadata[m];
      const ColumnarEventMetadata& gm = g.event_metadata[m];
      EXPECT_EQ(std::tie(gm.id, gm.defined, gm.name, gm.display_name, gm.stats_begin, gm.stats_end),
                std::tie(wm.id, wm.defined, wm.name, wm.display_name, wm.stats_begin, wm.stats_end));
    }
    ASSERT_EQ(g.stat_metadata.size(), w.stat_metadata.size());
    for (size_t m = 0; m < w.stat_metadata.size(); ++m) {
      const ColumnarStatMetadata& wm = w.stat_metadata[m];
      const ColumnarStatMetadata& gm = g.stat_metadata[m];
      EXPECT_EQ(std::tie(gm.id, gm.name, gm.defined, gm.type), std::tie(wm.id, wm.name, wm.defined, wm.type));
    }
    EXPECT_EQ(std::tie(g.plane_stats_begin, g.plane_stats_end), std::tie(w.plane_stats_begin, w.plane_stats_end));
    EXPECT_EQ(ColumnValues(g.event_start_ps), ColumnValues(w.event_start_ps));
    EXPECT_EQ(ColumnValues(g.event_duration), ColumnValues(w.event_duration));
    EXPECT_EQ(ColumnValues(g.event_metadata_index), ColumnValues(w.event_metadata_index));
    EXPECT_EQ(ColumnValues(g.event_stats_begin), ColumnValues(w.event_stats_begin));
    EXPECT_EQ(g.long_durations_ps, w.long_durations_ps);
    EXPECT_EQ(ColumnValues(g.stat_key), ColumnValues(w.stat_key));
    EXPECT_EQ(ColumnValues(g.stat_payload), ColumnValues(w.stat_payload));
    EXPECT_EQ(g.wide_payloads, w.wide_payloads);
    ASSERT_EQ(g.other_stats.size(), w.other_stats.size());
    for (size_t s = 0; s < w.other_stats.size(); ++s) {
      EXPECT_EQ(std::tie(g.other_stats[s].metadata_index, g.other_stats[s].kind, g.other_stats[s].payload),
                std::tie(w.other_stats[s].metadata_index, w.other_stats[s].kind, w.other_stats[s].payload));
    }
    EXPECT_EQ(g.strings, w.strings);
    EXPECT_EQ(g.aggregated_events, w.aggregated_events);
    for (int t = 0; t < kNumStatTypes; ++t) {
      EXPECT_EQ(g.stat_index(static_cast<StatType>(t)), w.stat_index(static_cast<StatType>(t)));
    }
  }
}

}  // namespace stepscope::xspace
