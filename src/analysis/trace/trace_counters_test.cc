// Counter tracks: memory in use from allocation events and the `_counters_` line's series,
// and their sampling for a view (peaks kept at any zoom, the level in force at the start).
#include "src/analysis/trace/trace_counters.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "src/analysis/trace/trace_test_util.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;

// A thread with "step" [0, 100) and allocations on cuda:0 at 10, 20, 30 leaving 100, 300
// and 200 bytes in use (instants, as PyTorch records them); a `_counters_` line with "ctr"
// samples {cats, dogs} at 5 and 15.
xspace::XSpace MakeSpace() {
  xspace::XSpace space;
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  xspace::XLineBuilder main = host.GetOrCreateLine(3);
  main.SetName("python3");
  AddEventPs(host, main, "step", 0, 100);
  const auto& allocated = *host.GetOrCreateStatMetadata("bytes_allocated");
  const auto& allocator = *host.GetOrCreateStatMetadata("allocator_name");
  const std::pair<int64_t, int64_t> samples[] = {{10, 100}, {20, 300}, {30, 200}};
  for (const auto& [t, bytes] : samples) {
    xspace::XEventBuilder e =
        AddEventPs(host, main, bytes == 200 ? xspace::kMemoryDeallocationEventName : xspace::kMemoryAllocationEventName, t, 0);
    e.AddStatValue(allocated, bytes);
    e.AddStatValue(allocator, std::string_view("cuda:0"));
  }
  xspace::XLineBuilder counters = host.GetOrCreateLine(xspace::kCounterEventsLineId);
  counters.SetName(xspace::kCounterEventsLineName);
  const auto& cats = *host.GetOrCreateStatMetadata("cats");
  const auto& dogs = *host.GetOrCreateStatMetadata("dogs");
  for (int64_t t : {15, 5}) {  // out of order: the series are sorted by time
    xspace::XEventBuilder e = AddEventPs(host, counters, "ctr", t, 0);
    e.AddStatValue(cats, static_cast<double>(t));
    e.AddStatValue(dogs, int64_t{7});
  }
  return space;
}

const CounterSeries* Find(const TraceIndex& index, std::string_view name) {
  for (const CounterSeries& s : index.counters()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

TEST(TraceCountersTest, MemoryInUseAndCounterLineSeriesAreCounterTracks) {
  TraceIndex index = IndexOf(MakeSpace());
  ASSERT_EQ(index.counters().size(), 3u);
  const CounterSeries* memory = Find(index, "Memory in use (cuda:0)");
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(memory->unit, "bytes");
  EXPECT_EQ(memory->t_ps, (std::vector<int64_t>{10, 20, 30}));
  EXPECT_EQ(memory->value, (std::vector<double>{100, 300, 200}));
  EXPECT_EQ(memory->max_value, 300);
  EXPECT_EQ(memory->min_value, 100);
  const CounterSeries* cats = Find(index, "ctr cats");
  ASSERT_NE(cats, nullptr);
  EXPECT_EQ(cats->t_ps, (std::vector<int64_t>{5, 15}));
  EXPECT_EQ(cats->value, (std::vector<double>{5, 15}));
  ASSERT_NE(Find(index, "ctr dogs"), nullptr);
  EXPECT_EQ(index.counters()[0].name, "Memory in use (cuda:0)") << "memory first";
}

// stepscope's tracer writes the same NVML counters on every GPU's plane: one series per
// device, not one merged series.
TEST(TraceCountersTest, DeviceCountersAreOneSeriesPerDevice) {
  xspace::XSpace space = MakeSpace();
  for (int gpu : {0, 1}) {
    xspace::XPlaneBuilder plane(space.add_planes());
    plane.SetName("/device:GPU:" + std::to_string(gpu));
    xspace::XLineBuilder counters = plane.GetOrCreateLine(xspace::kCounterEventsLineId);
    counters.SetName(xspace::kCounterEventsLineName);
    const auto& value = *plane.GetOrCreateStatMetadata("value");
    for (int64_t t : {10, 20}) {
      AddEventPs(plane, counters, "sm_utilization_pct", t, 0).AddStatValue(value, static_cast<double>(gpu * 50 + t));
    }
  }
  TraceIndex index = IndexOf(space);
  for (int gpu : {0, 1}) {
    const CounterSeries* sm = Find(index, "/device:GPU:" + std::to_string(gpu) + " sm_utilization_pct");
    ASSERT_NE(sm, nullptr) << gpu;
    EXPECT_EQ(sm->t_ps, (std::vector<int64_t>{10, 20}));
    EXPECT_EQ(sm->value, (std::vector<double>{gpu * 50.0 + 10, gpu * 50.0 + 20}));
  }
  ASSERT_NE(Find(index, "ctr cats"), nullptr) << "host counters keep their names";
}

TEST(TraceCountersTest, ZoomedOutOnePixelKeepsThePeakAndTheLastLevel) {
  TraceIndex index = IndexOf(MakeSpace());
  auto points = QueryCounters(index, 0, 100, 1);
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  const CounterPoints& memory = (*points)[0];
  EXPECT_EQ(memory.t_ps, (std::vector<int64_t>{10, 30}));
  EXPECT_EQ(memory.value, (std::vector<double>{300, 200})) << "the peak of the pixel, then where it ends";
}

TEST(TraceCountersTest, ZoomedInEverySampleAndTheLevelInForceAtTheStart) {
  TraceIndex index = IndexOf(MakeSpace());
  auto all = QueryCounters(index, 0, 100, 1000);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ((*all)[0].t_ps, (std::vector<int64_t>{10, 20, 30}));
  EXPECT_EQ((*all)[0].value, (std::vector<double>{100, 300, 200}));
  auto late = QueryCounters(index, 25, 100, 1000);
  ASSERT_TRUE(late.ok());
  EXPECT_EQ((*late)[0].t_ps, (std::vector<int64_t>{20, 30}));
  EXPECT_EQ((*late)[0].value, (std::vector<double>{300, 200}));
  EXPECT_FALSE(QueryCounters(index, 10, 10, 100).ok());
  EXPECT_FALSE(QueryCounters(index, 0, 10, 0).ok());
}

}  // namespace
}  // namespace stepscope::analysis::trace
