#include "src/analysis/trace/tile_query.h"

#include <algorithm>
#include <string>

namespace stepscope::analysis::trace {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int Log2Floor(uint64_t v) { return 63 - __builtin_clzll(v); }

// Appends the primitives of one row; false once `*budget` is exhausted (the caller
// retries coarser).
bool QueryRow(const RowView& row, uint32_t depth, int64_t start_ps, int64_t end_ps, int log2_resolution,
              std::vector<TilePrimitive>* out, uint64_t* budget, uint64_t* events) {
  const int64_t resolution = int64_t{1} << log2_resolution;
  // An event is drawn by itself iff duration >= R iff its class >= log2(R) + 1.
  const uint8_t wide_class = static_cast<uint8_t>(log2_resolution + 1);
  uint64_t i = row.FirstOverlapping(start_ps);
  const uint64_t n = row.size();
  while (i < n) {
    const int64_t s = row.start(i);
    if (s >= end_ps) break;
    if (*budget == 0) return false;
    --*budget;
    const int64_t d = row.duration(i);
    if (DurationClass(d) >= wide_class) {
      out->push_back(TilePrimitive{s, s + d, 1, row.event(i), depth, false});
      ++*events;
      ++i;
      continue;
    }
    // A run of narrow events starting in this bucket, up to the next wide one.
    const int64_t bucket_end = (FloorDiv(s, resolution) + 1) * resolution;
    uint64_t last = row.FirstStartingAtOrAfter(bucket_end, i + 1);
    last = row.NextWithClassAtLeast(i + 1, last, wide_class);
    // Events starting at or after end_ps are outside the range (a bucket can straddle it).
    if (bucket_end > end_ps) last = std::min(last, row.FirstStartingAtOrAfter(end_ps, i + 1));
    TilePrimitive summary;
    summary.start_ps = s;
    summary.end_ps = row.end(last - 1);  // ends ascend within a row
    summary.count = last - i;
    summary.event = row.event(i);
    summary.depth = depth;
    summary.summary = true;
    out->push_back(summary);
    *events += summary.count;
    i = last;
  }
  return true;
}

}  // namespace

int64_t TileResolutionPs(int64_t start_ps, int64_t end_ps, uint32_t width_px) {
  uint64_t span = static_cast<uint64_t>(end_ps - start_ps);
  uint64_t per_px = width_px == 0 ? span : span / width_px;
  if (per_px < 1) per_px = 1;
  return int64_t{1} << Log2Floor(per_px);
}

StatusOr<TileResult> QueryTiles(const TraceIndex& index, const TileRequest& request) {
  if (request.end_ps <= request.start_ps) {
    return InvalidArgumentError("the time range is empty: end_ps (" + std::to_string(request.end_ps) +
                                ") must be greater than start_ps (" + std::to_string(request.start_ps) + ")");
  }
  if (request.width_px == 0 || request.width_px > kMaxTileWidthPx) {
    return InvalidArgumentError("width_px must be between 1 and " + std::to_string(kMaxTileWidthPx) + ", not " +
                                std::to_string(request.width_px));
  }
  std::vector<uint32_t> tracks = request.tracks;
  if (tracks.empty()) {
    for (uint32_t t = 0; t < index.tracks().size(); ++t) tracks.push_back(t);
  }
  for (uint32_t t : tracks) {
    if (t >= index.tracks().size()) {
      return InvalidArgumentError("no track " + std::to_string(t) + " (the trace has " +
                                  std::to_string(index.tracks().size()) + " tracks)");
    }
  }
  const uint64_t max_primitives = std::max<uint64_t>(1, request.max_primitives);
  int log2_resolution = Log2Floor(static_cast<uint64_t>(TileResolutionPs(request.start_ps, request.end_ps,
                                                                         request.width_px)));
  TileResult result;
  result.start_ps = request.start_ps;
  result.end_ps = request.end_ps;
  result.width_px = request.width_px;
  uint64_t total_rows = 0;
  for (uint32_t t : tracks) total_rows += index.tracks()[t].num_rows();
  while (true) {
    result.tracks.clear();
    result.num_events = 0;
    uint64_t budget = max_primitives;
    uint64_t rows_done = 0;
    bool fits = true;
    for (uint32_t t : tracks) {
      const TraceTrack& track = index.tracks()[t];
      TrackTile tile;
      tile.track = t;
      if (track.end_ps >= request.start_ps && track.start_ps < request.end_ps) {
        for (uint32_t r = track.row_begin; r < track.row_end && fits; ++r) {
          fits = QueryRow(index.row_view(r), r - track.row_begin, request.start_ps, request.end_ps, log2_resolution,
                          &tile.primitives, &budget, &result.num_events);
          rows_done += fits ? 1 : 0;
        }
      } else {
        rows_done += track.num_rows();
      }
      if (!fits) break;
      result.tracks.push_back(std::move(tile));
    }
    if (fits || log2_resolution >= 62) {
      result.num_primitives = max_primitives - budget;
      result.truncated = !fits;
      break;
    }
    // Too many primitives: doubling R at least halves a row's worst case. When the budget
    // ran out early, the whole request needs about total/done times the budget, so skip
    // the resolutions that cannot fit.
    int steps = 1;
    for (uint64_t need = (total_rows + 1) / (rows_done + 1); need > 1 && steps < 8; need /= 2) ++steps;
    log2_resolution = std::min(62, log2_resolution + steps);
    result.coarsened = true;
  }
  result.resolution_ps = int64_t{1} << log2_resolution;
  return result;
}

}  // namespace stepscope::analysis::trace
