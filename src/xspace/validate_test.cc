#include "src/xspace/validate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "src/xspace/xplane_builder.h"
#include "src/xspace/xplane_visitor.h"

namespace stepscope::xspace {
namespace {

XSpace OneEvent(int64_t line_timestamp_ns, int64_t offset_ps, int64_t duration_ps) {
  XSpace space;
  XPlaneBuilder plane(space.add_planes());
  plane.SetName(kHostThreadsPlaneName);
  XLineBuilder line = plane.GetOrCreateLine(1);
  line.SetName("t");
  line.SetTimestampNs(line_timestamp_ns);
  XEventBuilder event = line.AddEvent(*plane.GetOrCreateEventMetadata("e"));
  event.SetOffsetPs(offset_ps);
  event.SetDurationPs(duration_ps);
  return space;
}

TEST(ValidateXSpaceTest, AcceptsTimesThatFitInt64Picoseconds) {
  EXPECT_TRUE(ValidateXSpace(OneEvent(237916, 1921054081000, 19865491000)).ok());
  // Relative to the profile start, as TensorFlow normalizes them; also large but valid.
  EXPECT_TRUE(ValidateXSpace(OneEvent(INT64_MAX / 1000, 0, 0)).ok());
  EXPECT_TRUE(ValidateXSpace(OneEvent(0, -9'000'000'000'000'000'000, 9'000'000'000'000'000'000)).ok());
}

TEST(ValidateXSpaceTest, RejectsEventTimesOutsideInt64Picoseconds) {
  // Un-normalized epoch nanoseconds (1.7e18 ns) cannot be expressed in int64 ps.
  Status epoch = ValidateXSpace(OneEvent(1'700'000'000'000'000'000, 0, 10));
  EXPECT_EQ(epoch.code(), StatusCode::kDataLoss);
  EXPECT_NE(epoch.message().find("wall-clock time"), std::string::npos) << epoch.message();
  Status offset = ValidateXSpace(OneEvent(0, INT64_MAX, 1));
  EXPECT_NE(offset.message().find("int64 picoseconds"), std::string::npos) << offset.message();
  EXPECT_FALSE(ValidateXSpace(OneEvent(INT64_MAX / 1000, INT64_MAX, 0)).ok());
  EXPECT_FALSE(ValidateXSpace(OneEvent(0, INT64_MAX, 1)).ok());
  EXPECT_FALSE(ValidateXSpace(OneEvent(-1, INT64_MIN, 0)).ok());
}

TEST(ValidateXSpaceTest, RejectsEmptySpacesAndPlanesWhoseEventsAreAllUnnamed) {
  EXPECT_EQ(ValidateXSpace(XSpace()).code(), StatusCode::kDataLoss);
  XSpace space = OneEvent(0, 0, 1);
  space.mutable_planes(0)->mutable_event_metadata()->clear();
  EXPECT_EQ(ValidateXSpace(space).code(), StatusCode::kDataLoss);
}

TEST(XStatVisitorTest, DoubleToIntegerSaturatesInsteadOfOverflowing) {
  XSpace space;
  XPlaneBuilder plane(space.add_planes());
  const double values[] = {1e300, -1e300, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(), -0.5, 3.9, -3.9, 1.8e19};
  for (double value : values) plane.AddStatValue(*plane.GetOrCreateStatMetadata("v"), value);
  XPlaneVisitor visitor(&space.planes(0));
  std::vector<std::pair<int64_t, uint64_t>> got;
  visitor.ForEachStat([&](const XStatVisitor& stat) { got.emplace_back(stat.IntValue(), stat.UintValue()); });
  ASSERT_EQ(got.size(), 8u);
  EXPECT_EQ(got[0], std::make_pair(INT64_MAX, UINT64_MAX));
  EXPECT_EQ(got[1].first, INT64_MIN);
  EXPECT_EQ(got[2], std::make_pair(int64_t{0}, uint64_t{0}));
  EXPECT_EQ(got[3], std::make_pair(INT64_MAX, UINT64_MAX));
  EXPECT_EQ(got[4], std::make_pair(int64_t{0}, uint64_t{0}));
  EXPECT_EQ(got[5], std::make_pair(int64_t{3}, uint64_t{3}));
  EXPECT_EQ(got[6].first, -3);
  EXPECT_EQ(got[7].first, INT64_MAX);
  EXPECT_EQ(got[7].second, 18'000'000'000'000'000'000ULL);
}

}  // namespace
}  // namespace stepscope::xspace
