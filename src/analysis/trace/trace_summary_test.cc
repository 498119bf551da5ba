// The selection summary counts every event of the range from the index, including those a
// zoomed-out tile merges into hatched summaries, with total and self time by name.
#include "src/analysis/trace/trace_summary.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "src/analysis/trace/tile_query.h"
#include "src/analysis/trace/trace_test_util.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;

constexpr int kKernels = 1000;

// One thread: "step" [0, 1'000'000) holding "launch" calls of 100 ps every 1000 ps (depth
// 1), each holding a 10 ps "probe" (depth 2); after the step, "tail" [2'000'000, 2'000'500).
xspace::XSpace MakeSpace() {
  xspace::XSpace space;
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  xspace::XLineBuilder line = host.GetOrCreateLine(7);
  line.SetName("main");
  AddEventPs(host, line, "step", 0, 1'000'000);
  for (int i = 0; i < kKernels; ++i) {
    AddEventPs(host, line, "launch", 1000 * i, 100);
    AddEventPs(host, line, "probe", 1000 * i + 20, 10);
  }
  AddEventPs(host, line, "tail", 2'000'000, 500);
  return space;
}

const SummaryName* Find(const TraceSummary& s, std::string_view name) {
  auto it = std::find_if(s.names.begin(), s.names.end(), [&](const SummaryName& n) { return n.name == name; });
  return it == s.names.end() ? nullptr : &*it;
}

TEST(TraceSummaryTest, CountsEveryEventTheZoomedOutViewMergesAway) {
  TraceIndex index = IndexOf(MakeSpace());
  // The whole trace on 100 pixels: the launches are far below a pixel and drawn as a few
  // merged summaries, not one by one.
  TileRequest tiles;
  tiles.start_ps = 0;
  tiles.end_ps = 2'000'500;
  tiles.width_px = 100;
  auto view = QueryTiles(index, tiles);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  uint64_t drawn_one_by_one = 0;
  for (const TrackTile& track : view->tracks) {
    for (const TilePrimitive& p : track.primitives) drawn_one_by_one += p.summary ? 0 : 1;
  }
  ASSERT_LT(drawn_one_by_one, 10u) << "the view must merge the launches for this test to mean anything";

  auto summary = SummarizeRange(index, {.start_ps = 0, .end_ps = 2'000'500});
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_EQ(summary->events, static_cast<uint64_t>(2 * kKernels + 2));
  EXPECT_EQ(summary->distinct_names, 4u);
  const SummaryName* launch = Find(*summary, "launch");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->count, static_cast<uint64_t>(kKernels));
  EXPECT_EQ(launch->total_ps, 100 * kKernels);
  EXPECT_EQ(launch->self_ps, 90 * kKernels) << "minus each launch's 10 ps probe";
  const SummaryName* step = Find(*summary, "step");
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->total_ps, 1'000'000);
  EXPECT_EQ(step->self_ps, 1'000'000 - 100 * kKernels) << "minus its launches, not their probes";
  EXPECT_EQ(summary->names[0].name, "step") << "largest total first";
}

TEST(TraceSummaryTest, ARangeCountsTheEventsThatOverlapIt) {
  TraceIndex index = IndexOf(MakeSpace());
  // [10'050, 20'050): launches 10..20 overlap (10 reaches into it, 20 starts before its
  // end), probes 11..20 (probe 10 ended at 10'030); the step overlaps; the tail does not.
  auto summary = SummarizeRange(index, {.start_ps = 10'050, .end_ps = 20'050});
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(Find(*summary, "launch")->count, 11u);
  EXPECT_EQ(Find(*summary, "probe")->count, 10u);
  EXPECT_EQ(Find(*summary, "step")->count, 1u);
  EXPECT_EQ(Find(*summary, "tail"), nullptr);
  EXPECT_EQ(summary->events, 22u);
}

TEST(TraceSummaryTest, RefusesAnInvertedRangeAndUnknownTracks) {
  TraceIndex index = IndexOf(MakeSpace());
  EXPECT_EQ(SummarizeRange(index, {.start_ps = 10, .end_ps = 5}).status().code(), StatusCode::kInvalidArgument);
  auto unknown = SummarizeRange(index, {.start_ps = 0, .end_ps = 5, .tracks = {99}});
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("no track 99"), std::string::npos);
}

}  // namespace
}  // namespace stepscope::analysis::trace
