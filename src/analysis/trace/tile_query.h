// Level-of-detail queries: what to draw for a time range at a pixel width.
//
// The resolution R is the largest power of two (in ps) not above (end - start) / width,
// so buckets [k*R, (k+1)*R) form a grid fixed in trace time: panning at one zoom level
// returns the same primitives for the part both windows share, and a UI may cache them.
// Per row (track depth), in time order:
//   - an event at least R long is returned as itself;
//   - consecutive shorter events starting in the same bucket merge into one summary that
//     keeps their count and span (first start .. last end).
// Every event that overlaps the range is in exactly one primitive: nothing is hidden (a
// lone 1 ps event is a summary of 1) and nothing invented (counts add up to the events
// in the range). A row yields at most about two primitives per bucket, so a response
// holds O(width x rows) primitives whatever the number of events; past
// `max_primitives` the query doubles R until it fits (coarser, never lossy).
#pragma once

#include <cstdint>
#include <vector>

#include "src/analysis/trace/trace_index.h"
#include "stepscope/status.h"

namespace stepscope::analysis::trace {

// A response budget that keeps the JSON within a few MB and the UI's draw under a frame
// budget: 100 k rectangles is what a canvas redraws in ~10 ms.
inline constexpr uint64_t kDefaultMaxPrimitives = 100'000;
// Widest canvas accepted (an 8K screen at 2x device pixels).
inline constexpr uint32_t kMaxTileWidthPx = 16384;

struct TileRequest {
  int64_t start_ps = 0;  // trace time; end_ps > start_ps
  int64_t end_ps = 0;
  uint32_t width_px = 1000;
  std::vector<uint32_t> tracks;  // empty: every track
  uint64_t max_primitives = kDefaultMaxPrimitives;
};

struct TilePrimitive {
  int64_t start_ps = 0;  // event start, or the summary's first start (trace time)
  int64_t end_ps = 0;    // event end, or the summary's last end
  uint64_t count = 1;    // events represented
  uint32_t event = 0;    // the event (plane event index), or a summary's first event
  uint32_t depth = 0;
  bool summary = false;  // merged sub-resolution events (drawn hatched by the UI)
};

struct TrackTile {
  uint32_t track = 0;
  std::vector<TilePrimitive> primitives;  // by depth, then time
};

struct TileResult {
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  uint32_t width_px = 0;
  int64_t resolution_ps = 1;  // bucket size actually used (a power of two)
  bool coarsened = false;     // resolution was raised to respect max_primitives
  bool truncated = false;     // even the coarsest resolution did not fit (more rows than the budget)
  uint64_t num_primitives = 0;
  uint64_t num_events = 0;  // events represented (sum of counts)
  std::vector<TrackTile> tracks;  // in request order
};

// The power of two R used for a range and width (>= 1).
int64_t TileResolutionPs(int64_t start_ps, int64_t end_ps, uint32_t width_px);

// kInvalidArgument for an empty or inverted range, a width of 0 or above
// kMaxTileWidthPx, or an unknown track id.
StatusOr<TileResult> QueryTiles(const TraceIndex& index, const TileRequest& request);

}  // namespace stepscope::analysis::trace
