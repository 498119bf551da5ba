// Test helpers: small XSpaces built with the XSpace builder, indexed through the same
// path real files take (serialize -> streaming columnar reader -> TraceIndex).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::analysis::trace::testing {

// Adds an event of `duration_ps` at `start_ps` (line timestamp 0) to `line`.
inline xspace::XEventBuilder AddEventPs(xspace::XPlaneBuilder& plane, xspace::XLineBuilder& line,
                                        std::string_view name, int64_t start_ps, int64_t duration_ps) {
  xspace::XEventBuilder event = line.AddEvent(*plane.GetOrCreateEventMetadata(name));
  event.SetOffsetPs(start_ps);
  event.SetDurationPs(duration_ps);
  return event;
}

inline TraceIndex IndexOf(const xspace::XSpace& space, std::string host = "host0") {
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::ConvertXSpaceToColumnar(space);
  EXPECT_TRUE(columnar.ok()) << columnar.status().ToString();
  std::vector<TraceSourceInput> sources;
  sources.push_back(TraceSourceInput{
      std::move(host), std::make_shared<const xspace::ColumnarXSpace>(std::move(columnar).value())});
  StatusOr<TraceIndex> index = TraceIndex::Build(std::move(sources));
  EXPECT_TRUE(index.ok()) << index.status().ToString();
  return std::move(index).value();
}

// The id of the track named `name` (first match), or UINT32_MAX.
inline uint32_t TrackNamed(const TraceIndex& index, std::string_view name) {
  for (uint32_t t = 0; t < index.tracks().size(); ++t) {
    if (index.tracks()[t].name == name) return t;
  }
  return UINT32_MAX;
}

}  // namespace stepscope::analysis::trace::testing
