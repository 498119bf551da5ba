#include "src/xspace/schema.h"

#include <gtest/gtest.h>

namespace stepscope::xspace {
namespace {

TEST(SchemaTest, EveryStatTypeRoundTripsThroughItsName) {
  for (int i = 1; i < kNumStatTypes; ++i) {
    auto type = static_cast<StatType>(i);
    std::string_view name = GetStatTypeStr(type);
    ASSERT_FALSE(name.empty()) << i;
    EXPECT_EQ(FindStatType(name), type) << name;
  }
  EXPECT_EQ(FindStatType("no_such_stat"), StatType::kUnknown);
}

TEST(SchemaTest, TensorFlowNamesAreExact) {
  // These strings are what TensorBoard looks for; a typo silently breaks compatibility.
  EXPECT_EQ(GetStatTypeStr(StatType::kStepNum), "step_num");
  EXPECT_EQ(GetStatTypeStr(StatType::kIsRoot), "_r");
  EXPECT_EQ(GetStatTypeStr(StatType::kGroupId), "group_id");
  EXPECT_EQ(GetStatTypeStr(StatType::kTensorShapes), "shape");
  EXPECT_EQ(GetStatTypeStr(StatType::kCorrelationId), "correlation_id");
  EXPECT_EQ(kHostThreadsPlaneName, "/host:CPU");
  EXPECT_EQ(GpuPlaneName(3), "/device:GPU:3");
}

TEST(SchemaTest, PlaneAndLineClassification) {
  EXPECT_EQ(GpuOrdinalFromPlaneName("/device:GPU:12"), 12);
  EXPECT_FALSE(GpuOrdinalFromPlaneName("/device:GPU:"));
  EXPECT_FALSE(GpuOrdinalFromPlaneName("/device:GPU:1x"));
  EXPECT_TRUE(IsDevicePlaneName("/device:TPU:0"));
  EXPECT_FALSE(IsDevicePlaneName("/host:CPU"));
  EXPECT_TRUE(IsFrameworkOpLineName("TensorFlow Ops"));
  EXPECT_TRUE(IsFrameworkOpLineName("Framework Ops"));
  EXPECT_TRUE(IsDerivedLineName("Steps"));
  EXPECT_FALSE(IsDerivedLineName("Stream #7(Compute)"));
  EXPECT_EQ(kThreadIdDerivedMin, -559038737);
}

}  // namespace
}  // namespace stepscope::xspace
