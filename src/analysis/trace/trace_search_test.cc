#include "src/analysis/trace/trace_search.h"

#include <gtest/gtest.h>

#include "src/analysis/trace/tile_query.h"
#include "src/analysis/trace/trace_test_util.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;
using xspace::XSpace;

XSpace TwoThreadSpace() {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder a = host.GetOrCreateLine(1);
  a.SetName("a");
  XLineBuilder b = host.GetOrCreateLine(2);
  b.SetName("b");
  for (int i = 0; i < 1000; ++i) AddEventPs(host, a, "noise", i * 1000, 500);
  AddEventPs(host, b, "model/dense_1/MatMul:MatMul", 900'000, 50);
  AddEventPs(host, a, "model/dense_2/MatMul:MatMul", 1'000'000, 50);
  AddEventPs(host, b, "model/dense_0/MatMul:MatMul", 10, 50);
  xspace::XEventMetadata* relu = host.GetOrCreateEventMetadata("model/relu:Relu");
  relu->set_display_name("Relu");
  xspace::XEventBuilder e = b.AddEvent(*relu);
  e.SetOffsetPs(5000);
  e.SetDurationPs(5);
  return space;
}

TEST(TraceSearchTest, FindsMatchesAcrossTheWholeTraceInTimeOrder) {
  TraceIndex index = IndexOf(TwoThreadSpace());
  auto result = SearchEvents(index, "matmul");  // case-insensitive
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->total, 3u);
  ASSERT_EQ(result->matches.size(), 3u);
  EXPECT_EQ(index.EventName(result->matches[0].track, result->matches[0].event), "model/dense_0/MatMul:MatMul");
  EXPECT_EQ(index.EventName(result->matches[1].track, result->matches[1].event), "model/dense_1/MatMul:MatMul");
  EXPECT_EQ(index.EventName(result->matches[2].track, result->matches[2].event), "model/dense_2/MatMul:MatMul");
  EXPECT_FALSE(result->truncated());
}

TEST(TraceSearchTest, NextAndPreviousReachMatchesOutsideTheVisibleWindow) {
  TraceIndex index = IndexOf(TwoThreadSpace());
  auto result = SearchEvents(index, "MatMul");
  ASSERT_TRUE(result.ok());
  // The window [100 ns, 200 ns) holds no match; stepping from it finds the ones outside.
  TileRequest window;
  window.start_ps = 100'000;
  window.end_ps = 200'000;
  auto tiles = QueryTiles(index, window);
  ASSERT_TRUE(tiles.ok());
  for (const TrackTile& tile : tiles->tracks) {
    for (const TilePrimitive& p : tile.primitives) {
      EXPECT_EQ(index.EventName(tile.track, p.event).find("MatMul"), std::string_view::npos);
    }
  }
  SearchMatch cursor{window.start_ps, 0, 0};
  int64_t next = StepSearch(*result, cursor, /*next=*/true);
  ASSERT_GE(next, 0);
  EXPECT_EQ(result->matches[next].start_ps, 900'000);
  int64_t previous = StepSearch(*result, cursor, /*next=*/false);
  ASSERT_GE(previous, 0);
  EXPECT_EQ(result->matches[previous].start_ps, 10);
  // From a match, next is the following one; past the last it wraps to the first.
  EXPECT_EQ(StepSearch(*result, result->matches[1], true), 2);
  EXPECT_EQ(StepSearch(*result, result->matches[2], true), 0);
  EXPECT_EQ(StepSearch(*result, result->matches[0], false), 2);
}

TEST(TraceSearchTest, MatchesDisplayNamesAndRefusesEmptyQueries) {
  TraceIndex index = IndexOf(TwoThreadSpace());
  auto relu = SearchEvents(index, "relu");
  ASSERT_TRUE(relu.ok());
  EXPECT_EQ(relu->total, 1u);
  auto none = SearchEvents(index, "no such op");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->total, 0u);
  EXPECT_EQ(StepSearch(*none, SearchMatch{}, true), -1);
  EXPECT_EQ(SearchEvents(index, "").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(SearchEvents(index, std::string(kMaxSearchQueryBytes + 1, 'x')).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace stepscope::analysis::trace
