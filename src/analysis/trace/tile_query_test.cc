#include "src/analysis/trace/tile_query.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "src/analysis/trace/trace_test_util.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;
using testing::TrackNamed;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;
using xspace::XSpace;

uint64_t CountedEvents(const TrackTile& tile) {
  uint64_t n = 0;
  for (const TilePrimitive& p : tile.primitives) n += p.count;
  return n;
}

// Events of `track` overlapping [start, end) by brute force over its rows (instants at
// `start` count, as the query's contract says).
uint64_t OverlappingEvents(const TraceIndex& index, uint32_t track, int64_t start, int64_t end) {
  uint64_t n = 0;
  const TraceTrack& t = index.tracks()[track];
  for (uint32_t r = t.row_begin; r < t.row_end; ++r) {
    RowView row = index.row_view(r);
    for (uint64_t i = 0; i < row.size(); ++i) {
      int64_t s = row.start(i), e = row.end(i);
      bool overlaps = s < end && (e > start || (e == s && s >= start));
      n += overlaps ? 1 : 0;
    }
  }
  return n;
}

// A thread with dense tiny events, a few long ones and nesting, plus a quiet thread whose
// only event is 1 ps long in the middle of nothing.
XSpace DenseAndLoneSpace(uint64_t seed, int dense_events) {
  std::mt19937_64 rng(seed);
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder dense = host.GetOrCreateLine(1);
  dense.SetName("dense");
  int64_t t = 0;
  for (int i = 0; i < dense_events; ++i) {
    if (rng() % 1000 == 0) {
      // A long parent with a few children.
      int64_t len = 1'000'000 + static_cast<int64_t>(rng() % 1'000'000);
      AddEventPs(host, dense, "long", t, len);
      AddEventPs(host, dense, "child", t + 10, len / 3);
      AddEventPs(host, dense, "child", t + len / 2, len / 4);
      t += len + 5;
      continue;
    }
    int64_t d = static_cast<int64_t>(rng() % 200);  // 0..199 ps, instants included
    AddEventPs(host, dense, "tiny", t, d);
    t += d + static_cast<int64_t>(rng() % 300);
  }
  XLineBuilder quiet = host.GetOrCreateLine(2);
  quiet.SetName("quiet");
  AddEventPs(host, quiet, "lone", t / 2, 1);
  // A third thread far away so the trace is long.
  XLineBuilder far = host.GetOrCreateLine(3);
  far.SetName("far");
  AddEventPs(host, far, "start", 0, 10);
  AddEventPs(host, far, "end", 4 * t, 10);
  return space;
}

TEST(TileQueryTest, LoneOnePicosecondEventIsStillDrawnAsASummaryOfOne) {
  TraceIndex index = IndexOf(DenseAndLoneSpace(1, 20000));
  uint32_t quiet = TrackNamed(index, "quiet");
  TileRequest request;
  request.start_ps = 0;
  request.end_ps = index.end_ps() + 1;
  request.width_px = 800;  // one pixel is millions of ps
  request.tracks = {quiet};
  auto result = QueryTiles(index, request);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->tracks.size(), 1u);
  ASSERT_EQ(result->tracks[0].primitives.size(), 1u);
  const TilePrimitive& p = result->tracks[0].primitives[0];
  EXPECT_TRUE(p.summary);
  EXPECT_EQ(p.count, 1u);
  EXPECT_EQ(p.end_ps - p.start_ps, 1);
  EXPECT_EQ(index.EventName(quiet, p.event), "lone");
  EXPECT_GT(result->resolution_ps, 1000);
}

TEST(TileQueryTest, CountsAddUpToTheEventsInRangeAtEveryZoom) {
  TraceIndex index = IndexOf(DenseAndLoneSpace(2, 30000));
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 60; ++trial) {
    TileRequest request;
    if (trial == 0) {
      request.start_ps = 0;
      request.end_ps = index.end_ps() + 1;
    } else {
      int64_t span = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(index.end_ps()));
      request.start_ps = static_cast<int64_t>(rng() % static_cast<uint64_t>(index.end_ps()));
      request.end_ps = request.start_ps + span;
    }
    request.width_px = 1 + static_cast<uint32_t>(rng() % 3000);
    request.max_primitives = UINT64_MAX;
    auto result = QueryTiles(index, request);
    ASSERT_TRUE(result.ok());
    uint64_t total = 0;
    for (const TrackTile& tile : result->tracks) {
      uint64_t expected = OverlappingEvents(index, tile.track, request.start_ps, request.end_ps);
      EXPECT_EQ(CountedEvents(tile), expected) << "track " << index.tracks()[tile.track].name << " trial " << trial;
      if (trial == 0) {
        EXPECT_EQ(CountedEvents(tile), index.tracks()[tile.track].num_events);
      }
      total += expected;
    }
    EXPECT_EQ(result->num_events, total);
  }
}

TEST(TileQueryTest, WideEventsComeBackAsThemselvesAndSummariesStayInOneBucket) {
  TraceIndex index = IndexOf(DenseAndLoneSpace(4, 30000));
  uint32_t dense = TrackNamed(index, "dense");
  TileRequest request;
  request.start_ps = 0;
  request.end_ps = index.end_ps() / 4;
  request.width_px = 1500;
  request.tracks = {dense};
  auto result = QueryTiles(index, request);
  ASSERT_TRUE(result.ok());
  const int64_t r = result->resolution_ps;
  EXPECT_EQ(r & (r - 1), 0) << "resolution is a power of two";
  EXPECT_LE(r, (request.end_ps - request.start_ps) / request.width_px);
  EXPECT_GT(2 * r, (request.end_ps - request.start_ps) / request.width_px);
  int wide = 0;
  for (const TilePrimitive& p : result->tracks[0].primitives) {
    if (!p.summary) {
      EXPECT_GE(p.end_ps - p.start_ps, r);
      EXPECT_EQ(p.count, 1u);
      ++wide;
    } else {
      EXPECT_GE(p.count, 1u);
    }
  }
  EXPECT_GT(wide, 0);
  // Every summary's events start in one bucket and are all narrower than R.
  const TraceTrack& track = index.tracks()[dense];
  for (const TilePrimitive& p : result->tracks[0].primitives) {
    if (!p.summary) continue;
    RowView row = index.row_view(track.row_begin + p.depth);
    uint64_t i = row.FirstStartingAtOrAfter(p.start_ps, 0);
    while (i < row.size() && row.event(i) != p.event) ++i;
    ASSERT_LT(i, row.size());
    int64_t bucket = row.start(i) / r;
    for (uint64_t k = 0; k < p.count; ++k) {
      EXPECT_LT(row.duration(i + k), r);
      EXPECT_EQ(row.start(i + k) / r, bucket);
    }
  }
}

TEST(TileQueryTest, PrimitivesBoundedByPixelsTimesRows) {
  TraceIndex index = IndexOf(DenseAndLoneSpace(5, 200000));
  uint32_t dense = TrackNamed(index, "dense");
  for (uint32_t width : {100u, 1000u, 4000u}) {
    TileRequest request;
    request.start_ps = 0;
    request.end_ps = index.end_ps() + 1;
    request.width_px = width;
    request.tracks = {dense};
    request.max_primitives = UINT64_MAX;
    auto result = QueryTiles(index, request);
    ASSERT_TRUE(result.ok());
    std::map<uint32_t, uint64_t> per_row;
    for (const TilePrimitive& p : result->tracks[0].primitives) ++per_row[p.depth];
    // The grid has at most 2 * width buckets (R is rounded down to a power of two), and a
    // row gets at most two primitives per bucket.
    for (auto [depth, n] : per_row) EXPECT_LE(n, 4u * width + 2) << "depth " << depth << " width " << width;
    EXPECT_LT(result->num_primitives, index.tracks()[dense].num_events);
  }
}

TEST(TileQueryTest, BudgetCoarsensInsteadOfDroppingEvents) {
  TraceIndex index = IndexOf(DenseAndLoneSpace(6, 100000));
  TileRequest request;
  request.start_ps = 0;
  request.end_ps = index.end_ps() + 1;
  request.width_px = 16000;
  request.max_primitives = 500;
  auto result = QueryTiles(index, request);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->coarsened);
  EXPECT_LE(result->num_primitives, 500u);
  EXPECT_EQ(result->num_events, index.num_events());
  EXPECT_GT(result->resolution_ps, TileResolutionPs(request.start_ps, request.end_ps, request.width_px));
}

TEST(TileQueryTest, ZoomedInFarEnoughEveryEventIsIndividual) {
  TraceIndex index = IndexOf(DenseAndLoneSpace(8, 5000));
  uint32_t dense = TrackNamed(index, "dense");
  TileRequest request;
  request.start_ps = 100'000;
  request.end_ps = 101'000;
  request.width_px = 1000;  // 1 ps per pixel
  request.tracks = {dense};
  auto result = QueryTiles(index, request);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->resolution_ps, 1);
  for (const TilePrimitive& p : result->tracks[0].primitives) {
    // Only instants (0 ps) can still be summaries at 1 ps per pixel.
    if (p.summary) {
      EXPECT_EQ(p.end_ps, p.start_ps);
    }
  }
}

TEST(TileQueryTest, BadRequestsAreRefused) {
  TraceIndex index = IndexOf(DenseAndLoneSpace(9, 100));
  TileRequest request;
  request.start_ps = 10;
  request.end_ps = 10;
  EXPECT_EQ(QueryTiles(index, request).status().code(), StatusCode::kInvalidArgument);
  request.end_ps = 20;
  request.width_px = 0;
  EXPECT_EQ(QueryTiles(index, request).status().code(), StatusCode::kInvalidArgument);
  request.width_px = kMaxTileWidthPx + 1;
  EXPECT_EQ(QueryTiles(index, request).status().code(), StatusCode::kInvalidArgument);
  request.width_px = 100;
  request.tracks = {999};
  EXPECT_EQ(QueryTiles(index, request).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace stepscope::analysis::trace
