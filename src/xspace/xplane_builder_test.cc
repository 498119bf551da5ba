#include "src/xspace/xplane_builder.h"

#include <gtest/gtest.h>

#include "src/xspace/xplane_visitor.h"

namespace stepscope::xspace {
namespace {

TEST(XPlaneBuilderTest, InternsMetadataAndStoresTimesRelativeToLine) {
  XSpace space;
  XPlaneBuilder plane(space.add_planes());
  plane.SetName(kHostThreadsPlaneName);
  XLineBuilder line = plane.GetOrCreateLine(42);
  line.SetName("main");
  line.SetTimestampNs(1000);
  XEventMetadata* train = plane.GetOrCreateEventMetadata("train");
  EXPECT_EQ(train, plane.GetOrCreateEventMetadata("train"));
  EXPECT_EQ(train->id(), 1);
  XEventBuilder event = line.AddEvent(*train);
  event.SetTimestampNs(1500);
  event.SetEndTimestampNs(2500);
  event.AddStatValue(StatType::kStepNum, int64_t{5});
  event.AddStatValue(StatType::kIsRoot, int64_t{1});
  event.ParseAndAddStatValue(*plane.GetOrCreateStatMetadata("ratio"), "0.25");
  event.ParseAndAddStatValue(*plane.GetOrCreateStatMetadata("op"), "conv:Conv2D");
  event.ParseAndAddStatValue(*plane.GetOrCreateStatMetadata("big"), "18446744073709551615");

  const XEvent& raw = space.planes(0).lines(0).events(0);
  EXPECT_EQ(raw.offset_ps(), 500000);
  EXPECT_EQ(raw.duration_ps(), 1000000);

  XPlaneVisitor visitor(&space.planes(0));
  XEventVisitor e = visitor.line(0).event(0);
  EXPECT_EQ(e.name(), "train");
  EXPECT_EQ(e.timestamp_ns(), 1500);
  EXPECT_EQ(e.GetStat(StatType::kStepNum)->IntValue(), 5);
  EXPECT_EQ(e.GetStat(StatType::kIsRoot)->IntValue(), 1);
  EXPECT_EQ(e.GetStat("ratio")->raw().value_case(), XStat::kDoubleValue);
  EXPECT_DOUBLE_EQ(e.GetStat("ratio")->DoubleValue(), 0.25);
  EXPECT_EQ(e.GetStat("op")->raw().value_case(), XStat::kRefValue);
  EXPECT_EQ(e.GetStat("op")->StrOrRefValue(), "conv:Conv2D");
  EXPECT_EQ(e.GetStat("big")->raw().value_case(), XStat::kUint64Value);
  EXPECT_FALSE(e.GetStat(StatType::kGroupId).has_value());
}

TEST(XPlaneBuilderTest, WrappingAnExistingPlaneContinuesIds) {
  XSpace space;
  {
    XPlaneBuilder plane(space.add_planes());
    plane.GetOrCreateEventMetadata("a");
    plane.GetOrCreateEventMetadata("b");
    plane.GetOrCreateLine(1).SetName("t1");
  }
  XPlaneBuilder again(space.mutable_planes(0));
  EXPECT_EQ(again.GetOrCreateEventMetadata("a")->id(), 1);
  EXPECT_EQ(again.GetOrCreateEventMetadata("c")->id(), 3);
  again.GetOrCreateLine(1).SetName("renamed");
  EXPECT_EQ(space.planes(0).lines_size(), 1);
  EXPECT_EQ(space.planes(0).lines(0).name(), "renamed");
}

TEST(XPlaneBuilderTest, MetadataStatsAreMergedIntoEventStats) {
  XSpace space;
  XPlaneBuilder plane(space.add_planes());
  XEventMetadata* md = plane.GetOrCreateEventMetadata("matmul");
  XStatsBuilder<XEventMetadata>(md, &plane).AddStatValue(StatType::kFlops, uint64_t{1000});
  XLineBuilder line = plane.GetOrCreateLine(0);
  line.AddEvent(*md).AddStatValue(StatType::kGroupId, int64_t{3});
  XPlaneVisitor visitor(&space.planes(0));
  XEventVisitor e = visitor.line(0).event(0);
  EXPECT_EQ(e.GetStat(StatType::kFlops)->UintValue(), 1000u);
  int count = 0;
  e.ForEachStat([&](const XStatVisitor&) { ++count; });
  EXPECT_EQ(count, 2);
}

}  // namespace
}  // namespace stepscope::xspace
