// JSON of the trace viewer's queries, as the HTTP API serves them (docs/trace_viewer.md).
// Tiles are columnar (one array per field per track) to keep 100 k primitives within a
// few megabytes and cheap to decode in the browser.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/analysis/trace/event_details.h"
#include "src/analysis/trace/tile_query.h"
#include "src/analysis/trace/trace_flows.h"
#include "src/analysis/trace/trace_index.h"
#include "src/analysis/trace/trace_search.h"

namespace stepscope::analysis::trace {

// Sections and tracks, in display order.
std::string TracksJson(const TraceIndex& index);
// One tile query's primitives. Per track: depth, start (ps), dur (ps), count (0 = an
// event drawn as itself, N >= 1 = a summary of N events), event (plane event id, the
// first of a summary), name (index into "names").
std::string TilesJson(const TraceIndex& index, const TileResult& result);
std::string EventDetailsJson(const TraceIndex& index, const EventDetails& details);
std::string FlowsJson(const std::vector<TraceFlow>& flows);
// `position`: the match stepped to (-1: none).
std::string SearchJson(const TraceIndex& index, const SearchResult& result, int64_t position);

}  // namespace stepscope::analysis::trace
