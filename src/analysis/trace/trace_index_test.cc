#include "src/analysis/trace/trace_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "src/analysis/trace/trace_test_util.h"
#include "src/analysis/trace/track_layout.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;
using testing::TrackNamed;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;
using xspace::XSpace;

// The (depth, start) of every event of a track, by walking its rows.
std::vector<std::pair<uint32_t, int64_t>> DepthsAndStarts(const TraceIndex& index, uint32_t track) {
  std::vector<std::pair<uint32_t, int64_t>> out;
  const TraceTrack& t = index.tracks()[track];
  for (uint32_t r = t.row_begin; r < t.row_end; ++r) {
    RowView row = index.row_view(r);
    for (uint64_t i = 0; i < row.size(); ++i) out.emplace_back(index.rows()[r].depth, row.start(i));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return out;
}

TEST(TrackLayoutTest, SectionsDevicesByOrdinalThenHostThenOthers) {
  std::vector<std::string> names = {"/host:CPU", "/device:GPU:10", "/host:CUPTI", "/device:GPU:2", "/device:TPU:0"};
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return PlaceSection(a).sort_key < PlaceSection(b).sort_key;
  });
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 3),
            (std::vector<std::string>{"/device:GPU:2", "/device:GPU:10", "/device:TPU:0"}));
  // Both host thread planes place in the one Host Threads section.
  EXPECT_EQ(PlaceSection("/host:CUPTI").sort_key, PlaceSection("/host:CPU").sort_key);
  EXPECT_EQ(PlaceSection("/host:CUPTI").name, "Host Threads");
  EXPECT_EQ(PlaceSection("/host:CPU").name, "Host Threads");
  EXPECT_EQ(PlaceSection("/host:CPU").kind, SectionKind::kHost);
  EXPECT_EQ(PlaceSection("/device:GPU:0").kind, SectionKind::kDevice);
}

TEST(TrackLayoutTest, DeviceTracksInViewerOrderAndCounterLineHidden) {
  XSpace space;
  XPlaneBuilder gpu(space.add_planes());
  gpu.SetName("/device:GPU:0");
  for (auto [id, name] : std::vector<std::pair<int64_t, std::string>>{{20, "Stream #20(Compute)"},
                                                                       {7, "Stream #7(MemcpyH2D)"},
                                                                       {-559038735, "XLA Ops"},
                                                                       {-559038734, "TensorFlow Ops"},
                                                                       {-559038737, "Steps"},
                                                                       {xspace::kCounterEventsLineId, "_counters_"}}) {
    XLineBuilder line = gpu.GetOrCreateLine(id);
    line.SetName(name);
    AddEventPs(gpu, line, "e", 1000, 10);
  }
  TraceIndex index = IndexOf(space);
  ASSERT_EQ(index.sections().size(), 1u);
  std::vector<std::string> order;
  for (uint32_t t : index.sections()[0].tracks) order.push_back(index.tracks()[t].name);
  EXPECT_EQ(order, (std::vector<std::string>{"Steps", "TensorFlow Ops", "XLA Ops", "Stream #7(MemcpyH2D)",
                                             "Stream #20(Compute)"}));
  EXPECT_EQ(index.tracks()[TrackNamed(index, "Stream #7(MemcpyH2D)")].kind, TrackKind::kStream);
  EXPECT_EQ(index.tracks()[TrackNamed(index, "TensorFlow Ops")].kind, TrackKind::kFrameworkOps);
}

TEST(TraceIndexTest, OneOsThreadFromSeveralHostPlanesIsOneGroupOfAdjacentLanes) {
  XSpace space;
  XPlaneBuilder cpu(space.add_planes());
  cpu.SetName(xspace::kHostThreadsPlaneName);
  XPlaneBuilder cupti(space.add_planes());
  cupti.SetName(xspace::kCuptiDriverApiPlaneName);
  XPlaneBuilder python(space.add_planes());
  python.SetName(xspace::kPythonTracerPlaneName);
  XLineBuilder main = cpu.GetOrCreateLine(12);
  main.SetName("python3");
  XLineBuilder worker = cpu.GetOrCreateLine(40);
  worker.SetName("worker");
  XLineBuilder main_cupti = cupti.GetOrCreateLine(12);
  main_cupti.SetName("python3");
  XLineBuilder main_python = python.GetOrCreateLine(12);
  main_python.SetName("python3");
  XLineBuilder other_python = python.GetOrCreateLine(7);
  other_python.SetName("python3");
  AddEventPs(cpu, main, "step", 0, 100);
  AddEventPs(cpu, worker, "work", 0, 100);
  AddEventPs(cupti, main_cupti, "cudaLaunchKernel", 10, 5);
  AddEventPs(python, main_python, "forward", 5, 50);
  AddEventPs(python, other_python, "other", 5, 50);
  TraceIndex index = IndexOf(space);
  ASSERT_EQ(index.sections().size(), 1u) << "the three thread planes are one Host Threads section";
  EXPECT_EQ(index.sections()[0].name, "Host Threads");
  std::vector<std::pair<int64_t, std::string>> lanes;
  for (uint32_t t : index.sections()[0].tracks) lanes.emplace_back(index.tracks()[t].line_id, index.tracks()[t].name);
  // By name, then thread id: tid 7 before tid 12, whose three lanes are adjacent.
  ASSERT_EQ(lanes.size(), 5u);
  EXPECT_EQ(lanes[0], (std::pair<int64_t, std::string>{7, "python3 [python-tracer]"}));
  EXPECT_EQ(lanes[1].first, 12);
  EXPECT_EQ(lanes[2].first, 12);
  EXPECT_EQ(lanes[3].first, 12);
  EXPECT_EQ(lanes[4], (std::pair<int64_t, std::string>{40, "worker"}));
  std::vector<std::string> tid12 = {lanes[1].second, lanes[2].second, lanes[3].second};
  std::sort(tid12.begin(), tid12.end());
  EXPECT_EQ(tid12, (std::vector<std::string>{"python3", "python3 [CUPTI]", "python3 [python-tracer]"}));
}

TEST(TraceIndexTest, NestingDepthFromTimeInclusion) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(42);
  line.SetName("python3");
  // train [0,100) > forward [10,60) > matmul [20,30), relu [30,40) (siblings); backward
  // [60,90) is a sibling of forward; an instant at 95 inside train; after [100,110) at 0.
  AddEventPs(host, line, "train", 0, 100);
  AddEventPs(host, line, "forward", 10, 50);
  AddEventPs(host, line, "matmul", 20, 10);
  AddEventPs(host, line, "relu", 30, 10);
  AddEventPs(host, line, "backward", 60, 30);
  AddEventPs(host, line, "mark", 95, 0);
  AddEventPs(host, line, "after", 100, 10);
  TraceIndex index = IndexOf(space);
  ASSERT_EQ(index.tracks().size(), 1u);
  EXPECT_EQ(index.tracks()[0].num_rows(), 3u);
  EXPECT_EQ(DepthsAndStarts(index, 0), (std::vector<std::pair<uint32_t, int64_t>>{
                                           {0, 0}, {1, 10}, {2, 20}, {2, 30}, {1, 60}, {1, 95}, {0, 100}}));
  EXPECT_EQ(index.num_events(), 7u);
  EXPECT_EQ(index.end_ps(), 110);
}

TEST(TraceIndexTest, UnsortedLineIsSortedAndEqualStartsPutParentsFirst) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("t");
  AddEventPs(host, line, "child", 50, 10);   // same start as its parent, shorter
  AddEventPs(host, line, "late", 200, 5);
  AddEventPs(host, line, "parent", 50, 100);
  AddEventPs(host, line, "first", 0, 20);
  TraceIndex index = IndexOf(space);
  EXPECT_EQ(DepthsAndStarts(index, 0),
            (std::vector<std::pair<uint32_t, int64_t>>{{0, 0}, {0, 50}, {1, 50}, {0, 200}}));
  // The depth-1 event at 50 is the child, the depth-0 one the parent.
  RowView row1 = index.row_view(index.tracks()[0].row_begin + 1);
  ASSERT_EQ(row1.size(), 1u);
  EXPECT_EQ(index.EventName(0, row1.event(0)), "child");
}

TEST(TraceIndexTest, PartialOverlapMovesDownSoRowsNeverOverlap) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("t");
  AddEventPs(host, line, "a", 0, 100);
  AddEventPs(host, line, "b", 50, 100);  // overlaps a's end: malformed nesting
  AddEventPs(host, line, "c", 120, 10);  // inside b only
  TraceIndex index = IndexOf(space);
  const TraceTrack& track = index.tracks()[0];
  for (uint32_t r = track.row_begin; r < track.row_end; ++r) {
    RowView row = index.row_view(r);
    for (uint64_t i = 1; i < row.size(); ++i) EXPECT_GE(row.start(i), row.end(i - 1)) << "row " << r;
  }
  EXPECT_EQ(index.num_events(), 3u);
}

TEST(TraceIndexTest, RandomNestedEventsKeepRowInvariants) {
  std::mt19937_64 rng(7);
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("t");
  // Properly nested random trees: each event's children split its interval.
  std::function<void(int64_t, int64_t, int)> add = [&](int64_t start, int64_t end, int depth) {
    AddEventPs(host, line, "d" + std::to_string(depth), start, end - start);
    if (depth >= 5 || end - start < 8) return;
    int64_t t = start + static_cast<int64_t>(rng() % 3);
    while (t + 2 < end) {
      int64_t len = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>((end - t) / 2 + 1));
      if (t + len > end) break;
      add(t, t + len, depth + 1);
      t += len + static_cast<int64_t>(rng() % 3);
    }
  };
  add(0, 100000, 0);
  TraceIndex index = IndexOf(space);
  const TraceTrack& track = index.tracks()[0];
  uint64_t total = 0;
  for (uint32_t r = track.row_begin; r < track.row_end; ++r) {
    RowView row = index.row_view(r);
    total += row.size();
    for (uint64_t i = 0; i < row.size(); ++i) {
      // The event's name says the depth it was generated at.
      EXPECT_EQ(index.EventName(0, row.event(i)), "d" + std::to_string(index.rows()[r].depth));
      if (i > 0) {
        EXPECT_GE(row.start(i), row.end(i - 1));
      }
    }
  }
  EXPECT_EQ(total, track.num_events);
}

TEST(TraceIndexTest, AggregatedEventsStayOffTheTimeline) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("t");
  AddEventPs(host, line, "timed", 100, 10);
  xspace::XEventBuilder aggregated = line.AddEvent(*host.GetOrCreateEventMetadata("aggregated"));
  aggregated.SetNumOccurrences(5);
  TraceIndex index = IndexOf(space);
  EXPECT_EQ(index.num_events(), 1u);
  EXPECT_EQ(index.tracks()[0].start_ps, 0);  // trace time starts at the first timed event
}

TEST(TraceIndexTest, TraceTimeStartsAtTheEarliestEvent) {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder a = host.GetOrCreateLine(1);
  a.SetName("a");
  a.SetTimestampNs(1000);
  AddEventPs(host, a, "x", 5000, 10);  // at 1'005'000 ps
  XLineBuilder b = host.GetOrCreateLine(2);
  b.SetName("b");
  b.SetTimestampNs(1000);
  AddEventPs(host, b, "y", 2000, 10);  // at 1'002'000 ps: the origin
  TraceIndex index = IndexOf(space);
  EXPECT_EQ(index.tracks()[TrackNamed(index, "b")].start_ps, 0);
  EXPECT_EQ(index.tracks()[TrackNamed(index, "a")].start_ps, 3000);
  EXPECT_EQ(index.end_ps(), 3010);
}

TEST(TraceIndexTest, HostsAlignOnProfileStartTimes) {
  std::vector<TraceSourceInput> sources;
  for (int host = 0; host < 2; ++host) {
    XSpace space;
    XPlaneBuilder env(space.add_planes());
    env.SetName(xspace::kTaskEnvPlaneName);
    env.AddStatValue(*env.GetOrCreateStatMetadata("profile_start_time"), uint64_t{1'000'000 + 500 * static_cast<uint64_t>(host)});
    XPlaneBuilder cpu(space.add_planes());
    cpu.SetName(xspace::kHostThreadsPlaneName);
    XLineBuilder line = cpu.GetOrCreateLine(1);
    line.SetName("main");
    AddEventPs(cpu, line, "step", 1000, 10);
    auto columnar = xspace::ConvertXSpaceToColumnar(space);
    ASSERT_TRUE(columnar.ok());
    sources.push_back(TraceSourceInput{"w" + std::to_string(host),
                                       std::make_shared<const xspace::ColumnarXSpace>(std::move(columnar).value())});
  }
  auto index = TraceIndex::Build(std::move(sources));
  ASSERT_TRUE(index.ok());
  ASSERT_EQ(index->tracks().size(), 2u);
  // Host 1 started 500 ns later, so its event is 500'000 ps later on the common timeline.
  EXPECT_EQ(index->tracks()[0].start_ps, 0);
  EXPECT_EQ(index->tracks()[1].start_ps, 500'000);
  EXPECT_EQ(index->sections()[1].host, "w1");
}

TEST(RowViewTest, NextWithClassAtLeastMatchesBruteForce) {
  std::mt19937_64 rng(11);
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("t");
  int64_t t = 0;
  for (int i = 0; i < 20000; ++i) {
    // Mostly tiny events, rare long ones: the tree has to skip far.
    int64_t d = (rng() % 500 == 0) ? 1 << (10 + rng() % 10) : 1 + static_cast<int64_t>(rng() % 16);
    AddEventPs(host, line, "e", t, d);
    t += d + static_cast<int64_t>(rng() % 4);
  }
  TraceIndex index = IndexOf(space);
  RowView row = index.row_view(0);
  ASSERT_EQ(row.size(), 20000u);
  for (int trial = 0; trial < 2000; ++trial) {
    uint64_t from = rng() % row.size();
    uint64_t limit = from + rng() % (row.size() - from + 1);
    uint8_t min_class = static_cast<uint8_t>(rng() % 22);
    uint64_t expected = limit;
    for (uint64_t i = from; i < limit; ++i) {
      if (DurationClass(row.duration(i)) >= min_class) {
        expected = i;
        break;
      }
    }
    ASSERT_EQ(row.NextWithClassAtLeast(from, limit, min_class), expected)
        << "from " << from << " limit " << limit << " class " << int{min_class};
  }
}

TEST(RowViewTest, DurationClassIsExactForPowersOfTwo) {
  EXPECT_EQ(DurationClass(0), 0);
  EXPECT_EQ(DurationClass(-5), 0);
  EXPECT_EQ(DurationClass(1), 1);
  EXPECT_EQ(DurationClass(2), 2);
  EXPECT_EQ(DurationClass(3), 2);
  EXPECT_EQ(DurationClass(4), 3);
  // d >= 2^r  <=>  class >= r + 1
  for (int r = 0; r < 40; ++r) {
    int64_t p = int64_t{1} << r;
    EXPECT_GE(DurationClass(p), r + 1);
    EXPECT_LT(DurationClass(p - 1), r + 1);
  }
}

}  // namespace
}  // namespace stepscope::analysis::trace
