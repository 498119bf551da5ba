#include "src/xspace/dropped_events.h"

#include <gtest/gtest.h>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::xspace {
namespace {

TEST(DroppedEventCountTest, SumsEveryPlanesDroppedTracesStat) {
  XSpace space;
  XPlaneBuilder host(FindOrAddMutablePlaneWithName(&space, kHostThreadsPlaneName));
  host.AddStatValue(StatType::kDroppedTraces, uint64_t{5});
  XPlaneBuilder gpu(FindOrAddMutablePlaneWithName(&space, "/device:GPU:0"));
  gpu.AddStatValue(StatType::kDroppedTraces, int64_t{2});
  EXPECT_EQ(DroppedEventCount(space), 7);
}

TEST(DroppedEventCountTest, UnsetWhenNoPlaneCountsAndZeroWhenOneDoes) {
  XSpace space;
  FindOrAddMutablePlaneWithName(&space, kHostThreadsPlaneName);
  EXPECT_EQ(DroppedEventCount(space), std::nullopt);
  XPlaneBuilder(FindOrAddMutablePlaneWithName(&space, kHostThreadsPlaneName))
      .AddStatValue(StatType::kDroppedTraces, int64_t{0});
  EXPECT_EQ(DroppedEventCount(space), 0);
}

TEST(DroppedEventCountTest, SaturatesInsteadOfOverflowing) {
  XSpace space;
  for (const char* name : {"a", "b"}) {
    XPlaneBuilder(FindOrAddMutablePlaneWithName(&space, name)).AddStatValue(StatType::kDroppedTraces, INT64_MAX);
  }
  EXPECT_EQ(DroppedEventCount(space), INT64_MAX);
}

}  // namespace
}  // namespace stepscope::xspace
